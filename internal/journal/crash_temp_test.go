//go:build unix

package journal

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Recovery removes the temporary names its intent records, and only
// those: killed before, while or after it writes a temporary file beside
// files and folders of someone else's at the names juju once used and at
// the first name it tried, the writer's change is settled and every one of
// them is left as it was (recovery deleted .juju-c000001-0.tmp, whoever
// had made it).
func TestRecoveryRemovesOnlyItsOwnTempNames(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns writers")
	}
	c := crashChanges["points"]
	f := c.workspace(t)
	req, body := c.change()
	d, e := f.j.build(context.Background(), who, req, body)
	if e != nil {
		t.Fatal(e)
	}
	p := d.prepare()
	first := -1 // the first step that writes through a temporary name
	for i, r := range p.recs {
		if needsTemp(r) {
			first = i
			break
		}
	}
	if first < 0 {
		t.Fatal("the change writes no file")
	}
	rel := p.steps[first].rel
	taken := fmt.Sprintf(".juju-c000001-%d-taken.tmp", first)
	done := c.workspace(t)
	if _, e := done.j.Apply(context.Background(), who, req, body); e != nil {
		t.Fatal(e)
	}
	newTree := tree(t, done.root)
	for _, at := range []string{"intent", fmt.Sprintf("temp:%d", first), fmt.Sprintf("rename:%d", first), "commit"} {
		t.Run(at, func(t *testing.T) {
			root := filepathClean(c.workspace(t).root)
			oldTree := tree(t, root)
			squatted := squat(t, root, rel, 1, len(p.steps), taken)
			state := filepath.Join(t.TempDir(), "state")
			if err := runHelper(t, "points", root, state, at, envTaken+"=taken").Run(); !killedBySIGKILL(err) {
				t.Fatalf("the writer was not killed at %s: %v", at, err)
			}
			reopen(t, root, state)
			got := tree(t, root)
			for k, v := range squatted {
				if got[k] != v {
					t.Errorf("%s: %q, want someone's %q left alone", k, got[k], v)
				}
			}
			rest := without(got, squatted)
			if !equalTrees(rest, oldTree) && !equalTrees(rest, newTree) {
				t.Fatalf("killed at %s, the disk is neither old nor new:\nagainst old:\n%s\nagainst new:\n%s", at, diffTrees(rest, oldTree), diffTrees(rest, newTree))
			}
			for k := range rest {
				if strings.Contains(k, ".juju-") {
					t.Errorf("left behind: %s", k)
				}
			}
		})
	}
}
