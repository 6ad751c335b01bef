//go:build unix

package test

import (
	"slices"
	"strings"
	"testing"
)

// A position that points at no character of the line, past its end or on
// a space or tab, is refused with INVALID_ARGUMENT quoting the line, by
// real gopls and pyright alike: a server would otherwise answer for the
// identifier nearest the clamped position (x, at the end of "\treturn x",
// for any column past it), or for nothing, and the model would not learn
// it miscounted. A column on the identifier still answers.
func TestLSPPositionOffTheText(t *testing.T) {
	root := workspace(t, map[string]string{
		"go.mod":                "module example.com/p\n\ngo 1.22\n",
		"a.go":                  "package p\n\nfunc F() int {\n\tx := 1\n\treturn x\n}\n",
		"py/pyrightconfig.json": "{}\n",
		"py/m.py":               "def helper(x: int) -> int:\n    return x\n",
	})
	home := lspHome(t, goplsServer(t), pyrightServer(t))
	s := startHome(t, home, root, "--mode", "trusted")
	for _, c := range []struct {
		path       string
		line, col  int
		want, what string
	}{
		{"a.go", 5, 9, "a.go:4:2", "on x"},
		{"a.go", 5, 10, "", "past the end"},
		{"a.go", 5, 99, "", "far past the end"},
		{"a.go", 5, 1, "", "on the tab"},
		{"a.go", 5, 8, "", "on the space"},
		{"a.go", 2, 1, "", "on an empty line"},
		{"a.go", 7, 1, "", "after the last line"},
		{"py/m.py", 2, 12, "py/m.py:1:12", "on x"},
		{"py/m.py", 2, 13, "", "past the end"},
		{"py/m.py", 2, 2, "", "on the indentation"},
	} {
		for _, tool := range []string{"go_to_definition", "find_references"} {
			args := map[string]any{"path": c.path, "line": c.line, "column": c.col}
			if c.want != "" {
				got := locs(t, s.call(tool, args))
				if len(got) == 0 || !strings.HasPrefix(got[0], c.want) {
					t.Errorf("%s %s:%d:%d (%s): got %v, want %s first", tool, c.path, c.line, c.col, c.what, got, c.want)
				}
				continue
			}
			msg := s.fail(tool, args, "INVALID_ARGUMENT")
			if c.line == 7 {
				// a.go has 6 lines, as read_file numbers them.
				if !strings.Contains(msg, "line 7 is past the end of a.go (6 lines)") {
					t.Errorf("%s: after the last line: %s", tool, msg)
				}
			} else if !strings.Contains(msg, "point column at a character of the identifier") {
				t.Errorf("%s %s:%d:%d (%s): the message does not say what to do: %s", tool, c.path, c.line, c.col, c.what, msg)
			}
		}
	}
}

// find_references takes a position or a symbol: given both, it says so
// instead of answering for the symbol and ignoring the position.
func TestLSPReferencesPositionOrSymbol(t *testing.T) {
	root := workspace(t, map[string]string{
		"a.go": "package p\n\nfunc Foo() int { return Bar() }\n\nfunc Bar() int { return 1 }\n",
	})
	s := start(t, root, "--mode", "trusted")
	msg := s.fail("find_references", map[string]any{"path": "a.go", "line": 3, "column": 6, "symbol": "Bar"}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "not both") {
		t.Fatalf("the message must say to give one of them: %s", msg)
	}
	s.fail("find_references", map[string]any{"symbol": "Bar", "line": 3}, "INVALID_ARGUMENT")
	if got := locs(t, s.call("find_references", map[string]any{"symbol": "Bar", "path": "a.go"})); len(got) != 2 {
		t.Fatalf("symbol with path: want Bar's two matches, got %v", got)
	}
}

// get_diagnostics lists them by file and position, as its output schema
// says, though pyright sends a broken file's syntax errors before the
// rest.
func TestLSPDiagnosticsInPositionOrder(t *testing.T) {
	root := workspace(t, map[string]string{
		"pyrightconfig.json": "{}\n",
		"bad.py":             "def f(:\n  pass\n",
	})
	s := startHome(t, lspHome(t, pyrightServer(t)), root, "--mode", "trusted")
	var d diagList
	decode(t, s.call("get_diagnostics", map[string]any{"path": "bad.py"}), &d)
	if len(d.Diagnostics) < 3 {
		t.Fatalf("want pyright's errors in bad.py, got %+v", d)
	}
	for i := 1; i < len(d.Diagnostics); i++ {
		a, b := d.Diagnostics[i-1], d.Diagnostics[i]
		if b.Line < a.Line || b.Line == a.Line && b.Column < a.Column {
			t.Fatalf("diagnostics out of order: %d:%d before %d:%d in %+v", a.Line, a.Column, b.Line, b.Column, d.Diagnostics)
		}
	}
}

// A diagnostic at the end of a file that ends in a line break (gopls's
// "found 'EOF'" for an unclosed brace, pyright's for an unclosed
// parenthesis) is placed at the end of the last line, as read_file numbers
// lines, not on a line after it that read_file says is past the end.
func TestLSPDiagnosticAtEndOfFile(t *testing.T) {
	root := workspace(t, map[string]string{
		"go.mod":                "module example.com/p\n\ngo 1.22\n",
		"a.go":                  "package p\n\nfunc F() {\n\tx := 1\n",
		"py/pyrightconfig.json": "{}\n",
		"py/m.py":               "x = (1,\n    2\n",
	})
	s := startHome(t, lspHome(t, goplsServer(t), pyrightServer(t)), root, "--mode", "trusted")
	for _, c := range []struct {
		path       string
		line, col  int
		lastLine   string
		serverSays string
	}{
		{"a.go", 4, 8, "\tx := 1", "EOF"},
		{"py/m.py", 2, 6, "    2", ""},
	} {
		var d diagList
		decode(t, s.call("get_diagnostics", map[string]any{"path": c.path}), &d)
		found := false
		for _, x := range d.Diagnostics {
			if x.Line > c.line {
				t.Errorf("%s: a diagnostic on line %d, past the file's %d lines: %+v", c.path, x.Line, c.line, x)
			}
			if x.Line == c.line && x.Column == c.col && strings.Contains(x.Message, c.serverSays) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: want a diagnostic at the end of its last line %q, %d:%d: %+v", c.path, c.lastLine, c.line, c.col, d)
		}
		s.ok("read_file", map[string]any{"path": c.path, "offset": c.line})
	}
}

// The semantic tools number lines as read_file does, ended by "\n",
// whatever the server counts. A lone "\r" ends a line to the protocol and
// to pyright (Python ends a comment there), to neither read_file nor gopls:
// a stray "\r" in a Go comment made juju count a line more than both, so
// the model's 4:23 was refused as past the end of a line; in Python,
// juju and pyright agreed with each other and not with read_file.
func TestLSPLoneCarriageReturnLines(t *testing.T) {
	root := workspace(t, map[string]string{
		"go.mod":                "module example.com/p\n\ngo 1.22\n",
		"a.go":                  "package p\n\n// a stray \r in a comment\nfunc F() int { return G() }\n\nfunc G() int { return 1 }\n",
		"py/pyrightconfig.json": "{}\n",
		"py/m.py":               "x = 1\n# note\rdef helper():\n    return x\n",
	})
	home := lspHome(t, goplsServer(t), pyrightServer(t))
	s := startHome(t, home, root, "--mode", "trusted")
	if n := structured(t, s.call("read_file", map[string]any{"path": "a.go"}))["totalLines"]; n != float64(6) {
		t.Fatalf("read_file numbers a.go's lines as %v, want 6", n)
	}
	for _, c := range []struct {
		tool, path string
		line, col  int
		want       string
	}{
		{"go_to_definition", "a.go", 4, 23, "a.go:6:6"},
		{"find_references", "a.go", 6, 6, "a.go:4:23"},
		{"go_to_definition", "py/m.py", 3, 12, "py/m.py:1:1"},
		{"find_references", "py/m.py", 1, 1, "py/m.py:3:12"},
	} {
		got := locs(t, s.call(c.tool, map[string]any{"path": c.path, "line": c.line, "column": c.col}))
		if !slices.Contains(got, c.want) {
			t.Errorf("%s %s:%d:%d: got %v, want %s among them", c.tool, c.path, c.line, c.col, got, c.want)
		}
	}
	for path, want := range map[string][]string{"a.go": {"F  4:6", "G  6:6"}, "py/m.py": {"helper  2:12"}} {
		out := text(s.call("document_symbols", map[string]any{"path": path}))
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("document_symbols %s: %q missing, as read_file numbers lines:\n%s", path, w, out)
			}
		}
	}
}
