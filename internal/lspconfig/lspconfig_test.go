package lspconfig

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestAddListRemove(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "config")
	if got, err := Load(dir); err != nil || got != nil {
		t.Fatalf("missing file: %v %v", got, err)
	}
	argv, err := SplitCommand(`pyright-langserver --stdio --log "a b"`)
	if err != nil || !reflect.DeepEqual(argv, []string{"pyright-langserver", "--stdio", "--log", "a b"}) {
		t.Fatalf("split: %q %v", argv, err)
	}
	py := Server{Name: "pyright", Command: argv, Languages: []string{"python"}, RootMarkers: []string{"pyproject.toml"}}
	gopls := Server{Name: "gopls", Command: []string{"gopls"}, Languages: []string{"go"}, InitOptions: `{"verboseWorkDoneProgress":true}`}
	for _, s := range []Server{py, gopls} {
		if err := Add(dir, s, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := Add(dir, gopls, false); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a second gopls without --replace: %v", err)
	}
	got, err := Load(dir)
	if err != nil || !reflect.DeepEqual(got, []Server{gopls, py}) {
		t.Fatalf("load: %+v %v", got, err)
	}
	if fi, err := os.Stat(Path(dir)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode: %v %v", fi, err)
	}
	if s, ok := For(got, "python"); !ok || s.Name != "pyright" {
		t.Fatalf("For python: %+v", s)
	}
	if err := Remove(dir, "pyright"); err != nil {
		t.Fatal(err)
	}
	if err := Remove(dir, "pyright"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second remove: %v", err)
	}
}

func TestValidate(t *testing.T) {
	ok := Server{Name: "x", Command: []string{"x"}, Languages: []string{"go"}}
	for name, mut := range map[string]func(*Server){
		"bad name":      func(s *Server) { s.Name = "X Y" },
		"no command":    func(s *Server) { s.Command = nil },
		"no language":   func(s *Server) { s.Languages = nil },
		"unknown lang":  func(s *Server) { s.Languages = []string{"cobol"} },
		"marker path":   func(s *Server) { s.RootMarkers = []string{"a/go.mod"} },
		"init not json": func(s *Server) { s.InitOptions = "{" },
		"init array":    func(s *Server) { s.InitOptions = "[1]" },
	} {
		s := ok
		mut(&s)
		if err := s.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestDecodeStrict(t *testing.T) {
	_, err := Decode("lsp.toml", []byte("[[server]]\nname = \"x\"\ncommand = [\"x\"]\nlanguages = [\"go\"]\nextra = 1\n"))
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("unknown key accepted: %v", err)
	}
}

// A key misspelt by hand in lsp.toml is named, with its line and the keys
// a registration has; so is a value of the wrong type.
func TestDecodeNamesTheKeyAndLine(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"[[server]]\nname = 'gopls'\ncommand = ['gopls']\nlangauges = ['go']\n",
			`lsp.toml:4: invalid language server registration: unknown key "server.langauges" (a [[server]] has name, command, languages, rootMarkers, initOptions)`},
		{"[[servers]]\nname = 'gopls'\n",
			`lsp.toml:1: invalid language server registration: unknown key "servers" (the file holds [[server]] tables)`},
		{"[[server]]\nname = 'gopls'\ncommand = 'gopls'\nlanguages = ['go']\n",
			`lsp.toml:3: invalid language server registration: server.command: must be a list of strings`},
	} {
		_, err := Decode("lsp.toml", []byte(tc.data))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.Is(err, ErrInvalid) {
			t.Errorf("Decode(%q) = %v, want %q", tc.data, err, tc.want)
		}
	}
}

// A language has one server. A second registration of a language was
// saved and reported registered, but For serves the first by name, so it
// was never started (or, named to sort first, took the language over).
func TestAddRefusesALanguageServedAlready(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "config")
	pyright := Server{Name: "pyright", Command: []string{"pyright-langserver", "--stdio"}, Languages: []string{"python"}}
	if err := Add(dir, pyright, false); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"pylsp", "zz-pylsp"} {
		err := Add(dir, Server{Name: name, Command: []string{"pylsp"}, Languages: []string{"lua", "python"}}, false)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "python is served by pyright already") ||
			!strings.Contains(err.Error(), "juju lsp remove pyright") {
			t.Errorf("add %s for python: %v", name, err)
		}
	}
	// Replacing a registration keeps its languages; another language is
	// still free.
	pyright.Command = []string{"pyright-langserver", "--stdio", "--verbose"}
	if err := Add(dir, pyright, true); err != nil {
		t.Errorf("replace pyright: %v", err)
	}
	if err := Add(dir, Server{Name: "pylsp", Command: []string{"pylsp"}, Languages: []string{"lua"}}, false); err != nil {
		t.Errorf("add pylsp for lua: %v", err)
	}
	got, err := Load(dir)
	if err != nil || len(got) != 2 {
		t.Fatalf("load: %+v %v", got, err)
	}
	if s, ok := For(got, "python"); !ok || s.Name != "pyright" {
		t.Errorf("For python: %+v", s)
	}
}
