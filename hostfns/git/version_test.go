package git

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

func TestParseVersion(t *testing.T) {
	for out, want := range map[string][3]int{
		"git version 2.39.5\n":                 {2, 39, 5},
		"git version 2.39.3 (Apple Git-146)\n": {2, 39, 3},
		"git version 2.45.1.windows.1\n":       {2, 45, 1},
		"git version 2.31\n":                   {2, 31, 0},
		"git version 2.50.0.rc1\n":             {2, 50, 0},
		"git version 2.30.2\nsomething else\n": {2, 30, 2},
		"git version 10.0.0-beta\n":            {10, 0, 0},
	} {
		if v, ok := parseVersion(out); !ok || v != want {
			t.Errorf("parseVersion(%q) = %v %v, want %v", out, v, ok, want)
		}
	}
	for _, out := range []string{"", "hub version 2.14.2\n", "git version \n", "git version two.30\n", "git version 2\n"} {
		if v, ok := parseVersion(out); ok {
			t.Errorf("parseVersion(%q) = %v, want none", out, v)
		}
	}
	for v, want := range map[[3]int]bool{{2, 30, 9}: true, {1, 99, 0}: true, {2, 31, 0}: false, {2, 31, 1}: false, {3, 0, 0}: false} {
		if got := older(v, MinVersion); got != want {
			t.Errorf("older(%v) = %v", v, got)
		}
	}
}

// TestOldGitIsRefused: a git older than MinVersion ignores
// GIT_CONFIG_COUNT, where every override that keeps the repository's
// settings from running programs travels (git 2.30 ran a cloned
// repository's core.fsmonitor behind git_status and git_diff): every call
// is refused, before any git runs on the repository, saying which git is
// there and which is needed. A git upgraded meanwhile is asked again.
// The git here stands in for git 2.30.2 by its answer to --version.
func TestOldGitIsRefused(t *testing.T) {
	git, root := fixture(t)
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	marker := filepath.Join(t.TempDir(), "ran")
	monitor := filepath.Join(t.TempDir(), "monitor")
	os.WriteFile(monitor, []byte("#!/bin/sh\ntouch "+marker+"\nexit 1\n"), 0o755)
	cmd := exec.Command(real, "config", "core.fsmonitor", monitor)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	bin := t.TempDir()
	fake := func(version string) {
		// A new file each time, as an upgrade writes one.
		os.Remove(filepath.Join(bin, "git"))
		script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'git version " + version + "'; exit 0; fi\n" +
			// What git 2.30 does with the overrides: nothing.
			"unset GIT_CONFIG_COUNT\nexec " + real + " \"$@\"\n"
		if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fake("2.30.2")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("changed\n"), 0o644)
	for _, args := range [][]string{
		{"status", "--porcelain"},
		{"diff", "--", "a.txt"},
		{"log", "-1"},
		{"commit", "--message=x"},
	} {
		_, _, e := git(abi.TierExec, args...)
		if e == nil || e.Code != abi.NotFound || !strings.Contains(e.Message, "git 2.30.2") || !strings.Contains(e.Message, "2.31 or newer") {
			t.Errorf("git %q with git 2.30.2 = %v, want NOT_FOUND naming the version and the one needed", args, e)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the repository's core.fsmonitor ran")
	}
	fake("2.31.0")
	if r, _, e := git(abi.TierRead, "status", "--porcelain"); e != nil || r.ExitCode != 0 {
		t.Fatalf("status after the upgrade: %+v %v", r, e)
	}
}
