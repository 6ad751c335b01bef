package plugin_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
)

// TestChannelFloodIsBounded: what a plugin writes to its channel and no
// host function takes lives in the host's heap, beside the instance's
// linear memory. A plugin may have no more of it pending than the largest
// frame the host takes (80 MiB), nor more than its memory cap leaves
// beside its linear memory, and the call still answers. Bounded by the cap
// alone, 255 writes of one megabyte went through and took the host from
// 100 MB to 764 MB.
func TestChannelFloodIsBounded(t *testing.T) {
	for _, tc := range []struct {
		memMiB, most int
	}{
		{256, 80}, // the fixed bound
		{64, 63},  // the cap, less the guest's own memory
	} {
		rt, err := plugin.NewRuntime(plugin.Options{CacheDir: sharedCache, MemoryMiB: tc.memMiB})
		if err != nil {
			t.Fatal(err)
		}
		p := load(t, rt, "flood", nil)
		res := p.Call(context.Background(), hostfns.Caller{}, "test_flood", json.RawMessage(`{"op":"write","mib":255}`))
		p.Close(context.Background())
		if res.Error != nil || len(res.Content) != 1 {
			t.Fatalf("%d MiB: %+v", tc.memMiB, res)
		}
		written, err := strconv.Atoi(res.Content[0].Text)
		if err != nil || written > tc.most || written < 8 {
			t.Errorf("with a memory cap of %d MiB, %s MiB went through, want 8 to %d", tc.memMiB, res.Content[0].Text, tc.most)
		}
	}
}
