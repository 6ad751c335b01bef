package pluginbuild

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// testBuilds holds the plugins ForTest built in this process.
var testBuilds struct {
	mu   sync.Mutex
	root string
	by   map[string]*testBuild
}

type testBuild struct {
	once sync.Once
	dir  string
	err  error
}

// TB is the part of testing.TB that ForTest uses. It is named here so that
// juju's own binary, which links this package, does not link the testing
// package and run its init.
type TB interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// ForTest builds the plugin in srcDir once per test binary and returns the
// folder holding its manifest.json and plugin.wasm. Later calls for the same
// srcDir, from any test, return the same folder. The folders live in one
// temporary directory; a TestMain can remove it with CleanupForTest.
func ForTest(t TB, srcDir string) string {
	t.Helper()
	abs, err := filepath.Abs(srcDir)
	if err != nil {
		t.Fatal(err)
	}
	testBuilds.mu.Lock()
	if testBuilds.by == nil {
		testBuilds.by = map[string]*testBuild{}
	}
	b := testBuilds.by[abs]
	if b == nil {
		b = &testBuild{}
		testBuilds.by[abs] = b
	}
	testBuilds.mu.Unlock()
	b.once.Do(func() { b.dir, b.err = buildForTest(abs) })
	if b.err != nil {
		t.Fatalf("building plugin %s: %v", srcDir, b.err)
	}
	return b.dir
}

func buildForTest(srcDir string) (string, error) {
	testBuilds.mu.Lock()
	if testBuilds.root == "" {
		root, err := os.MkdirTemp("", "juju-pluginbuild-*")
		if err != nil {
			testBuilds.mu.Unlock()
			return "", err
		}
		testBuilds.root = root
	}
	root := testBuilds.root
	testBuilds.mu.Unlock()
	out, err := os.MkdirTemp(root, filepath.Base(srcDir)+"-*")
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	m, err := Build(ctx, srcDir, out)
	if err != nil {
		return "", err
	}
	return filepath.Join(out, m.Name), nil
}

// CleanupForTest removes every folder ForTest made. Call it at the end of
// TestMain; ForTest must not be called afterwards.
func CleanupForTest() {
	testBuilds.mu.Lock()
	defer testBuilds.mu.Unlock()
	if testBuilds.root != "" {
		os.RemoveAll(testBuilds.root)
	}
	testBuilds.root, testBuilds.by = "", nil
}
