package exec

import (
	"context"
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// BenchmarkExecShellEcho is the exec.shell host function alone running
// `echo hi`: the job, its logs, the spawn and the reap.
func BenchmarkExecShellEcho(b *testing.B) {
	m, _ := newManagerB(b)
	h := m.Funcs()[1].Handle
	req, _ := json.Marshal(abi.ExecRequest{Command: "echo hi"})
	for b.Loop() {
		rh, _ := h(context.Background(), req, nil)
		if len(rh) == 0 || rh[2] == 'e' {
			b.Fatalf("%s", rh)
		}
	}
}

// BenchmarkOSExecEcho is bash -c "echo hi" with os/exec alone.
func BenchmarkOSExecEcho(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("bash", "-c", "echo hi").Run(); err != nil {
			b.Fatal(err)
		}
	}
}
