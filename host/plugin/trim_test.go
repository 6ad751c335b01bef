package plugin_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// After a burst of calls side by side, the instances it made are disposed
// of once idle for the TTL, all but the most recently used one, which keeps
// serving; a later burst grows the pool again.
func TestIdleInstancesAreTrimmed(t *testing.T) {
	// fs.read waits until four calls are inside it: four instances at once.
	const burst = 4
	var g gatedRead
	fns := g.funcs(t)

	const ttl = 400 * time.Millisecond
	rt, err := plugin.NewRuntime(plugin.Options{Instances: burst, IdleTTL: ttl, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	m, wasm := built(t, "shared")
	m2 := *m
	m2.Capabilities = []abi.Capability{abi.CapFSRead}
	p := rt.Load(&m2, func() ([]byte, error) { return wasm, nil }, m2.Capabilities, fns)
	defer p.Close(context.Background())
	if err := p.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	call := func() *abi.CallResult {
		return p.Call(context.Background(), hostfns.Caller{Plugin: p.Name(), Tool: "test_shared_read", Tier: abi.TierRead}, "test_shared_read", json.RawMessage(`{}`))
	}
	burstOf := func() {
		t.Helper()
		var wg sync.WaitGroup
		open := g.hold(burst, func() {
			for range burst {
				wg.Go(func() {
					if res := call(); res.Error != nil {
						t.Error(res.Error)
					}
				})
			}
		})
		open()
		wg.Wait()
		if n := p.Idle(); n != burst {
			t.Fatalf("%d idle instances after a burst of %d", n, burst)
		}
	}
	waitIdle := func(want int) {
		t.Helper()
		deadline := time.Now().Add(ttl + 5*time.Second)
		for p.Idle() != want && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if n := p.Idle(); n != want {
			t.Fatalf("%d idle instances, want %d", n, want)
		}
	}

	start := time.Now()
	burstOf()
	time.Sleep(ttl / 4)
	if n := p.Idle(); n != burst {
		t.Fatalf("instances disposed of before the TTL: %d idle", n)
	}
	waitIdle(1)
	if took := time.Since(start); took < ttl {
		t.Fatalf("trimmed after %s, before the TTL", took)
	}
	time.Sleep(2 * ttl)
	if n := p.Idle(); n != 1 {
		t.Fatalf("the last instance was disposed of too (%d idle)", n)
	}
	if res := call(); res.Error != nil || len(res.Content) != 1 || res.Content[0].Text != "read 5 bytes" {
		t.Fatalf("the kept instance: %+v", res)
	}
	burstOf()
	waitIdle(1)
}
