package plugin_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/internal/wasmstop"
	"github.com/jujutools/juju/sdk/abi"
)

// stoppedInTime calls the loop plugin p (a 1 s limit) and checks that the
// call is stopped and answered, and that p serves the next call from a
// fresh instance, which is stopped again.
func stoppedInTime(t *testing.T, p *plugin.Plugin) {
	t.Helper()
	for range 2 {
		start := time.Now()
		res := p.Call(context.Background(), hostfns.Caller{}, "test_loop", json.RawMessage(`{}`))
		if res.Error == nil || res.Error.Code != abi.PluginFailed || !strings.Contains(res.Error.Message, "did not finish") {
			t.Fatalf("loop: %+v", res.Error)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("the loop ran %v past its 1 s limit", d)
		}
	}
}

// markedLoop is the loop plugin's module instrumented, with its manifest
// pinning those bytes, as a plugin author could ship it.
func markedLoop(t *testing.T) (*manifest.Manifest, []byte) {
	m, wasm := built(t, "loop")
	marked, err := wasmstop.Instrument(wasm)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(marked)
	m.Wasm.SHA256 = hex.EncodeToString(sum[:])
	return m, marked
}

// Each way a module comes to the host, a looping call is stopped at its
// limit: by the stop global where the host instrumented the module or
// built it so, and by wazero's checks otherwise. A module that claims its
// stop checks is trusted only when it is built into juju.
func TestLoopStopped(t *testing.T) {
	for _, c := range []struct {
		name       string
		load       func(t *testing.T, rt *plugin.Runtime) *plugin.Plugin
		stopGlobal bool
	}{
		{"instrumented when loaded", func(t *testing.T, rt *plugin.Runtime) *plugin.Plugin {
			return load(t, rt, "loop", nil)
		}, true},
		{"not instrumented", func(t *testing.T, rt *plugin.Runtime) *plugin.Plugin {
			plugin.RefuseInstrumenting(t)
			return load(t, rt, "loop", nil)
		}, false},
		{"installed, claiming its checks", func(t *testing.T, rt *plugin.Runtime) *plugin.Plugin {
			m, wasm := markedLoop(t)
			return rt.Load(m, func() ([]byte, error) { return wasm, nil }, nil, hostFuncs(t))
		}, false},
		{"embedded, instrumented when built", func(t *testing.T, rt *plugin.Runtime) *plugin.Plugin {
			m, wasm := markedLoop(t)
			return rt.LoadEmbedded(m, func() ([]byte, error) { return wasm, nil }, nil, nil, hostFuncs(t))
		}, true},
		{"embedded, not instrumented when built", func(t *testing.T, rt *plugin.Runtime) *plugin.Plugin {
			m, wasm := built(t, "loop")
			return rt.LoadEmbedded(m, func() ([]byte, error) { return wasm, nil }, nil, nil, hostFuncs(t))
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			rt, err := plugin.NewRuntime(plugin.Options{CacheDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			p := c.load(t, rt)
			defer p.Close(context.Background())
			if err := p.Warm(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := plugin.StopsByGlobal(p); got != c.stopGlobal {
				t.Fatalf("stopped by its global: %v, want %v", got, c.stopGlobal)
			}
			stoppedInTime(t, p)
		})
	}
}
