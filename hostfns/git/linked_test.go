package git

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// TestDiffWithoutGitSaysGitIsMissing: a diff against the work tree lists
// the index first (linkedKeys); without git on the PATH that listing says
// git is not installed, as every git run does, not that git failed.
func TestDiffWithoutGitSaysGitIsMissing(t *testing.T) {
	git, _ := fixture(t)
	t.Setenv("PATH", t.TempDir())
	_, _, e := git(abi.TierRead, "diff", "--", "a.txt")
	if e == nil || e.Code != abi.NotFound {
		t.Fatalf("diff without git = %v, want NOT_FOUND saying git is not installed", e)
	}
}

// TestAddWithoutGitSaysGitIsMissing: add and commit, which look for what
// their hooks left running once git ends, say the same of a git that
// never started, and take nothing down.
func TestAddWithoutGitSaysGitIsMissing(t *testing.T) {
	git, _ := fixture(t)
	t.Setenv("PATH", t.TempDir())
	_, _, e := git(abi.TierExec, "add", "--", "new.txt")
	if e == nil || e.Code != abi.NotFound {
		t.Fatalf("add without git = %v, want NOT_FOUND saying git is not installed", e)
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
