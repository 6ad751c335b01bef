//go:build unix

package test

import (
	"maps"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// lspAdd registers a server as the owner does, with `juju lsp add`.
func lspAdd(t *testing.T, home string, args ...string) {
	t.Helper()
	cmd := exec.Command(jujuBin, append([]string{"lsp", "add"}, args...)...)
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("juju lsp add %v: %v\n%s", args, err, out)
	}
}

// lspAddGopls registers gopls as docs/CLI.md's example does, a server per
// module.
func lspAddGopls(t *testing.T, home string) {
	t.Helper()
	lspAdd(t, home, "gopls", "--command", goplsCommand(t), "--languages", "go", "--root-markers", "go.work,go.mod",
		"--init-options", `{"verboseWorkDoneProgress":true}`)
}

// A workspace of Go and Ruby, with gopls registered and a Ruby server
// whose program is not installed: find_symbol and find_references by
// name, which ask every server with files in the workspace, answer from
// gopls and say the Ruby server was left out and how to fix it, instead
// of failing the whole call because of a server the question may not
// concern. Alone, the missing server's error is still the answer.
func TestLSPFindSymbolSkipsAMissingServer(t *testing.T) {
	root := workspace(t, map[string]string{
		"go.mod": "module example.com/p\n\ngo 1.22\n",
		"a.go":   "package p\n\nfunc Foo() int { return 1 }\n\nvar _ = Foo()\n",
		"x.rb":   "def foo\nend\n",
	})
	home := lspHome(t)
	lspAddGopls(t, home)
	lspAdd(t, home, "rubyls", "--command", "juju-test-no-such-ruby-ls --stdio", "--languages", "ruby")
	s := startHome(t, home, root, "--mode", "trusted")

	res := s.call("find_symbol", map[string]any{"symbol": "Foo"})
	var out struct {
		Server  string
		Symbols []struct {
			Path string
			Line int
		}
		Note string
	}
	decode(t, res, &out)
	if len(out.Symbols) != 1 || out.Symbols[0].Path != "a.go" || out.Symbols[0].Line != 3 || out.Server != "gopls" {
		t.Fatalf("want Foo at a.go:3 from gopls: %s", text(res))
	}
	if !strings.Contains(out.Note, "rubyls") || !strings.Contains(out.Note, "juju lsp remove rubyls") || !strings.Contains(text(res), "rubyls") {
		t.Fatalf("the answer must say rubyls was left out and what the owner can do: %s", text(res))
	}

	sameList(t, "references", locs(t, s.call("find_references", map[string]any{"symbol": "Foo"})), []string{"a.go:3:6", "a.go:5:9"})

	// Asked about its own files, the missing server is the error.
	s.fail("find_symbol", map[string]any{"symbol": "foo", "path": "x.rb"}, "NOT_FOUND")
	s.fail("document_symbols", map[string]any{"path": "x.rb"}, "NOT_FOUND")
}

// Two modules in one root get a gopls each (go.mod is a root marker); the
// diagnostics of every open file name gopls once, as the servers that
// answered, not once per running instance.
func TestLSPDiagnosticsNameEachServerOnce(t *testing.T) {
	root := workspace(t, map[string]string{
		"go.mod":     "module example.com/a\n\ngo 1.22\n",
		"a.go":       "package a\n\nfunc A() int { return \"a\" }\n",
		"sub/go.mod": "module example.com/sub\n\ngo 1.22\n",
		"sub/s.go":   "package sub\n\nfunc S() string { return 1 }\n",
	})
	home := lspHome(t)
	lspAddGopls(t, home)
	s := startHome(t, home, root, "--mode", "trusted")
	for _, p := range []string{"a.go", "sub/s.go"} {
		var d diagList
		decode(t, s.call("get_diagnostics", map[string]any{"path": p}), &d)
		if len(d.Diagnostics) != 1 {
			t.Fatalf("%s: want one error, got %+v", p, d)
		}
	}
	if c := childrenOf(t, jujuPID(t, root), "gopls"); len(c) != 2 {
		t.Fatalf("want a gopls for each module, got %+v", c)
	}
	res := s.call("get_diagnostics", map[string]any{})
	var out struct {
		Server      string
		Diagnostics []struct{ Path string }
	}
	decode(t, res, &out)
	if len(out.Diagnostics) != 2 || out.Server != "gopls" || !strings.Contains(text(res), "(language server gopls);") {
		t.Fatalf("want both files' errors, from gopls named once: %s", text(res))
	}
}

// find_references by a symbol gopls does not find declared in the
// workspace (misspelt, or declared outside it) falls back to whole-word
// text matches, and its note says that gopls found no declaration and
// what to do, not that no language server is registered, which would send
// the model to ask the owner for one that is there.
func TestLSPReferencesOfAnUndeclaredSymbolNameTheServer(t *testing.T) {
	root := workspace(t, map[string]string{
		"go.mod": "module example.com/p\n\ngo 1.22\n",
		"a.go":   "package p\n\nimport \"strings\"\n\n// Fooo is a typo.\nfunc Foo() string { return strings.ToUpper(\"x\") }\n",
	})
	home := lspHome(t)
	lspAddGopls(t, home)
	s := startHome(t, home, root, "--mode", "trusted")
	for _, c := range []struct {
		symbol string
		want   []string
	}{
		{"Fooo", []string{"a.go:5:4"}},
		{"ToUpper", []string{"a.go:6:36"}},
	} {
		res := s.call("find_references", map[string]any{"symbol": c.symbol})
		sameList(t, c.symbol, locs(t, res), c.want)
		note, _ := structured(t, res)["note"].(string)
		if strings.Contains(note, "No language server") || strings.Contains(note, "juju lsp add") ||
			!strings.Contains(note, "gopls found no declaration of "+c.symbol) || !strings.Contains(note, "find_symbol") {
			t.Errorf("%s: the note must say gopls found no declaration and what to do: %s", c.symbol, note)
		}
	}
}

// makeUse is a module of two packages in which b.go calls a.Make (line 6,
// column 11; Make is at a/a.go:3:6), with extra's files added or put in
// place of its own: the gopls tests that change files and ask again.
func makeUse(extra map[string]string) map[string]string {
	files := map[string]string{
		"go.mod": "module example.com/p\n\ngo 1.22\n",
		"a/a.go": "package a\n\nfunc Make() int { return 1 }\n",
		"b.go":   "package p\n\nimport \"example.com/p/a\"\n\nfunc Use() int {\n\treturn a.Make()\n}\n",
	}
	maps.Copy(files, extra)
	return files
}

// startGopls starts juju, trusted, on root, with gopls registered in a
// home of its own.
func startGopls(t *testing.T, root string) *session {
	t.Helper()
	home := lspHome(t)
	lspAddGopls(t, home)
	return startHome(t, home, root, "--mode", "trusted")
}
