package bench

import (
	"os/exec"
	"sync"
	"testing"

	"github.com/jujutools/juju/test/bench/internal/workload"
)

// BenchmarkRunCommandEcho is run_command `echo hi` in-process through the
// core exec plugin: the exec host function, a job with its log files, the
// child spawned in its own session and reaped (no sandbox: the in-process
// host has none; `make bench` measures the sandboxed call over stdio).
func BenchmarkRunCommandEcho(b *testing.B) {
	h := pluginHost(b, workspaceRoot(b))
	args := workload.Raw(map[string]any{"command": "echo hi"})
	pluginCall(b, h, "run_command", args)
	b.ReportAllocs()
	for b.Loop() {
		pluginCall(b, h, "run_command", args)
	}
}

// BenchmarkNativeEcho is the native side: bash -c "echo hi" with os/exec.
func BenchmarkNativeEcho(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("bash", "-c", "echo hi").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunCommandsSleep is run_commands of 8 × sleep 1: its time per
// operation is the wall time of one call, about a second when the
// commands really run at once.
func BenchmarkRunCommandsSleep(b *testing.B) {
	h := pluginHost(b, workspaceRoot(b))
	var cmds []string
	for range 8 {
		cmds = append(cmds, "sleep 1")
	}
	args := workload.Raw(map[string]any{"commands": cmds})
	for b.Loop() {
		pluginCall(b, h, "run_commands", args)
	}
}

// BenchmarkNativeSleeps is 8 × sleep 1 started at once with os/exec.
func BenchmarkNativeSleeps(b *testing.B) {
	for b.Loop() {
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() { exec.Command("sleep", "1").Run() })
		}
		wg.Wait()
	}
}
