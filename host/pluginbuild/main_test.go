package pluginbuild

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/jujutools/juju/host/plugin"
)

// repoRoot is the repository's top folder.
var repoRoot = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}()

func repo(rel string) string { return filepath.Join(repoRoot, filepath.FromSlash(rel)) }

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.rt != nil {
		shared.rt.Close(context.Background())
	}
	CleanupForTest()
	os.Exit(code)
}

// shared is one plugin runtime for the whole test binary, so that a module
// compiled to describe it is not compiled again to call it. Its compilation
// cache is on disk, in the temporary folder, so that later runs (and a run
// with -race, where wazero compiles several times slower) reuse it; wazero
// keys entries by module and by its own version, and writes them atomically.
var shared struct {
	once sync.Once
	rt   *plugin.Runtime
	err  error
}

func testRuntime(t testing.TB) *plugin.Runtime {
	t.Helper()
	shared.once.Do(func() {
		shared.rt, shared.err = plugin.NewRuntime(plugin.Options{
			Instances: 4,
			CacheDir:  filepath.Join(os.TempDir(), "juju-test-wazero-cache"),
		})
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.rt
}

// pluginSources lists every plugin source folder: the core plugin, core-exec
// (which runs its module) and the test plugins.
func pluginSources(t testing.TB) []string {
	t.Helper()
	tests, err := filepath.Glob(repo("plugins/testplugins/*/manifest.json"))
	if err != nil || len(tests) == 0 {
		t.Fatalf("no test plugins found: %v", err)
	}
	out := []string{"plugins/core", "plugins/exec"}
	for _, m := range tests {
		rel, _ := filepath.Rel(repoRoot, filepath.Dir(m))
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

// sourceOf returns the folder among sources whose manifest names the
// plugin name.
func sourceOf(t testing.TB, sources []string, name string) string {
	t.Helper()
	for _, src := range sources {
		data, err := ReadSource(repo(src))
		if err != nil {
			t.Fatal(err)
		}
		var id struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(data, &id) == nil && id.Name == name {
			return src
		}
	}
	t.Fatalf("no plugin source names %s", name)
	return ""
}
