package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/test/bench/internal/native"
	"github.com/jujutools/juju/test/bench/internal/workload"
)

// tmp holds the workspace and the JUJU_HOME (with its compilation cache)
// every benchmark of this process shares.
var tmp string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var err error
	if tmp, err = os.MkdirTemp("", "juju-gobench-*"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	defer closeHosts()
	return m.Run()
}

var (
	mu        sync.Mutex
	hosts     = map[string]*host.Host{} // by root
	hostErrs  = map[string]error{}
	workspace string
)

// workspaceRoot returns the benchmark workspace, written once.
func workspaceRoot(tb testing.TB) string {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	if workspace == "" {
		ws := filepath.Join(tmp, "workspace")
		if err := workload.Workspace(ws); err != nil {
			tb.Fatal(err)
		}
		workspace = ws
	}
	return workspace
}

// goTreeRoot returns Go's source tree, or skips.
func goTreeRoot(tb testing.TB) string {
	tb.Helper()
	src, err := workload.GoTree()
	if err != nil {
		tb.Skipf("no Go source tree: %v", err)
	}
	return src
}

// pluginHost returns an in-process host over root, made once per process
// and compiled before any timer starts. It skips when the core plugins are
// not built.
func pluginHost(tb testing.TB, root string) *host.Host {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	h, err := hosts[root], hostErrs[root]
	if h == nil && err == nil {
		h, err = workload.NewHost(root, filepath.Join(tmp, "home"))
		if err == nil {
			_, err = workload.Call(context.Background(), h, "list_directory", workload.Raw(map[string]any{"path": "."}))
		}
		hosts[root], hostErrs[root] = h, err
	}
	if workload.IsNotBuilt(err) {
		tb.Skipf("core plugins not built (run `make plugins`): %v", err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return h
}

// nativeFS returns the native implementation over root.
func nativeFS(tb testing.TB, root string) *native.FS {
	tb.Helper()
	f, err := native.New(root)
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

func closeHosts() {
	mu.Lock()
	defer mu.Unlock()
	for _, h := range hosts {
		if h != nil {
			h.Close(context.Background())
		}
	}
}
