//go:build unix

package test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// A language server juju runs for a tier R tool reaches no network and
// runs no toolchain it would download: a model in edit mode writes a
// go.mod (tier E, unasked) requiring a module of its own naming, or a Go
// release newer than the owner's, and asks get_diagnostics (tier R) about
// it. gopls's `go list` then asked the module proxy for that module (the
// proxy fetching it from the host the path names: the words of the path
// reach a server of the model's choosing) and for the newer toolchain,
// which it would then run: a fetch, tier X, without the owner's approval.
func TestLSPGoplsFetchesNothing(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.Path)
		mu.Unlock()
		http.NotFound(w, r)
	}))
	defer proxy.Close()

	root := workspace(t, map[string]string{
		"a/main.go": "package main\n\nimport \"example.com/leak/the-owners-words\"\n\nfunc main() { words.Say() }\n",
		"b/go.mod":  "module example.com/b\n\ngo 1.99.0\n",
		"b/main.go": "package main\n\nfunc main() {}\n",
	})
	home := lspHome(t, goplsServer(t))
	if _, err := os.Lstat(filepath.Join(home, "cache")); os.IsNotExist(err) {
		if err := os.Symlink(sharedCache, filepath.Join(home, "cache")); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "JUJU_HOME="+home, "GOPROXY="+proxy.URL, "GOSUMDB=off",
		"GOTOOLCHAIN=auto", "GOMODCACHE="+t.TempDir(), "GOFLAGS=-modcacherw")
	s := startCommand(t, env, jujuBin, []string{"stdio", "--root", root, "--mode", "edit"}, home, root)

	s.ok("write_file", map[string]any{"path": "a/go.mod",
		"content": "module example.com/a\n\ngo 1.22\n\nrequire example.com/leak/the-owners-words v1.0.0\n"})
	s.call("get_diagnostics", map[string]any{"path": "a/main.go"})
	// gopls ran, and says the module needs a newer Go than the owner's.
	if b := text(s.call("get_diagnostics", map[string]any{"path": "b/main.go"})); !strings.Contains(b, "requires go >= 1.99.0") {
		t.Errorf("get_diagnostics of b/main.go does not say the module needs Go 1.99.0: %s", b)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) > 0 {
		t.Fatalf("gopls, run for a tier R tool, asked the network for %q", asked)
	}
}
