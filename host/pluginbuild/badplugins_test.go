package pluginbuild

import (
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

// loopTimeout is the time limit the loop plugin is given here.
const loopTimeout = 500 * time.Millisecond

// Deliberately bad plugins fail with their tool error, one at a time and
// all at once, while a healthy plugin keeps answering and the host lives on.
func TestBadPlugins(t *testing.T) {
	root := t.TempDir()
	none := []abi.Capability(nil)
	trap := load(t, "plugins/testplugins/trap", root, none, nil)
	loop := load(t, "plugins/testplugins/loop", root, none, func(m *manifest.Manifest) {
		m.Limits = &manifest.Limits{TimeoutMs: int(loopTimeout / time.Millisecond)}
	})
	oom := load(t, "plugins/testplugins/oom", root, none, nil)
	nogrant := load(t, "plugins/testplugins/nogrant", root, none, nil)
	garbage := load(t, "plugins/testplugins/garbage", root, none, nil)
	// The flood is refused within the instance's memory cap (less what its
	// memory holds already): a small one here.
	flooder := load(t, "plugins/testplugins/garbage", root, none, func(m *manifest.Manifest) {
		m.Limits = &manifest.Limits{MemoryMiB: 16}
	})
	echo := load(t, "plugins/testplugins/echo", root, none, nil)

	cases := []struct {
		name  string
		p     *loaded
		tool  string
		args  string
		codes []abi.Code
		msg   string
	}{
		{"nil dereference", trap, "test_trap", `{}`, []abi.Code{abi.PluginFailed}, "replaced the instance"},
		{"out of bounds", trap, "test_trap", `{"kind":"oob"}`, []abi.Code{abi.PluginFailed}, "replaced the instance"},
		{"panic in handler", trap, "test_trap", `{"kind":"panic"}`, []abi.Code{abi.Internal}, "a bug in the plugin"},
		{"exit", trap, "test_trap", `{"kind":"exit"}`, []abi.Code{abi.PluginFailed}, "replaced the instance"},
		{"exit 0", trap, "test_trap", `{"kind":"exit0"}`, []abi.Code{abi.PluginFailed}, "malformed result"},
		{"infinite loop", loop, "test_loop", `{}`, []abi.Code{abi.PluginFailed, abi.Timeout}, "did not finish"},
		{"out of memory", oom, "test_oom", `{}`, []abi.Code{abi.PluginFailed}, ""},
		{"no grant", nogrant, "test_nogrant", `{}`, []abi.Code{abi.CapabilityDenied}, `its manifest does not ask for "fs.read", so no grant can give it`},
		{"random bytes", garbage, "test_garbage", `{}`, []abi.Code{abi.InvalidArgument}, "not a valid frame"},
		{"short frame", garbage, "test_garbage", `{"kind":"short"}`, []abi.Code{abi.InvalidArgument}, "not a valid frame"},
		{"header not JSON", garbage, "test_garbage", `{"kind":"header"}`, []abi.Code{abi.InvalidArgument}, "could not be decoded"},
		{"unknown field", garbage, "test_garbage", `{"kind":"unknown"}`, []abi.Code{abi.InvalidArgument}, "could not be decoded"},
		{"bogus offset", garbage, "test_garbage", `{"kind":"offset"}`, []abi.Code{abi.InvalidArgument}, "not a valid memory block"},
		{"announced too long", garbage, "test_garbage", `{"kind":"announce"}`, []abi.Code{abi.InvalidArgument}, "shorter than the"},
		{"stdout flood", flooder, "test_garbage", `{"kind":"flood"}`, []abi.Code{abi.TooLarge}, "the host refused stdout after "},
	}
	check := func(t *testing.T, name string, res *abi.CallResult, codes []abi.Code, msg string) {
		t.Helper()
		if res.Error == nil {
			t.Errorf("%s: succeeded: %s", name, text(res))
			return
		}
		ok := false
		for _, c := range codes {
			ok = ok || res.Error.Code == c
		}
		if !ok || !strings.Contains(res.Error.Message, msg) {
			t.Errorf("%s: got %s, want %v with %q", name, res.Error, codes, msg)
		}
	}

	// Warm every plugin first, so that the timings below are the calls'.
	for _, c := range cases {
		if err := c.p.Warm(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	echo.ok(t, "test_echo", `{"text":"warm"}`)

	t.Run("one at a time", func(t *testing.T) {
		for _, c := range cases {
			start := time.Now()
			res := c.p.call(t, c.tool, c.args)
			check(t, c.name, res, c.codes, c.msg)
			if c.p == loop && time.Since(start) > loopTimeout+5*time.Second {
				t.Errorf("the loop was stopped after %s, limit %s", time.Since(start), loopTimeout)
			}
		}
	})

	t.Run("all at once beside a healthy plugin", func(t *testing.T) {
		var wg sync.WaitGroup
		var bad atomic.Int32
		for _, c := range cases {
			wg.Add(1)
			bad.Add(1)
			go func() {
				defer wg.Done()
				defer bad.Add(-1)
				res, msg := c.p.call(t, c.tool, c.args), c.msg
				if c.p == loop && res.Error != nil && strings.Contains(res.Error.Message, "could not start an instance within its limit") {
					// The loop's instance was stopped in the subtest
					// above; on a loaded machine a fresh one may not
					// start within the loop's short limit, and is
					// stopped all the same ("one at a time" holds the
					// loop itself to its limit).
					msg = "could not start an instance within its limit"
				}
				check(t, c.name, res, c.codes, msg)
			}()
		}
		echoes := 0
		for bad.Load() > 0 || echoes == 0 {
			got, _ := echo.ok(t, "test_echo", `{"text":"pong"}`)
			if got != "pong" {
				t.Fatalf("echo: %q", got)
			}
			echoes++
		}
		wg.Wait()
		t.Logf("%d echo calls answered while the bad plugins failed", echoes)
	})

	t.Run("a trapped plugin recovers", func(t *testing.T) {
		// More calls than the plugin keeps instances: none of those it
		// kept may be one that trapped or exited.
		for range 2 * plugin.MaxInstances {
			if got, _ := trap.ok(t, "test_trap", `{"kind":"none"}`); got != "no trap" {
				t.Fatalf("after the traps: %q", got)
			}
		}
		if !strings.Contains(trap.logs.String(), "test_trap panicked: test_trap asked to panic") {
			t.Errorf("the recovered panic was not logged: %s", trap.logs.String())
		}
	})
}

// A tool whose manifest promises structured content (an output schema) and
// that succeeds without any fails as the plugin's bug: MCP clients refuse
// such a result (the TypeScript SDK throws), which would reach the model as
// a protocol error rather than a tool's answer.
func TestResultWithoutPromisedStructuredContentFails(t *testing.T) {
	root := t.TempDir()
	trap := load(t, "plugins/testplugins/trap", root, nil, func(m *manifest.Manifest) {
		m.Tools[0].OutputSchema = json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)
	})
	res := trap.call(t, "test_trap", `{"kind":"none"}`)
	if res.Error == nil || res.Error.Code != abi.PluginFailed || !strings.Contains(res.Error.Message, "no structured content from test_trap") {
		t.Fatalf("got %+v, want PLUGIN_FAILED naming the missing structured content", res)
	}
	// Without an output schema the same answer is the tool's.
	plain := load(t, "plugins/testplugins/trap", root, nil, nil)
	if got, _ := plain.ok(t, "test_trap", `{"kind":"none"}`); got != "no trap" {
		t.Errorf("test_trap without an output schema: %q", got)
	}
}
