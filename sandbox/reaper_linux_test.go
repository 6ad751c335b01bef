package sandbox

import (
	"strings"
	"testing"
)

// The reaper mounts a /proc and reaps orphans only as the init of the
// namespaces juju made for it: run any other way it refuses before it
// touches a mount.
func TestReaperRunsOnlyAsInit(t *testing.T) {
	var stderr strings.Builder
	if code := ReaperMain([]string{"--keep", "0", "--", "/bin/true"}, &stderr); code != 2 || !strings.Contains(stderr.String(), "only as the init") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, bad := range [][]string{{}, {"--keep"}, {"--keep", "x", "--", "a"}, {"--keep", "99", "--", "a"}, {"--"}, {"--what"}} {
		stderr.Reset()
		if code := ReaperMain(bad, &stderr); code != 2 {
			t.Errorf("%q: exit %d", bad, code)
		}
	}
}
