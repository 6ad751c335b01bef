package test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestSandboxedGoTestServesItsOwnLoopback runs `go test` in the sandbox,
// network denied, on a module whose test starts an httptest server on
// 127.0.0.1 and calls it, as the tests of most Go web code do. Landlock
// denied every TCP bind and connect, so the test failed with "bind:
// permission denied" although the command's network namespace, the
// loopback alone, reaches nothing outside it. The host's loopback stays out
// of reach (TestSandboxNetwork).
func TestSandboxedGoTestServesItsOwnLoopback(t *testing.T) {
	needSandbox(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	root := workspace(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"m_test.go": `package m

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestServer(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hi") }))
	defer s.Close()
	r, err := http.Get(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r.Body)
	if string(b) != "hi" {
		t.Fatalf("%q", b)
	}
}

func TestNothingOutside(t *testing.T) {
	if c, err := net.Dial("udp", "192.0.2.1:9"); err == nil {
		c.Close()
		t.Fatal("a route out of the sandbox's network")
	}
}
`,
	})
	s := start(t, root, "--mode", "trusted", "--sandbox", "require")
	m := structured(t, s.call("run_command", map[string]any{"command": "go test -count=1 ./... 2>&1", "timeoutMs": 300000}))
	if m["exitCode"] != float64(0) || !strings.Contains(m["stdout"].(string), "ok  \texample.com/m") {
		t.Fatalf("go test in the sandbox: %v", m)
	}
	if !strings.HasPrefix(m["sandbox"].(string), "bubblewrap") {
		t.Fatalf("not sandboxed: %v", m)
	}
}

// TestSandboxSaysWhatItRefused: a confined command whose output shows a
// connection failing for want of the network, or a write refused as
// read-only, gets a note naming the sandbox as the cause and what to do
// (network: true; write inside the workspace). Without it a model read
// "network is unreachable" as an outage and "read-only file system" as a
// broken disk. Output alike from an unconfined command gets no note.
func TestSandboxSaysWhatItRefused(t *testing.T) {
	needSandbox(t)
	out := outside(t)
	s := start(t, workspace(t, nil), "--mode", "trusted", "--sandbox", "off")

	m := structured(t, s.call("run_command", map[string]any{"command": "exec 3<>/dev/tcp/192.0.2.1/80", "sandbox": true}))
	if note, _ := m["note"].(string); !strings.Contains(note, "denied this command the network") || !strings.Contains(note, "network: true") {
		t.Errorf("a connection out of the sandbox: %v", m)
	}
	res := s.call("run_command", map[string]any{"command": "echo x > " + out + "/f", "sandbox": true})
	m = structured(t, res)
	if note, _ := m["note"].(string); !strings.Contains(note, "write only inside the workspace roots") || strings.Contains(note, "network") {
		t.Errorf("a write outside the workspace: %v", m)
	}
	if got := text(res); !strings.Contains(got, "note: the sandbox let this command write only inside") {
		t.Errorf("the note is not in the text: %s", got)
	}
	for _, args := range []map[string]any{
		{"command": "echo fine", "sandbox": true},
		{"command": "echo 'connect: Network is unreachable; Read-only file system'"},
	} {
		if m := structured(t, s.call("run_command", args)); m["note"] != nil {
			t.Errorf("%v: a note: %v", args, m)
		}
	}
}

// TestSandboxedDevServerSaysItsLoopbackIsItsOwn: a dev server started in
// the background, confined with the network denied, listens on a loopback
// of its own, which the next command (a curl in a sandbox of its own)
// cannot reach. The answer that gives its jobId says so and what to do;
// the same server with network: true is reached, and says nothing of it.
func TestSandboxedDevServerSaysItsLoopbackIsItsOwn(t *testing.T) {
	needSandbox(t)
	s := start(t, workspace(t, nil), "--mode", "trusted", "--sandbox", "require")
	serve := "sleep 60" // stands in for a server: the note is of the confinement, not of the program
	m := structured(t, s.call("run_command", map[string]any{"command": serve, "background": true}))
	if note, _ := m["note"].(string); !strings.Contains(note, "loopback of its own") || !strings.Contains(note, "network: true") {
		t.Errorf("a background command without the network: %v", m)
	}
	s.call("cancel_job", map[string]any{"jobId": m["jobId"]})
	m = structured(t, s.call("run_command", map[string]any{"command": serve, "background": true, "network": true}))
	if note, _ := m["note"].(string); strings.Contains(note, "loopback") {
		t.Errorf("a background command with the network: %v", m)
	}
	s.call("cancel_job", map[string]any{"jobId": m["jobId"]})
	// A command that only outlasts its wait is no server asked for.
	m = structured(t, s.call("run_command", map[string]any{"command": "sleep 5", "waitMs": 100}))
	if note, _ := m["note"].(string); m["state"] != "running" || strings.Contains(note, "loopback") {
		t.Errorf("a command past its wait: %v", m)
	}
	s.call("cancel_job", map[string]any{"jobId": m["jobId"]})
}
