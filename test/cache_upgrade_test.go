package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// juju is upgraded: the cache holds the compiled code of the build before,
// tens of megabytes a core plugin, and of an older wazero. The first juju
// stdio of the new build removes both once its own plugins are compiled,
// where they stayed for good unless the owner installed or removed a
// plugin; the code this build uses stays, however old its file.
func TestUpgradePrunesTheEarlierBuildsCompiledCode(t *testing.T) {
	home := t.TempDir()
	cache := filepath.Join(home, "cache")
	long := time.Now().Add(-3 * time.Hour)
	err := filepath.WalkDir(sharedCache, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(sharedCache, p)
		dst := filepath.Join(cache, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o700)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(dst, b, 0o600); err != nil {
			return err
		}
		return os.Chtimes(dst, long, long)
	})
	if err != nil {
		t.Fatal(err)
	}
	// The shared cache's note names this build once a juju of the suite
	// has started on it; after an upgrade it names the build before.
	stamp := filepath.Join(cache, "pruned-for")
	if err := os.WriteFile(stamp, []byte(strings.Repeat("0e", 32)), 0o600); err != nil {
		t.Fatal(err)
	}
	folders, _ := filepath.Glob(filepath.Join(cache, "wazero-*"))
	cached := cachedPlugins(t, home)
	if len(folders) != 1 || !cached["core"] {
		t.Fatalf("the warm cache holds %v, and the plugins compiled in it are %v", folders, cached)
	}
	earlier := filepath.Join(folders[0], strings.Repeat("0e", 32))
	if err := os.WriteFile(earlier, make([]byte, 2<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	otherWazero := filepath.Join(cache, "wazero-v1.0.0-"+runtime.GOARCH+"-"+runtime.GOOS)
	os.MkdirAll(otherWazero, 0o700)
	os.WriteFile(filepath.Join(otherWazero, strings.Repeat("1f", 32)), make([]byte, 2<<20), 0o600)
	for _, p := range []string{earlier, otherWazero} {
		if err := os.Chtimes(p, long, long); err != nil {
			t.Fatal(err)
		}
	}

	s := startHome(t, home, t.TempDir())
	s.ok("list_directory", map[string]any{"path": "."}) // the plugins are loaded
	deadline := time.Now().Add(3 * time.Minute)
	for {
		_, e1 := os.Stat(earlier)
		_, e2 := os.Stat(otherWazero)
		if os.IsNotExist(e1) && os.IsNotExist(e2) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("juju stdio of a new build left the earlier build's compiled code in the cache (%v, %v)", e1, e2)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if after := cachedPlugins(t, home); !reflect.DeepEqual(after, cached) {
		t.Errorf("the compiled code of plugins in use went too: compiled in the cache before %v, after %v", cached, after)
	}
	if b, err := os.ReadFile(stamp); err != nil || string(b) == strings.Repeat("0e", 32) {
		t.Errorf("no note of the build that pruned the cache, so every start prunes again: %q, %v", b, err)
	}
}

// cachedPlugins names the plugins juju plugins list says are compiled in
// home's cache.
func cachedPlugins(t *testing.T, home string) map[string]bool {
	t.Helper()
	code, out, errs := jujuCLI(t, home, "plugins", "list", "--json")
	var list []struct{ Name, State string }
	if err := json.Unmarshal([]byte(out), &list); err != nil || code != 0 {
		t.Fatalf("juju plugins list --json: status %d, %v\n%s%s", code, err, out, errs)
	}
	in := map[string]bool{}
	for _, p := range list {
		if p.State == "compiled (cache)" {
			in[p.Name] = true
		}
	}
	return in
}
