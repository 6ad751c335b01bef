//go:build unix

package test

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// outsideWait is longer than hostfns/lsp's lookEvery: a query after it
// looks over the server's root though no call of juju's changed a file.
const outsideWait = 2500 * time.Millisecond

// A file the owner's editor changes, which juju never wrote and the
// server does not have open, is read again before the next query: the
// definition is on the line it moved to, not on the line it had when the
// server first read the file, in gopls and pyright alike; and gopls's
// diagnostics of the file that uses a name the editor took away say so.
func TestLSPFileEditedOutsideJujuIsSeen(t *testing.T) {
	t.Run("gopls", func(t *testing.T) {
		root := workspace(t, makeUse(nil))
		s := startGopls(t, root)
		def := map[string]any{"path": "b.go", "line": 6, "column": 11}
		sameList(t, "definition", locs(t, s.call("go_to_definition", def)), []string{"a/a.go:3:6"})

		editOutside(t, root, "a/a.go", "package a\n\n// Make makes.\n//\n// It makes one.\nfunc Make() int { return 1 }\n")
		sameList(t, "definition after the editor's change", locs(t, s.call("go_to_definition", def)), []string{"a/a.go:6:6"})

		editOutside(t, root, "a/a.go", "package a\n\nfunc Build() int { return 1 }\n")
		var d diagList
		decode(t, s.call("get_diagnostics", map[string]any{"path": "b.go"}), &d)
		if !d.has("error", "b.go", 6, 11, "Make") {
			t.Fatalf("the name the editor took away is still known to gopls: %+v", d)
		}
	})
	t.Run("pyright", func(t *testing.T) {
		root := workspace(t, map[string]string{
			"pyrightconfig.json": "{}\n",
			"models.py":          "def helper(x: int) -> str:\n    return str(x)\n",
			"main.py":            "from models import helper\n\nv = helper(3)\n",
		})
		s := startHome(t, lspHome(t, pyrightServer(t)), root, "--mode", "trusted")
		def := map[string]any{"path": "main.py", "line": 3, "column": 5}
		sameList(t, "definition", locs(t, s.call("go_to_definition", def)), []string{"models.py:1:5"})

		editOutside(t, root, "models.py", "# Helpers.\n\n\ndef helper(x: int) -> str:\n    return str(x)\n")
		sameList(t, "definition after the editor's change", locs(t, s.call("go_to_definition", def)), []string{"models.py:4:5"})
	})
}

// editOutside writes a file as the owner's editor does, through no call
// of juju's, and waits until the next query looks for it.
func editOutside(t *testing.T, root, rel, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, rel), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(outsideWait)
}

// A file a command puts back with the time it had (cp -p, tar, rsync -a,
// mv), older than the last look, is named to the server all the same:
// the definition is on the line the restored text has.
func TestLSPFileRestoredWithItsOldTimeIsSeen(t *testing.T) {
	root := workspace(t, makeUse(map[string]string{
		"backup/a.go.in": "package a\n\n// Make makes.\n//\n// It makes one.\nfunc Make() int { return 1 }\n",
	}))
	old := time.Now().Add(-24 * time.Hour)
	if err := os.Chtimes(filepath.Join(root, "backup", "a.go.in"), old, old); err != nil {
		t.Fatal(err)
	}
	s := startGopls(t, root)
	def := map[string]any{"path": "b.go", "line": 6, "column": 11}
	sameList(t, "definition", locs(t, s.call("go_to_definition", def)), []string{"a/a.go:3:6"})
	s.ok("run_command", map[string]any{"command": "cp -p backup/a.go.in a/a.go"})
	sameList(t, "definition after the restore", locs(t, s.call("go_to_definition", def)), []string{"a/a.go:6:6"})
}

// The file asked about, rewritten by something other than juju to a text
// of the same size whose modification time is put back (as cp -p, tar or
// an editor's restore leave it), is sent to the server again though a
// stat that checked size and time alone would call it unchanged: the
// definition is that of the name the new text has at the position.
func TestLSPAskedFileRewrittenWithItsOldTimeIsSeen(t *testing.T) {
	root := workspace(t, makeUse(map[string]string{
		"a/a.go": "package a\n\nfunc Make() int { return 1 }\n\nfunc Take() int { return 2 }\n",
	}))
	s := startGopls(t, root)
	def := map[string]any{"path": "b.go", "line": 6, "column": 11}
	sameList(t, "definition", locs(t, s.call("go_to_definition", def)), []string{"a/a.go:3:6"})
	// Past the time within which a file's stamp is not trusted: the next
	// call's read of b.go leaves a stamp that stands for its text.
	time.Sleep(3500 * time.Millisecond)
	sameList(t, "definition again", locs(t, s.call("go_to_definition", def)), []string{"a/a.go:3:6"})

	p := filepath.Join(root, "b.go")
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("package p\n\nimport \"example.com/p/a\"\n\nfunc Use() int {\n\treturn a.Take()\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	sameList(t, "definition after the rewrite", locs(t, s.call("go_to_definition", def)), []string{"a/a.go:5:6"})
}
