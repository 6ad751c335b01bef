package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jujutools/juju/internal/pluginbuild"
)

// installForTest copies a built plugin into home's data directory with the
// given grants, the way `juju plugins install` lays it out.
func installForTest(t *testing.T, home, src string, grants []string) {
	t.Helper()
	built := pluginbuild.ForTest(t, filepath.Join(repoRoot, src))
	data, err := os.ReadFile(filepath.Join(built, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Name string }
	json.Unmarshal(data, &m)
	dst := filepath.Join(home, "data", "plugins", m.Name)
	if err := os.MkdirAll(dst, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"manifest.json", "plugin.wasm"} {
		b, err := os.ReadFile(filepath.Join(built, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	g, _ := json.Marshal(map[string]any{"granted": grants})
	if err := os.WriteFile(filepath.Join(dst, "grants.json"), g, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Deliberately bad plugins fail with their tool error while every other
// call keeps working, and the host lives on.
func TestBadPluginsFailAlone(t *testing.T) {
	home := t.TempDir()
	for _, p := range []string{"trap", "loop", "oom", "nogrant", "garbage", "echo"} {
		installForTest(t, home, "plugins/testplugins/"+p, nil)
	}
	root := workspace(t, map[string]string{"a.txt": "still here\n"})
	s := startHome(t, home, root)

	cases := []struct{ tool, code string }{
		{"test_trap", "PLUGIN_FAILED"},
		{"test_loop", "PLUGIN_FAILED"},
		{"test_oom", "PLUGIN_FAILED"},
		{"test_nogrant", "CAPABILITY_DENIED"},
		{"test_garbage", "INVALID_ARGUMENT"},
	}
	var wg sync.WaitGroup
	for _, tc := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := s.callErr(tc.tool, map[string]any{})
			if err != nil {
				t.Errorf("%s: protocol error %v", tc.tool, err)
				return
			}
			if !res.IsError || !strings.HasPrefix(text(res), tc.code) {
				t.Errorf("%s: want %s, got %s", tc.tool, tc.code, text(res))
			}
		}()
	}
	// Meanwhile, and after, the core tools and the healthy plugin answer.
	for i := 0; i < 5; i++ {
		if got := s.ok("read_file", map[string]any{"path": "a.txt"}); !strings.Contains(got, "still here") {
			t.Fatalf("read_file during bad calls: %q", got)
		}
	}
	wg.Wait()
	if got := s.ok("test_echo", map[string]any{"text": "pong"}); !strings.Contains(got, "pong") {
		t.Fatalf("echo after bad calls: %q", got)
	}
	// A trapped plugin's next call gets a fresh instance, and fails the same way.
	if res := s.call("test_trap", map[string]any{}); !res.IsError {
		t.Fatal("trap must keep failing")
	}
	s.ok("read_file", map[string]any{"path": "a.txt"})
}
