package git

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// TestWithoutGitEveryCallSaysGitIsMissing: without git on the PATH every
// call says git is not installed, whichever of juju's own look-ups would
// run git first (the configuration for log, the revisions, the staged
// names for a commit of the index, the index for status and diff), not
// that the configuration, a revision or the staged names were wrong; and
// add and commit, which look for what their hooks left running once git
// ends, take nothing down.
func TestWithoutGitEveryCallSaysGitIsMissing(t *testing.T) {
	git, _ := fixture(t)
	t.Setenv("PATH", t.TempDir())
	for _, args := range [][]string{
		{"status", "--porcelain"},
		{"diff", "--", "a.txt"},
		{"diff", "--cached"},
		{"log", "-1"},
		{"log", "HEAD"},
		{"show", "HEAD"},
		{"rev-parse", "HEAD"},
		{"add", "--", "new.txt"},
		{"commit", "--message=x"},
		{"commit", "--message=x", "--", "a.txt"},
	} {
		if _, _, e := git(abi.TierExec, args...); e == nil || e.Code != abi.NotFound || !strings.Contains(e.Message, "not installed") {
			t.Errorf("git %q without git = %v, want NOT_FOUND saying git is not installed", args, e)
		}
	}
}

// TestLinkedKeyIsLeftOut: a tracked file that is a hard link to a private
// key is left out of a diff against the work tree, add skips one, and
// commit refuses one named.
func TestLinkedKeyIsLeftOut(t *testing.T) {
	git, root := fixture(t)
	key := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(key, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nKEYLINE\n-----END OPENSSH PRIVATE KEY-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a.txt", "new.txt"} {
		os.Remove(filepath.Join(root, n))
		if err := os.Link(key, filepath.Join(root, n)); err != nil {
			t.Skipf("cannot hard-link into the workspace: %v", err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "sub/b.txt"), []byte("b2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"diff"}, {"diff", "--", "a.txt"}, {"diff", "HEAD"}, {"diff", "--stat"}} {
		_, out, e := git(abi.TierRead, args...)
		if e != nil {
			t.Fatalf("%v: %v", args, e)
		}
		if strings.Contains(out, "KEYLINE") || strings.Contains(out, "a.txt") {
			t.Errorf("%v shows the linked key: %s", args, out)
		}
	}
	if _, out, _ := git(abi.TierRead, "diff"); !strings.Contains(out, "b2") {
		t.Errorf("diff left out the visible change too: %s", out)
	}
	r, _, e := git(abi.TierExec, "add", "--", "new.txt", "sub/b.txt")
	if e != nil || len(r.Skipped) != 1 || r.Skipped[0] != "new.txt" {
		t.Fatalf("add = %+v, %v; want new.txt skipped", r, e)
	}
	if _, _, e := git(abi.TierExec, "commit", "--message=m", "--", "a.txt"); e == nil || e.Code != abi.SecretDenied {
		t.Fatalf("commit of a linked key = %v, want SECRET_DENIED", e)
	}
	if out, _ := exec.Command("git", "-C", root, "diff", "--cached", "--name-only").Output(); strings.Contains(string(out), "new.txt") || strings.Contains(string(out), "a.txt") {
		t.Errorf("a linked key was staged: %s", out)
	}
}
