package plugin

import (
	"errors"
	"fmt"
	"math"
	"runtime"
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

// A plugin's error message is as long as its memory allows: the cause a
// PLUGIN_FAILED quotes costs what it keeps, not what the plugin sent. Before,
// splitting 64 MiB of "a a a …" into words allocated 832 MB and took the
// host 16 seconds.
func TestShortCauseOfAHugeMessage(t *testing.T) {
	err := errors.New(strings.Repeat("a ", 32<<20))
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	got := shortCause(1, err)
	runtime.ReadMemStats(&m1)
	if want := fmt.Sprintf("it reported an error: %q", strings.Repeat("a ", 100)+"…"); got != want {
		t.Errorf("shortCause = %s, want %s", got, want)
	}
	if grew := m1.TotalAlloc - m0.TotalAlloc; grew > 64<<10 {
		t.Errorf("shortCause of a message of 64 MiB allocated %d bytes", grew)
	}
}

// squeeze says what strings.Fields, joined by spaces and cut at n
// characters, says, as the cause was written before.
func FuzzSqueeze(f *testing.F) {
	for _, s := range []string{"", " ", "a", " a  b\\t\\nc ", strings.Repeat("é ", 150), "\xff \u2028x\u00a0y", strings.Repeat("ab", 100) + " "} {
		f.Add(s, 200)
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 0 || n > 1000 {
			return
		}
		want := []rune(strings.Join(strings.Fields(s), " "))
		if len(want) > n {
			want = append(want[:n], '…')
		}
		if got := squeeze(s, n); got != string(want) {
			t.Fatalf("squeeze(%q, %d) = %q, want %q", s, n, got, string(want))
		}
	})
}
