package sysinfo

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

func call(t *testing.T, fn func(context.Context, []byte, []byte) ([]byte, []byte)) abi.EnvironmentResult {
	t.Helper()
	out, _ := fn(context.Background(), []byte(`{}`), nil)
	var res abi.EnvironmentResult
	if err := json.Unmarshal(out, &res); err != nil || res.Error != nil {
		t.Fatalf("%s: %v", out, err)
	}
	return res
}

func TestEnvironment(t *testing.T) {
	fns := New(Setup{Version: "v1", Mode: "edit", Roots: []string{"/w"}, Sandbox: "prefer", Secrets: []string{".env"}})
	if len(fns) != 1 || fns[0].Name != abi.FnEnvironment || fns[0].Capability != "" {
		t.Fatalf("functions: %+v", fns)
	}
	res := call(t, fns[0].Handle)
	if res.OS != runtime.GOOS || res.Arch != runtime.GOARCH || res.CPUs < 1 {
		t.Fatalf("system: %+v", res)
	}
	versions := map[string]string{}
	for _, tv := range res.Tools {
		versions[tv.Name] = tv.Version
	}
	if !strings.HasPrefix(versions["go"], "go version go1.") {
		t.Fatalf("go: %q (tools %v)", versions["go"], versions)
	}
	j := res.Juju
	if j.Version != "v1" || j.Mode != "edit" || j.Roots[0] != "/w" || j.Sandbox != "prefer" || j.Secrets[0] != ".env" || j.Deny == nil {
		t.Fatalf("juju: %+v", j)
	}
	if len(j.SandboxStatus) != 2 {
		t.Fatalf("sandbox: %+v", j.SandboxStatus)
	}
}

// TestProbe: a program that answers late is listed without a version; the
// probes run in parallel and outside the workspace, with a reduced
// environment.
func TestProbe(t *testing.T) {
	dir := t.TempDir()
	write := func(name, script string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("slow1", "exec /bin/sleep 5\necho late\n")
	write("slow2", "exec /bin/sleep 5\necho late\n")
	write("fast", "echo \"fast 1.2.3 $(pwd) token=$JUJU_TEST_TOKEN\"\n")
	write("quiet", "echo 'on stderr 4.5' >&2\n")
	t.Setenv("PATH", dir)
	t.Setenv("JUJU_TEST_TOKEN", "s3cret")
	began := time.Now()
	got := probeAll(context.Background(), []Program{{"slow1", nil}, {"fast", nil}, {"missing", nil}, {"slow2", nil}, {"quiet", nil}}, 300*time.Millisecond)
	if d := time.Since(began); d > 2*time.Second {
		t.Fatalf("probes took %v: not parallel or not cut", d)
	}
	want := []abi.ToolVersion{{Name: "slow1"}, {Name: "fast", Version: "fast 1.2.3 " + os.TempDir() + " token="}, {Name: "slow2"}, {Name: "quiet", Version: "on stderr 4.5"}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}
