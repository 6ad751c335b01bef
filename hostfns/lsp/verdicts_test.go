//go:build unix

package lsp

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A root's link check is reused only at the same epoch and for less than
// verdictAge: a link made once the root was found clean is still caught
// by the next start after a call that may change files moved the epoch
// (a command made it), or once the verdict is older (the owner's git pull
// made it), and not before either — the reuse is what spares a monorepo's
// sixty starts sixty walks.
func TestLinkVerdictReusedUntilEpochOrAge(t *testing.T) {
	epoch := "e1"
	now := time.Unix(1_000_000, 0)
	m, root := fakeManager(t, "ok", map[string]string{"a.go": "package a\n"}, Options{Epoch: func() string { return epoch }})
	m.verdicts.now = func() time.Time { return now }
	real, _ := filepath.EvalSymlinks(root)
	check := func(want bool, what string) {
		t.Helper()
		got, err := m.checkLinks(context.Background(), real)
		if err != nil {
			t.Fatal(err)
		}
		if (got != "") != want {
			t.Fatalf("%s: found %q, want found %v", what, got, want)
		}
	}
	check(false, "clean root")
	link(t, real, "env.py", ".env")
	check(false, "a link made without juju, at once") // the verdict is reused
	epoch = "e2"
	check(true, "after the epoch moved")
	os.Remove(filepath.Join(real, "env.py"))
	epoch = "e3"
	check(false, "link gone, epoch moved")
	link(t, real, "lib/env.py", ".env")
	now = now.Add(verdictAge - time.Second)
	check(false, "a link made without juju, within the age")
	now = now.Add(time.Second)
	check(true, "once the verdict is verdictAge old")
}
