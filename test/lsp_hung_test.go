//go:build unix

package test

import (
	"syscall"
	"testing"
	"time"
)

// A language server that stops answering mid-session (here gopls,
// stopped with SIGSTOP, as a deadlock leaves it) costs one call its time:
// the next finds it does not answer a barrier, stops its process group
// and answers from a fresh server, instead of every later call timing out
// on it for as long as juju runs. One gopls is left, not two.
func TestLSPHungServerIsRestarted(t *testing.T) {
	root := workspace(t, makeUse(nil))
	s := startGopls(t, root)
	juju := jujuPID(t, root)
	def := map[string]any{"path": "b.go", "line": 6, "column": 11}
	sameList(t, "definition", locs(t, s.call("go_to_definition", def)), []string{"a/a.go:3:6"})
	g := childrenOf(t, juju, "gopls")
	if len(g) != 1 {
		t.Fatalf("want one gopls, got %+v", g)
	}
	hung := g[0]
	if err := syscall.Kill(hung.pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(hung.pid, syscall.SIGKILL) })

	s.fail("go_to_definition", def, "TIMEOUT")
	sameList(t, "definition after the server hung", locs(t, s.call("go_to_definition", def)), []string{"a/a.go:3:6"})
	groupGone(t, hung.pgid, 10*time.Second)
	if g := childrenOf(t, juju, "gopls"); len(g) != 1 || g[0].pid == hung.pid {
		t.Fatalf("want one fresh gopls, got %+v", g)
	}
	noZombies(t, juju, 5*time.Second)
}
