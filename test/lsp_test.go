//go:build unix

package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/jujutools/juju/internal/lspconfig"
)

// goplsServer is the registration the gopls tests use: the docs' line.
func goplsServer(t *testing.T) lspconfig.Server {
	return lspconfig.Server{Name: "gopls", Command: []string{goplsCommand(t)}, Languages: []string{"go"},
		RootMarkers: []string{"go.work", "go.mod"}, InitOptions: `{"verboseWorkDoneProgress":true}`}
}

// locs decodes the locations of a go_to_definition or find_references
// answer as "path:line:column".
func locs(t *testing.T, res *mcp.CallToolResult) []string {
	t.Helper()
	var out struct {
		Source    string `json:"source"`
		Locations []struct {
			Path         string
			Line, Column int
			Text         string
		} `json:"locations"`
	}
	decode(t, res, &out)
	var s []string
	for _, l := range out.Locations {
		s = append(s, at(l.Path, l.Line, l.Column))
	}
	return s
}

func decode(t *testing.T, res *mcp.CallToolResult, v any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool failed: %s", text(res))
	}
	b, err := json.Marshal(structured(t, res))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

func sameList(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("%s:\n got  %v\n want %v", what, got, want)
	}
}

type diagList struct {
	Pulled      bool `json:"pulled"`
	Diagnostics []struct {
		Path, Severity, Code, Message string
		Line, Column                  int
	} `json:"diagnostics"`
}

func (d diagList) has(severity, path string, line, col int, msg string) bool {
	for _, x := range d.Diagnostics {
		if x.Severity == severity && x.Path == path && x.Line == line && x.Column == col && strings.Contains(x.Message, msg) {
			return true
		}
	}
	return false
}

func TestLSPGopls(t *testing.T) {
	root := fixture(t, "gomod")
	home := lspHome(t, goplsServer(t))
	s := startHome(t, home, root, "--mode", "trusted")
	juju := jujuPID(t, root)

	// Lazy: nothing runs before the first semantic call.
	s.ok("read_file", map[string]any{"path": "lib/server.go"})
	if c := childrenOf(t, juju, "gopls"); len(c) != 0 {
		t.Fatalf("gopls started before any semantic call: %+v", c)
	}

	newServerDecl := at("lib/server.go", 10, colOf(t, root, "lib/server.go", 10, "NewServer", 1))
	runDecl := at("lib/server.go", 7, colOf(t, root, "lib/server.go", 7, "Run", 1))

	t.Run("cross-package definition", func(t *testing.T) {
		s := s.with(t)
		res := s.call("go_to_definition", map[string]any{"path": "app/main.go", "line": 6, "column": colOf(t, root, "app/main.go", 6, "NewServer", 1)})
		sameList(t, "definition", locs(t, res), []string{newServerDecl})
		if !strings.Contains(text(res), "func NewServer") {
			t.Fatalf("the location's line text is missing: %s", text(res))
		}
	})
	gopls := childrenOf(t, juju, "gopls")
	if len(gopls) != 1 {
		t.Fatalf("want one gopls child of juju after the first call, got %+v", gopls)
	}

	t.Run("cross-file definition", func(t *testing.T) {
		res := s.with(t).call("go_to_definition", map[string]any{"path": "lib/helper.go", "line": 3, "column": colOf(t, root, "lib/helper.go", 3, "Run", 1)})
		sameList(t, "definition", locs(t, res), []string{runDecl})
	})

	t.Run("definition outside the roots is named, not read", func(t *testing.T) {
		// len, in server.go line 7, is a builtin: its definition is in GOROOT.
		res := s.with(t).call("go_to_definition", map[string]any{"path": "lib/server.go", "line": 7, "column": colOf(t, root, "lib/server.go", 7, "len", 1)})
		var out struct {
			Locations []struct {
				Path    string
				Outside bool
				Text    string
			}
		}
		decode(t, res, &out)
		if len(out.Locations) != 1 || !out.Locations[0].Outside || out.Locations[0].Text != "" {
			t.Fatalf("want one outside location without text: %s", text(res))
		}
	})

	t.Run("exact references", func(t *testing.T) {
		res := s.with(t).call("find_references", map[string]any{"symbol": "Server.Run"})
		sameList(t, "references", locs(t, res), []string{
			at("app/main.go", 6, colOf(t, root, "app/main.go", 6, "Run", 1)),
			at("lib/helper.go", 3, colOf(t, root, "lib/helper.go", 3, "Run", 1)),
			runDecl,
		})
		res = s.with(t).call("find_references", map[string]any{"path": "lib/server.go", "line": 7, "column": colOf(t, root, "lib/server.go", 7, "Run", 1), "includeDeclaration": false})
		if got := locs(t, res); len(got) != 2 {
			t.Fatalf("without the declaration: %v", got)
		}
	})

	t.Run("find symbol", func(t *testing.T) {
		res := s.with(t).call("find_symbol", map[string]any{"symbol": "Server.Run"})
		var out struct {
			Source  string
			Symbols []struct {
				Name, Kind, Path string
				Line, Column     int
			}
		}
		decode(t, res, &out)
		if out.Source != "lsp" || len(out.Symbols) != 1 || at(out.Symbols[0].Path, out.Symbols[0].Line, out.Symbols[0].Column) != runDecl {
			t.Fatalf("find_symbol Server.Run: %s", text(res))
		}
	})

	t.Run("document symbols", func(t *testing.T) {
		res := s.with(t).call("document_symbols", map[string]any{"path": "lib/server.go"})
		out := text(res)
		for _, want := range []string{"struct Server  5:" + strconv.Itoa(colOf(t, root, "lib/server.go", 5, "Server", 1)), "field Name", "method (*Server).Run  7:" + strconv.Itoa(colOf(t, root, "lib/server.go", 7, "Run", 1)), "function NewServer"} {
			if !strings.Contains(out, want) {
				t.Fatalf("document_symbols lacks %q:\n%s", want, out)
			}
		}
	})

	t.Run("diagnostics pushed, current after edit_file", func(t *testing.T) {
		s := s.with(t)
		var d diagList
		decode(t, s.call("get_diagnostics", map[string]any{"path": "app/main.go"}), &d)
		if len(d.Diagnostics) != 0 || d.Pulled {
			t.Fatalf("clean file has diagnostics (or they were pulled): %+v", d)
		}
		s.ok("edit_file", map[string]any{"path": "app/main.go", "oldString": "\t_ = lib.Helper()\n", "newString": "\t_ = lib.Helper()\n\t/* 😀 */ var x int = \"bad\"\n"})
		decode(t, s.call("get_diagnostics", map[string]any{"path": "app/main.go"}), &d)
		if !d.has("error", "app/main.go", 8, colOf(t, root, "app/main.go", 8, `"bad"`, 1), "cannot use") {
			t.Fatalf("edit not seen by the server: %+v", d)
		}
	})

	t.Run("dependent file current after edit_file and rollback", func(t *testing.T) {
		s := s.with(t)
		edit := s.call("edit_file", map[string]any{"path": "lib/helper.go", "oldString": "func Helper()", "newString": "func Helper2()"})
		if edit.IsError {
			t.Fatal(text(edit))
		}
		var d diagList
		decode(t, s.call("get_diagnostics", map[string]any{"path": "app/main.go"}), &d)
		if !d.has("error", "app/main.go", 7, colOf(t, root, "app/main.go", 7, "Helper", 1), "Helper") {
			t.Fatalf("dependent file's diagnostics are stale after the edit: %+v", d)
		}
		// Definitions follow the edit too.
		res := s.call("go_to_definition", map[string]any{"path": "lib/helper.go", "line": 3, "column": colOf(t, root, "lib/helper.go", 3, "NewServer", 1)})
		sameList(t, "definition after edit", locs(t, res), []string{newServerDecl})
		changeID, _ := structured(t, edit)["changeId"].(string)
		s.ok("rollback_changes", map[string]any{"changeId": changeID})
		decode(t, s.call("get_diagnostics", map[string]any{"path": "app/main.go"}), &d)
		if d.has("error", "app/main.go", 7, colOf(t, root, "app/main.go", 7, "Helper", 1), "Helper") {
			t.Fatalf("rollback not seen by the server: %+v", d)
		}
	})

	t.Run("definitions follow an edit of the defining file", func(t *testing.T) {
		s := s.with(t)
		edit := s.call("edit_file", map[string]any{"path": "lib/server.go", "oldString": "// NewServer makes", "newString": "// 😀 one more line\n// NewServer makes"})
		if edit.IsError {
			t.Fatal(text(edit))
		}
		res := s.call("go_to_definition", map[string]any{"path": "app/main.go", "line": 6, "column": colOf(t, root, "app/main.go", 6, "NewServer", 1)})
		sameList(t, "definition after the edit", locs(t, res), []string{at("lib/server.go", 11, colOf(t, root, "lib/server.go", 11, "NewServer", 1))})
		changeID, _ := structured(t, edit)["changeId"].(string)
		s.ok("rollback_changes", map[string]any{"changeId": changeID})
		res = s.call("go_to_definition", map[string]any{"path": "app/main.go", "line": 6, "column": colOf(t, root, "app/main.go", 6, "NewServer", 1)})
		sameList(t, "definition after the rollback", locs(t, res), []string{newServerDecl})
	})

	t.Run("every open file", func(t *testing.T) {
		var d diagList
		decode(t, s.with(t).call("get_diagnostics", map[string]any{}), &d)
		if !d.has("error", "app/main.go", 8, colOf(t, root, "app/main.go", 8, `"bad"`, 1), "cannot use") {
			t.Fatalf("open files' diagnostics: %+v", d)
		}
	})

	t.Run("server killed between calls", func(t *testing.T) {
		s := s.with(t)
		old := childrenOf(t, juju, "gopls")
		if len(old) != 1 {
			t.Fatalf("gopls children: %+v", old)
		}
		if err := syscall.Kill(old[0].pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		res := s.call("go_to_definition", map[string]any{"path": "app/main.go", "line": 6, "column": colOf(t, root, "app/main.go", 6, "NewServer", 1)})
		sameList(t, "definition after a crash", locs(t, res), []string{newServerDecl})
		now := childrenOf(t, juju, "gopls")
		if len(now) != 1 || now[0].pid == old[0].pid {
			t.Fatalf("gopls was not restarted: before %+v, after %+v", old, now)
		}
		noZombies(t, juju, 5*time.Second)
	})

	// Nothing is left running once juju exits.
	g := childrenOf(t, juju, "gopls")
	if len(g) != 1 {
		t.Fatalf("gopls children before exit: %+v", g)
	}
	s.c.Close()
	groupGone(t, g[0].pgid, 15*time.Second)
}

func pyrightServer(t *testing.T) lspconfig.Server {
	return lspconfig.Server{Name: "pyright", Command: []string{pyrightCommand(t), "--stdio"}, Languages: []string{"python"},
		RootMarkers: []string{"pyproject.toml", "pyrightconfig.json"}}
}

func TestLSPPyright(t *testing.T) {
	root := fixture(t, "pymod")
	s := startHome(t, lspHome(t, pyrightServer(t)), root, "--mode", "trusted")
	juju := jujuPID(t, root)
	if c := childrenOf(t, juju, "pyright"); len(c) != 0 {
		t.Fatalf("pyright started before any semantic call: %+v", c)
	}
	runDecl := at("models.py", 7, colOf(t, root, "models.py", 7, "run", 1))

	t.Run("cross-file definition", func(t *testing.T) {
		res := s.with(t).call("go_to_definition", map[string]any{"path": "main.py", "line": 3, "column": colOf(t, root, "main.py", 3, "run", 1)})
		sameList(t, "definition", locs(t, res), []string{runDecl})
	})

	t.Run("exact references", func(t *testing.T) {
		res := s.with(t).call("find_references", map[string]any{"path": "models.py", "line": 11, "column": colOf(t, root, "models.py", 11, "helper", 1)})
		sameList(t, "references", locs(t, res), []string{
			at("main.py", 1, colOf(t, root, "main.py", 1, "helper", 1)),
			at("main.py", 4, colOf(t, root, "main.py", 4, "helper", 1)),
			at("models.py", 11, colOf(t, root, "models.py", 11, "helper", 1)),
		})
	})

	t.Run("document symbols", func(t *testing.T) {
		out := text(s.with(t).call("document_symbols", map[string]any{"path": "models.py"}))
		for _, want := range []string{"class Server  4:7", "  method run  7:" + strconv.Itoa(colOf(t, root, "models.py", 7, "run", 1)), "function helper  11:5"} {
			if !strings.Contains(out, want) {
				t.Fatalf("document_symbols lacks %q:\n%s", want, out)
			}
		}
	})

	t.Run("find symbol by name path", func(t *testing.T) {
		res := s.with(t).call("find_symbol", map[string]any{"symbol": "Server.run"})
		var out struct {
			Source  string
			Symbols []struct {
				Path         string
				Line, Column int
			}
		}
		decode(t, res, &out)
		if out.Source != "lsp" || len(out.Symbols) != 1 || at(out.Symbols[0].Path, out.Symbols[0].Line, out.Symbols[0].Column) != runDecl {
			t.Fatalf("find_symbol Server.run: %s", text(res))
		}
	})

	t.Run("diagnostics pulled, current after edit_file", func(t *testing.T) {
		s := s.with(t)
		var d diagList
		decode(t, s.call("get_diagnostics", map[string]any{"path": "main.py"}), &d)
		badCol := colOf(t, root, "main.py", 4, "helper", 1)
		if !d.Pulled || !d.has("error", "main.py", 4, badCol, "not assignable") {
			t.Fatalf("pulled diagnostics: %+v", d)
		}
		s.ok("edit_file", map[string]any{"path": "main.py", "oldString": "v: int = helper(3)", "newString": "v: str = helper(3)"})
		decode(t, s.call("get_diagnostics", map[string]any{"path": "main.py"}), &d)
		if d.has("error", "main.py", 4, badCol, "not assignable") {
			t.Fatalf("the fix was not seen: %+v", d)
		}
		// A change in the imported file reaches the importer.
		s.ok("edit_file", map[string]any{"path": "models.py", "oldString": "def helper(x: int) -> str:", "newString": "def helper(x: int) -> int:"})
		decode(t, s.call("get_diagnostics", map[string]any{"path": "main.py"}), &d)
		if !d.has("error", "main.py", 4, badCol, "not assignable") {
			t.Fatalf("the imported file's change was not seen: %+v", d)
		}
	})

	g := childrenOf(t, juju, "node")
	s.c.Close()
	for _, p := range g {
		groupGone(t, p.pgid, 15*time.Second)
	}
}

func TestLSPFaults(t *testing.T) {
	root := fixture(t, "gomod")
	hang := lspconfig.Server{Name: "mute", Command: []string{"sleep", "600"}, Languages: []string{"python"}}
	missing := lspconfig.Server{Name: "ghost", Command: []string{"juju-no-such-language-server", "--stdio"}, Languages: []string{"go"}}
	if err := writeRootFile(root, "x.py", "x = 1  # 😀\n"); err != nil {
		t.Fatal(err)
	}
	s := startHome(t, lspHome(t, hang, missing), root, "--mode", "trusted")
	juju := jujuPID(t, root)

	t.Run("bad command", func(t *testing.T) {
		start := time.Now()
		msg := s.with(t).fail("go_to_definition", map[string]any{"path": "app/main.go", "line": 6, "column": 12}, "NOT_FOUND")
		if !strings.Contains(msg, "ghost") || time.Since(start) > 5*time.Second {
			t.Fatalf("want NOT_FOUND naming ghost quickly, got %q after %s", msg, time.Since(start))
		}
	})

	t.Run("server that never answers", func(t *testing.T) {
		start := time.Now()
		msg := s.with(t).fail("document_symbols", map[string]any{"path": "x.py"}, "TIMEOUT")
		if !strings.Contains(msg, "mute") || time.Since(start) > 45*time.Second {
			t.Fatalf("want TIMEOUT naming mute within the bound, got %q after %s", msg, time.Since(start))
		}
		if c := childrenOf(t, juju, "sleep"); len(c) != 0 {
			t.Fatalf("the mute server was not stopped: %+v", c)
		}
		noZombies(t, juju, 5*time.Second)
	})

	t.Run("juju keeps serving", func(t *testing.T) {
		if !strings.Contains(s.with(t).ok("read_file", map[string]any{"path": "x.py"}), "x = 1") {
			t.Fatal("read_file after the faults")
		}
	})
}

func TestLSPHeuristic(t *testing.T) {
	root := fixture(t, "gomod")
	py := fixture(t, "pymod")
	if err := os.Rename(py, filepath.Join(root, "py")); err != nil {
		t.Fatal(err)
	}
	s := start(t, root, "--mode", "trusted")

	t.Run("find_symbol", func(t *testing.T) {
		res := s.with(t).call("find_symbol", map[string]any{"symbol": "Server.Run"})
		var out struct {
			Source  string
			Symbols []struct {
				Path, Kind   string
				Line, Column int
			}
		}
		decode(t, res, &out)
		want := at("lib/server.go", 7, colOf(t, root, "lib/server.go", 7, "Run", 1))
		if out.Source != "heuristic" || len(out.Symbols) != 1 || at(out.Symbols[0].Path, out.Symbols[0].Line, out.Symbols[0].Column) != want {
			t.Fatalf("heuristic find_symbol: %s", text(res))
		}
		res = s.with(t).call("find_symbol", map[string]any{"symbol": "Server.run"})
		decode(t, res, &out)
		if len(out.Symbols) != 1 || out.Symbols[0].Path != "py/models.py" || out.Symbols[0].Kind != "method" {
			t.Fatalf("python method by name path: %s", text(res))
		}
	})

	t.Run("document_symbols", func(t *testing.T) {
		out := text(s.with(t).call("document_symbols", map[string]any{"path": "py/models.py"}))
		if !strings.Contains(out, "class Server  4:7") || !strings.Contains(out, "  method run  7:") || !strings.Contains(out, "heuristic") {
			t.Fatalf("heuristic document_symbols:\n%s", out)
		}
	})

	t.Run("go_to_definition by name", func(t *testing.T) {
		res := s.with(t).call("go_to_definition", map[string]any{"path": "app/main.go", "line": 6, "column": colOf(t, root, "app/main.go", 6, "NewServer", 1)})
		sameList(t, "heuristic definition", locs(t, res), []string{at("lib/server.go", 10, colOf(t, root, "lib/server.go", 10, "NewServer", 1))})
		if structured(t, res)["source"] != "heuristic" {
			t.Fatal("not marked heuristic")
		}
	})

	t.Run("get_diagnostics says how to register", func(t *testing.T) {
		msg := s.with(t).fail("get_diagnostics", map[string]any{"path": "lib/server.go"}, "NOT_FOUND")
		if !strings.Contains(msg, "juju lsp add gopls") {
			t.Fatalf("message: %s", msg)
		}
	})
}

func writeRootFile(root, rel, content string) error {
	return os.WriteFile(filepath.Join(root, rel), []byte(content), 0o644)
}
