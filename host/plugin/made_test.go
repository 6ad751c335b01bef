package plugin_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// A call stopped at its deadline after a host function made a change (the
// journal committed it while the time ran out) says the change is made,
// with its id, not that the plugin was stopped: the model must not make
// it again.
func TestStoppedAfterAChangeSaysItIsMade(t *testing.T) {
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: t.TempDir(), Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	apply := hostfns.Func{Name: abi.FnFSApply, Capability: abi.CapFSWrite, Handle: hostfns.Typed(
		func(ctx context.Context, _ *abi.ChangeRequest, _ []byte) (*abi.ChangeResult, []byte, *abi.Error) {
			<-ctx.Done() // the change commits as the deadline passes
			hostfns.NoteMade(ctx, "c000007")
			return &abi.ChangeResult{ChangeID: "c000007"}, nil, nil
		})}
	p := load(t, rt, "writer", append(hostFuncs(t), apply))
	defer p.Close(context.Background())
	res := p.Call(context.Background(), hostfns.Caller{Tool: "test_write", Tier: abi.TierEdit}, "test_write", json.RawMessage(`{"path":"a.txt","content":"x"}`))
	if res.Error == nil {
		// On a loaded machine the guest can end on its own between the
		// deadline and the stop: its own answer then names the change.
		if b, _ := json.Marshal(res); !strings.Contains(string(b), "c000007") {
			t.Fatalf("the call ended without an error, and its answer names no change: %s", b)
		}
		return
	}
	if res.Error.Code != abi.Timeout || !strings.Contains(res.Error.Message, "made change c000007") || strings.Contains(res.Error.Message, "stopped") {
		t.Fatalf("got %+v, want a TIMEOUT naming the change made", res.Error)
	}
}
