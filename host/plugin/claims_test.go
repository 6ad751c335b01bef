package plugin_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// TestClaimHostFunctionPanicIsInternal checks SECURITY.md: "a panic
// inside a host function is contained and answered INTERNAL" — for that
// call only: the next call, in the same single instance of the plugin,
// still works. The reader test plugin calls juju_fs_read, whose handler
// here panics for the path panic.txt (with a value, then with a runtime
// error) and reads normally otherwise.
func TestClaimHostFunctionPanicIsInternal(t *testing.T) {
	fns := hostFuncsOver(t, helloRoot(t))
	found := false
	for i, f := range fns {
		if f.Name != abi.FnFSRead {
			continue
		}
		found = true
		read := f.Handle
		fns[i].Handle = func(ctx context.Context, h, b []byte) ([]byte, []byte) {
			var req abi.ReadRequest
			if json.Unmarshal(h, &req) == nil {
				switch req.Path {
				case "panic.txt":
					panic("claims: a host function panics")
				case "nil.txt":
					var m map[string]int
					m["x"]++ // a runtime error: assignment to a nil map
				}
			}
			return read(ctx, h, b)
		}
	}
	if !found {
		t.Fatalf("no %s among the host functions", abi.FnFSRead)
	}
	// One instance: the call after the panic runs where it happened.
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: sharedCache, Instances: 1, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	p := load(t, rt, "reader", fns)
	defer p.Close(context.Background())
	if err := p.Ready(context.Background()); err != nil { // compiled before the timed calls
		t.Fatal(err)
	}

	call := func(path string) *abi.CallResult {
		t.Helper()
		args, _ := json.Marshal(map[string]string{"path": path})
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return p.Call(ctx, hostfns.Caller{Plugin: p.Name(), Tool: "test_reader", Tier: abi.TierRead}, "test_reader", args)
	}
	good := func(when string) {
		t.Helper()
		res := call("a.txt")
		if res.Error != nil || len(res.Content) != 1 || res.Content[0].Text != "hello" {
			t.Fatalf("%s, a good call failed: %+v %+v", when, res.Error, res.Content)
		}
	}
	good("before any panic")
	for _, path := range []string{"panic.txt", "nil.txt", "panic.txt"} {
		res := call(path)
		if res.Error == nil || res.Error.Code != abi.Internal {
			t.Fatalf("a host function that panicked (%s): want INTERNAL, got %+v %+v", path, res.Error, res.Content)
		}
		good("after a panic on " + path)
	}
}
