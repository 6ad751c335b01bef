package plugin_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/host/pluginbuild"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/hostfns/fs"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// built returns a test plugin's manifest and wasm.
func built(t testing.TB, name string) (*manifest.Manifest, []byte) {
	t.Helper()
	dir := pluginbuild.ForTest(t, filepath.Join("..", "..", "plugins", "testplugins", name))
	data, err := os.ReadFile(filepath.Join(dir, manifest.FileName))
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	wasm, err := os.ReadFile(filepath.Join(dir, m.Wasm.File))
	if err != nil {
		t.Fatal(err)
	}
	return m, wasm
}

// A plugin of ABI 1, written with the Extism PDK alone, keeps working: its
// input, output and host function frames go through Extism kernel memory,
// eight bytes per call, small files and large alike.
func TestKernelABI(t *testing.T) {
	root := t.TempDir()
	small := "hello\nworld\n"
	large := strings.Repeat("0123456789abcdef", 64<<10/16) + "tail" // not a multiple of 8
	os.WriteFile(filepath.Join(root, "small.txt"), []byte(small), 0o644)
	os.WriteFile(filepath.Join(root, "large.txt"), []byte(large), 0o644)
	os.WriteFile(filepath.Join(root, ".env"), []byte("TOKEN=x\n"), 0o644)
	pol, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	m, wasm := built(t, "kernel")
	if m.ABI != abi.VersionKernel {
		t.Fatalf("the kernel test plugin declares abi %d", m.ABI)
	}
	p := rt.Load(m, func() ([]byte, error) { return wasm, nil }, m.Capabilities, fs.New(pol, fs.Options{}))
	defer p.Close(context.Background())
	caller := hostfns.Caller{Plugin: m.Name, Tool: "test_kernel_read", Tier: abi.TierRead}
	for _, c := range []struct{ path, want string }{{"small.txt", small}, {"large.txt", large}} {
		args, _ := json.Marshal(map[string]string{"path": c.path})
		res := p.Call(context.Background(), caller, "test_kernel_read", args)
		if res.Error != nil || len(res.Content) != 1 || res.Content[0].Text != c.want {
			t.Fatalf("%s: %+v", c.path, res.Error)
		}
	}
	res := p.Call(context.Background(), caller, "test_kernel_read", json.RawMessage(`{"path":".env"}`))
	if res.Error == nil || res.Error.Code != abi.SecretDenied {
		t.Fatalf(".env: %+v", res.Error)
	}
}

// A manifest whose abi is not the one its module speaks is refused when
// the plugin compiles, with a reason, rather than failing call by call.
func TestABIMismatchRefused(t *testing.T) {
	rt, err := plugin.NewRuntime(plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, abiWrong := range map[string]int{"kernel": abi.VersionChannel, "echo": abi.VersionKernel} {
		m, wasm := built(t, name)
		m2 := *m
		m2.ABI = abiWrong
		p := rt.Load(&m2, func() ([]byte, error) { return wasm, nil }, nil, nil)
		if err := p.Warm(context.Background()); !errors.Is(err, plugin.ErrABIMismatch) {
			t.Errorf("%s declared abi %d: %v", name, abiWrong, err)
		}
		p.Close(context.Background())
	}
}

// ModuleABI reads the ABI from the imports: the SDK's plugins speak ABI 2,
// a plugin of the Extism PDK alone ABI 1.
func TestModuleABI(t *testing.T) {
	for name, want := range map[string]int{"echo": abi.VersionChannel, "kernel": abi.VersionKernel, "garbage": abi.VersionChannel} {
		_, wasm := built(t, name)
		if got, err := plugin.ModuleABI(wasm); err != nil || got != want {
			t.Errorf("%s: abi %d, %v; want %d", name, got, err, want)
		}
	}
}
