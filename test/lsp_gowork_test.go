//go:build unix

package test

import (
	"strings"
	"testing"
)

// A go.work of two modules is one gopls, rooted at the go.work, when gopls
// is registered as the docs say (--root-markers go.work,go.mod): the
// markers are taken in order, so the go.work above a module wins over the
// module's nearer go.mod. With a gopls per module, each loaded the whole
// go.work, and a file juju created in one module was never named to the
// server of the other, which went on calling what it declares undefined.
func TestLSPGoWorkIsOneServer(t *testing.T) {
	root := workspace(t, map[string]string{
		"go.work":  "go 1.22\n\nuse (\n\t./a\n\t./b\n)\n",
		"a/go.mod": "module example.com/a\n\ngo 1.22\n",
		"a/a.go":   "package a\n\nfunc Make() int { return 1 }\n",
		"b/go.mod": "module example.com/b\n\ngo 1.22\n\nrequire example.com/a v0.0.0\n",
		"b/b.go":   "package b\n\nimport \"example.com/a\"\n\nfunc Use() int {\n\treturn a.Make()\n}\n",
	})
	home := lspHome(t)
	lspAddGopls(t, home)
	s := startHome(t, home, root, "--mode", "trusted")
	juju := jujuPID(t, root)

	sameList(t, "definition across modules", locs(t, s.call("go_to_definition", map[string]any{"path": "b/b.go", "line": 6, "column": 11})), []string{"a/a.go:3:6"})
	s.ok("document_symbols", map[string]any{"path": "a/a.go"})
	if g := childrenOf(t, juju, "gopls"); len(g) != 1 {
		t.Fatalf("want one gopls for the go.work's two modules, got %d: %+v", len(g), g)
	}

	// A file created in module a is seen from module b.
	s.ok("write_file", map[string]any{"path": "a/extra.go", "content": "package a\n\nfunc Extra() int { return 7 }\n"})
	s.ok("edit_file", map[string]any{"path": "b/b.go", "oldString": "\treturn a.Make()", "newString": "\treturn a.Make() + a.Extra()"})
	var d diagList
	decode(t, s.call("get_diagnostics", map[string]any{"path": "b/b.go"}), &d)
	for _, x := range d.Diagnostics {
		if strings.Contains(x.Message, "Extra") {
			t.Fatalf("the file created in module a is unknown to the server answering for b: %+v", d)
		}
	}
	sameList(t, "definition in the created file", locs(t, s.call("go_to_definition", map[string]any{"path": "b/b.go", "line": 6, "column": 22})), []string{"a/extra.go:3:6"})
}
