package git

import (
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
