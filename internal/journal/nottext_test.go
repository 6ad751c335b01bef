package journal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// The journal records names and link targets as text, where a byte that
// is not UTF-8 would become U+FFFD: vendor/a\xfe.txt and vendor/a\xff.txt
// were both recorded as vendor/a\ufffd.txt, and rolling back a recursive
// delete of vendor wrote one of them under that third name and lost both.
// So a change that would reach a name or a link target that is not UTF-8
// is refused whole, INVALID_ARGUMENT naming the folder (or the link) and a
// command to use instead, and nothing is changed or recorded.
func TestNamesThatAreNotTextAreRefused(t *testing.T) {
	f := newFixture(t, map[string]string{"vendor/keep.txt": "k\n", "links/keep.txt": "k\n", "a.txt": "a\n"})
	for name, content := range map[string]string{"a\xfe.txt": "first\n", "a\xff.txt": "second\n"} {
		if err := os.WriteFile(filepath.Join(f.root, "vendor", name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(f.root, "b\xff.txt"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"links/odd": "t\xff.txt", "odd": "x\xfe", "to-b": "b\xff.txt"} {
		if err := os.Symlink(target, filepath.Join(f.root, link)); err != nil {
			t.Fatal(err)
		}
	}
	before := tree(t, f.root)
	for _, c := range []struct {
		name  string
		op    wop
		names string // what the refusal must name
	}{
		{"recursive delete", wop{ChangeOp: abi.ChangeOp{Op: abi.OpDelete, Path: "vendor", Recursive: true}}, `"vendor"`},
		{"folder move", op(abi.OpMove, "vendor", "vendor2"), `"vendor"`},
		{"folder holding a link", wop{ChangeOp: abi.ChangeOp{Op: abi.OpDelete, Path: "links", Recursive: true}}, `"links/odd"`},
		{"link delete", op(abi.OpDelete, "odd", ""), `"odd"`},
		{"link move", op(abi.OpMove, "odd", "odd2"), `"odd"`},
		{"write through a link", write("to-b", "B\n"), `"b\xff.txt"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, e := f.apply(c.op)
			msg := wantCode(t, e, abi.InvalidArgument)
			if !strings.Contains(msg, c.names) || !strings.Contains(msg, "UTF-8") || !strings.Contains(msg, "run_command") {
				t.Fatalf("the refusal does not name %s, say why and what to use instead: %s", c.names, msg)
			}
			if got := tree(t, f.root); !equalTrees(got, before) {
				t.Fatalf("the workspace changed:\n%s", diffTrees(got, before))
			}
		})
	}
	if ch, _ := f.j.Changes(time.Time{}); len(ch) != 0 {
		t.Fatalf("refused changes were recorded: %v", ch)
	}
	noTemps(t, f.root)
}
