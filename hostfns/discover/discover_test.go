package discover

import (
	"context"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

func TestGlobRule(t *testing.T) {
	j := newJob(nil, abi.DiscovererSpec{Files: []string{"Makefile", "*.mk", "**/.cargo/config.toml", "build/*.gradle", "[bad"}})
	if len(j.names) != 1 || len(j.globs) != 3 {
		t.Errorf("names %v, globs %v", j.names, j.globs)
	}
	for path, want := range map[string]bool{
		"Makefile": true, "a/b/Makefile": true, "x.mk": true, "a/x.mk": true,
		".cargo/config.toml": true, "a/.cargo/config.toml": true, "config.toml": false,
		"build/a.gradle": true, "x/build/a.gradle": false, "Makefile.bak": false,
	} {
		name := path[strings.LastIndex(path, "/")+1:]
		if got := j.matches(path, name); got != want {
			t.Errorf("matches(%q) = %v, want %v", path, got, want)
		}
	}
}

// Tasks from plugins are checked: incomplete ones dropped, unknown kinds
// made "other", long fields cut.
func TestClean(t *testing.T) {
	if _, ok := clean(abi.Task{Name: "x", Runner: "make"}); ok {
		t.Error("a task without a command was kept")
	}
	got, ok := clean(abi.Task{Name: "x", Runner: "r", Command: strings.Repeat("c", 2000), Kind: "weird", Line: -3})
	if !ok || got.Kind != abi.KindOther || got.Cwd != "." || got.Line != 0 || len(got.Command) > 1010 {
		t.Errorf("clean = %+v", got)
	}
}

func TestExtensionOf(t *testing.T) {
	for name, want := range map[string]string{
		"main.go": ".go", "A.TS": ".ts", "Makefile": "Makefile", ".gitignore": "", "README": "", "x.verylongextension123": "",
	} {
		if got := extensionOf(name); got != want {
			t.Errorf("extensionOf(%q) = %q, want %q", name, got, want)
		}
	}
}

// A discoverer cannot start discovery again (it would wait on itself).
func TestNestedRefused(t *testing.T) {
	s := &server{opts: Options{}}
	ctx := context.WithValue(context.Background(), nestedKey{}, true)
	if _, _, e := s.discover(ctx, &abi.DiscoverTasksRequest{}, nil); e == nil || e.Code != abi.InvalidArgument {
		t.Errorf("nested discover = %v, want INVALID_ARGUMENT", e)
	}
}

func TestInTestdata(t *testing.T) {
	for dir, want := range map[string]bool{
		"testdata": true, "testdata/x": true, "a/testdata": true, "a/testdata/b": true,
		".": false, "mytestdata": false, "a/testdatas": false, "/abs/root/testdata/x": true,
	} {
		if got := inTestdata(dir); got != want {
			t.Errorf("inTestdata(%q) = %v, want %v", dir, got, want)
		}
	}
}
