//go:build linux

package lsp

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/lspconfig"
	"github.com/jujutools/juju/sdk/abi"
)

// settle waits until the files written so far are older than stampSlack,
// so that their stamps may stand for their content.
func settle() { time.Sleep(stampSlack + 200*time.Millisecond) }

// A file asked about again, unchanged since the server got its text, is
// not read again; a change on disk is still seen: one of the same size
// whose modification time is put back (its change time moves), and one
// made at once after a read (its stamp is too recent to trust).
func TestAskedFileReadAgainOnlyWhenChanged(t *testing.T) {
	m, root := fakeManager(t, "mute", map[string]string{"a.go": "package a\nvar x = 1\n"}, Options{})
	def := abi.LSPRequest{Op: abi.LSPDefinition, Path: "a.go", Line: 2, Column: 5}
	text := func() string {
		t.Helper()
		res, e := ask(t, m, def)
		if e != nil {
			t.Fatal(e)
		}
		if len(res.Locations) != 1 {
			t.Fatalf("locations: %+v", res.Locations)
		}
		return res.Locations[0].Text
	}
	if got := text(); got != "var x = 1" {
		t.Fatalf("first answer quotes %q", got)
	}
	settle()
	text() // read again: the first read's stamp was too recent to trust
	readOnlyWhenChanged(t, m, text, filepath.Join(root, "a.go"), "var x = 1", "var y = 1", "var z = 1")
}

// readOnlyWhenChanged checks that text, whose answer quotes the line `was`
// of the file at path, reads no file again while nothing changes; that a
// rewrite to the line `next`, of the same size and with its modification
// time put back, is seen; and that so is a rewrite to `then` made at once
// after that read.
func readOnlyWhenChanged(t *testing.T, m *Manager, text func() string, path, was, next, then string) {
	t.Helper()
	n := m.reads.Load()
	for range 3 {
		if got := text(); got != was {
			t.Fatalf("answer quotes %q", got)
		}
	}
	if got := m.reads.Load() - n; got != 0 {
		t.Fatalf("unchanged files were read %d times more", got)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("package a\n"+next+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got := text(); got != next {
		t.Fatalf("after a change that kept size and time, the answer quotes %q", got)
	}
	if err := os.WriteFile(path, []byte("package a\n"+then+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := text(); got != then {
		t.Fatalf("after a change right after a read, the answer quotes %q", got)
	}
}

// A server's root is looked for once per folder while the folders the
// walk looked in stay as they were; a marker made in one of them moves
// the file to the server of its new root.
func TestServerRootFollowsNewMarker(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	m, root := fakeManager(t, "mute", map[string]string{
		"go.mod":      "module example.com/m\n",
		"app/main.go": "package main\nvar x = 1\n",
	}, Options{Servers: []lspconfig.Server{{Name: "fake", Command: []string{exe}, Languages: []string{"go"}, RootMarkers: []string{"go.work", "go.mod"}}}})
	def := abi.LSPRequest{Op: abi.LSPDefinition, Path: "app/main.go", Line: 2, Column: 5}
	roots := func() []string {
		t.Helper()
		if _, e := ask(t, m, def); e != nil {
			t.Fatal(e)
		}
		var out []string
		for _, c := range m.running() {
			out = append(out, c.root)
		}
		return out
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	if got := roots(); len(got) != 1 || got[0] != real {
		t.Fatalf("servers over %v, want one over %s", got, real)
	}
	settle()
	roots() // walks again: the first walk's stamps were too recent
	n := m.roots.walks.Load()
	for range 3 {
		roots()
	}
	if got := m.roots.walks.Load() - n; got != 0 {
		t.Fatalf("the server's root was looked for %d times more in unchanged folders", got)
	}
	if err := os.WriteFile(filepath.Join(root, "app", "go.mod"), []byte("module example.com/app\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := roots()
	want := filepath.Join(real, "app")
	if len(got) != 2 || got[0] != real || got[1] != want {
		t.Fatalf("after app/go.mod was made, servers over %v, want one over %s", got, want)
	}
	if err := os.WriteFile(filepath.Join(root, "go.work"), []byte("go 1.22\nuse ./app\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// go.work comes first: the file's server is the root's again. The
	// root's old server answers, so the count stays at two.
	n = m.roots.walks.Load()
	roots()
	if m.roots.walks.Load() == n {
		t.Fatal("a go.work made in the root did not make the root be looked for again")
	}
}

// A file an answer quotes that no server has open is read once while its
// stamp stands, and again when it changes, as the asked file is.
func TestQuotedFileReadAgainOnlyWhenChanged(t *testing.T) {
	m, root := fakeManager(t, "elsewhere", map[string]string{"a.go": "package a\nvar x = 1\n", "b.go": "package a\nvar q = 2\n"}, Options{})
	def := abi.LSPRequest{Op: abi.LSPDefinition, Path: "a.go", Line: 2, Column: 5}
	text := func() string {
		t.Helper()
		res, e := ask(t, m, def)
		if e != nil {
			t.Fatal(e)
		}
		if len(res.Locations) != 1 || res.Locations[0].Path != "b.go" {
			t.Fatalf("locations: %+v", res.Locations)
		}
		return res.Locations[0].Text
	}
	if got := text(); got != "var q = 2" {
		t.Fatalf("first answer quotes %q", got)
	}
	settle()
	text()
	text() // both files' stamps now trusted
	readOnlyWhenChanged(t, m, text, filepath.Join(root, "b.go"), "var q = 2", "var r = 2", "var s = 2")
}
