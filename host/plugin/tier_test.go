package plugin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// A tool declared below the tier of a capability cannot use it, even when
// its plugin holds the grant: fs.write needs E, exec, exec.shell and
// net.fetch need X. The handler never runs, and the refusal is logged.
func TestTierBoundsCapabilities(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: t.TempDir(), Timeout: 20 * time.Second, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	var ran atomic.Int32
	fn := func(name string, c abi.Capability) hostfns.Func {
		return hostfns.Func{Name: name, Capability: c, Handle: func(context.Context, []byte, []byte) ([]byte, []byte) {
			ran.Add(1)
			return []byte(`{}`), nil
		}}
	}
	fns := append(hostFuncs(t),
		fn("juju_test_write", abi.CapFSWrite),
		fn("juju_test_exec", abi.CapExec),
		fn("juju_test_shell", abi.CapExecShell),
		fn("juju_test_fetch", abi.CapNetFetch),
	)
	p := load(t, rt, "tiers", fns)
	defer p.Close(context.Background())

	allowed := map[string]map[string]bool{ // tier → fn → allowed
		abi.TierRead: {},
		abi.TierEdit: {"write": true},
		abi.TierExec: {"write": true, "exec": true, "shell": true, "fetch": true},
	}
	tools := map[string]string{abi.TierRead: "test_tier_r", abi.TierEdit: "test_tier_e", abi.TierExec: "test_tier_x"}
	for tier, tool := range tools {
		for _, f := range []string{"write", "exec", "shell", "fetch"} {
			t.Run(tool+"/"+f, func(t *testing.T) {
				before := ran.Load()
				caller := hostfns.Caller{Plugin: p.Name(), Tool: tool, Tier: tier}
				res := p.Call(context.Background(), caller, tool, json.RawMessage(fmt.Sprintf(`{"fn":%q}`, f)))
				ranNow := ran.Load() > before
				if allowed[tier][f] {
					if res.Error != nil || !ranNow {
						t.Fatalf("want the call to reach the host function, got %+v (ran %v)", res.Error, ranNow)
					}
					return
				}
				if res.Error == nil || res.Error.Code != abi.CapabilityDenied {
					t.Fatalf("want CAPABILITY_DENIED, got %+v", res)
				}
				if ranNow {
					t.Fatal("the handler ran for a refused call")
				}
				if !strings.Contains(res.Error.Message, "tier "+tier) || !strings.Contains(res.Error.Message, tool) {
					t.Errorf("the message should name the tool and its tier: %s", res.Error.Message)
				}
			})
		}
	}
	// A call with no declared tier (no caller) is held to R.
	res := p.Call(context.Background(), hostfns.Caller{}, "test_tier_x", json.RawMessage(`{"fn":"write"}`))
	if res.Error == nil || res.Error.Code != abi.CapabilityDenied {
		t.Fatalf("a call without a tier must not write: %+v", res)
	}
	if !strings.Contains(logs.String(), "capability denied by tier") {
		t.Errorf("refusals not logged:\n%s", logs.String())
	}
}

// A host function answer whose header is over abi.MaxHeader reaches the
// plugin as TOO_LARGE, not as a frame it cannot decode.
func TestOversizedAnswerIsTooLarge(t *testing.T) {
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: t.TempDir(), Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	big := hostfns.Func{Name: "juju_test_write", Capability: abi.CapFSWrite, Handle: func(context.Context, []byte, []byte) ([]byte, []byte) {
		return []byte(`{"x":"` + strings.Repeat("a", abi.MaxHeader) + `"}`), nil
	}}
	small := func(name string, c abi.Capability) hostfns.Func {
		return hostfns.Func{Name: name, Capability: c, Handle: func(context.Context, []byte, []byte) ([]byte, []byte) { return []byte(`{}`), nil }}
	}
	p := load(t, rt, "tiers", append(hostFuncs(t), big,
		small("juju_test_exec", abi.CapExec), small("juju_test_shell", abi.CapExecShell), small("juju_test_fetch", abi.CapNetFetch)))
	defer p.Close(context.Background())
	res := p.Call(context.Background(), hostfns.Caller{Plugin: p.Name(), Tool: "test_tier_e", Tier: abi.TierEdit}, "test_tier_e", json.RawMessage(`{"fn":"write"}`))
	if res.Error == nil || res.Error.Code != abi.TooLarge || !strings.Contains(res.Error.Message, "juju_test_write") {
		t.Fatalf("want TOO_LARGE naming the host function, got %+v", res.Error)
	}
}
