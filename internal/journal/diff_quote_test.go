package journal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// A name or a link target holding a newline is quoted in every line of a
// change's diff that shows it, as the ---/+++ headers quote it: a folder
// named "x\n--- a/a.txt\n+++ b/a.txt\n@@ …" forged a diff of a.txt in the
// diff of deleting its folder.
func TestDiffQuotesNamesAndTargets(t *testing.T) {
	f := newFixture(t, map[string]string{"a.txt": "a\n"})
	forged := "x\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+harmless"
	if err := os.MkdirAll(filepath.Join(f.root, "d", forged), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("t\n+ok", filepath.Join(f.root, "d", "l\nk")); err != nil {
		t.Fatal(err)
	}
	big := string(make([]byte, 10)) // binary: summarised in one line
	if err := os.WriteFile(filepath.Join(f.root, "d", "b\n+bin"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	res, e := f.do(true,
		wop{ChangeOp: abi.ChangeOp{Op: abi.OpDelete, Path: "d", Recursive: true}},
		op(abi.OpMkdir, "n\n+new", ""))
	if e != nil {
		t.Fatal(e)
	}
	want := []string{
		`new folder "n\n+new"`,
		`symlink "d/l\nk": "t\n+ok" → absent`,
		`Binary or large file "d/b\n+bin" changed (10 → 0 bytes)`,
		`deleted folder "d/x\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+harmless"`,
		`deleted folder "d/x\n--- a/a.txt\n+++ b"`, // the name's slashes make folders
		`deleted folder "d/x\n--- a"`,
		`deleted folder d`,
	}
	got := strings.Split(strings.TrimSuffix(res.Diff, "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("the diff has %d lines, want %d:\n%s", len(got), len(want), res.Diff)
	}
	for _, w := range want {
		if !strings.Contains(res.Diff, w+"\n") {
			t.Errorf("the diff lacks the line %s:\n%s", w, res.Diff)
		}
	}
}
