package plugin

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/manifest"
)

// TestManifestLimitsAreCapped holds the manifest's limits to SECURITY.md:
// a plugin may ask for up to 10 minutes a call, MaxMemoryMiB and
// MaxInstances, whatever it writes, a number large enough to overflow
// included.
func TestManifestLimitsAreCapped(t *testing.T) {
	r, err := NewRuntime(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(t.Context())
	for _, c := range []struct {
		asked   manifest.Limits
		timeout time.Duration
		mem     int
		inst    int
	}{
		{manifest.Limits{TimeoutMs: 5000, MemoryMiB: 64, Instances: 2}, 5 * time.Second, 64, 2},
		{manifest.Limits{TimeoutMs: 20 * 60 * 1000, MemoryMiB: 1 << 30, Instances: 1 << 20}, MaxTimeout, MaxMemoryMiB, MaxInstances},
		{manifest.Limits{TimeoutMs: math.MaxInt, MemoryMiB: math.MaxInt, Instances: math.MaxInt}, MaxTimeout, MaxMemoryMiB, MaxInstances},
		{manifest.Limits{TimeoutMs: 9_300_000_000_000}, MaxTimeout, r.opts.MemoryMiB, r.opts.Instances},
	} {
		p := r.Load(&manifest.Manifest{Name: "limits", Limits: &c.asked}, nil, nil, nil)
		if p.timeout != c.timeout || p.memMiB != c.mem || cap(p.tokens) != c.inst {
			t.Errorf("limits %+v: timeout %v, memory %d MiB, %d instances; want %v, %d, %d", c.asked, p.timeout, p.memMiB, cap(p.tokens), c.timeout, c.mem, c.inst)
		}
	}
}

// TestShortCauseHasNoStackTrace: an error of the plugin's reaches the
// model without the wasm stack trace wazero appends when a host function
// (Extism's var_set, say) panics.
func TestShortCauseHasNoStackTrace(t *testing.T) {
	err := errors.New("Variable store is full (recovered by wazero)\nwasm stack trace:\n\textism:host/env.var_set(i64,i64)\n\t.$2448(i32)")
	got := shortCause(0, err)
	if strings.Contains(got, "stack") || strings.Contains(got, "$2448") || !strings.Contains(got, "Variable store is full") {
		t.Fatalf("shortCause = %s", got)
	}
}
