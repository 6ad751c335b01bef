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
	got := probeAll(context.Background(), []Program{{"slow1", nil}, {"fast", nil}, {"missing", nil}, {"slow2", nil}, {"quiet", nil}}, nil, 300*time.Millisecond)
	if d := time.Since(began); d > 2*time.Second {
		t.Fatalf("probes took %v: not parallel or not cut", d)
	}
	want := []abi.ToolVersion{{Name: "slow1"}, {Name: "fast", Version: "fast 1.2.3 " + probeDir() + " token="}, {Name: "slow2"}, {Name: "quiet", Version: "on stderr 4.5"}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestProbesAreNotSteeredFromSharedFolders: programs look upward from
// their folder for settings that run code (mvn's .mvn/jvm.config), and
// read their home's (~/.mavenrc). A probe runs neither in the temporary
// folder, which any local user may write, nor with a home, JAVA_HOME or
// other folder variable inside a root, which a confined command may write.
func TestProbesAreNotSteeredFromSharedFolders(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell scripts")
	}
	shared, root, bin := t.TempDir(), t.TempDir(), t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	if err := os.MkdirAll(filepath.Join(shared, ".mvn"), 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	// mvn's own lookup, in short: the nearest .mvn above the folder, and
	// the home's .mavenrc.
	script := `d=$(pwd); while :; do [ -d "$d/.mvn" ] && { echo "steered by $d/.mvn"; exit; }; [ "$d" = / ] && break; d=$(dirname "$d"); done
[ -f "$HOME/.mavenrc" ] && { echo "steered by $HOME/.mavenrc"; exit; }
echo "mvn 3 home=$HOME java=${JAVA_HOME:-none} gopath=${GOPATH:-none} cargo=${CARGO_HOME:-none} lang=${LANG:-none}"
`
	if err := os.WriteFile(filepath.Join(bin, "mvn"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".mavenrc"), []byte("exec evil\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "java")
	if err := os.Symlink(filepath.Join(root, "jdk"), link); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":/usr/bin:/bin")
	t.Setenv("TMPDIR", shared)
	t.Setenv("HOME", home)
	t.Setenv("JAVA_HOME", link) // leads into the root
	t.Setenv("GOPATH", "relative")
	loop := filepath.Join(t.TempDir(), "loop")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CARGO_HOME", loop)
	t.Setenv("LANG", "C.UTF-8")
	got := probeAll(context.Background(), []Program{{"mvn", nil}}, []string{root}, 5*time.Second)
	want := "mvn 3 home=/ java=none gopath=none cargo=none lang=C.UTF-8"
	if len(got) != 1 || got[0].Version != want {
		t.Fatalf("got %+v, want %q", got, want)
	}

	// A home outside the roots is the owner's and is kept.
	t.Setenv("HOME", shared)
	t.Setenv("CARGO_HOME", bin)
	if err := os.Remove(filepath.Join(shared, ".mvn")); err != nil {
		t.Fatal(err)
	}
	got = probeAll(context.Background(), []Program{{"mvn", nil}}, []string{root}, 5*time.Second)
	if want := "mvn 3 home=" + shared + " java=none gopath=none cargo=" + bin + " lang=C.UTF-8"; len(got) != 1 || got[0].Version != want {
		t.Fatalf("got %+v, want %q", got, want)
	}
}
