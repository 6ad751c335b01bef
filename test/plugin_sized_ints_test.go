package test

import (
	"math"
	"strings"
	"testing"
)

// An SDK plugin whose arguments are Go's sized numbers (uint8, int16,
// float32 …): the schema bounds each by what its type holds, so juju's own
// check answers a number one past it, naming the bound, before the plugin
// runs. Bounded only by ±2^53-1, 256 for a uint8 passed the schema and then
// failed the SDK's decoding, whose message called 256 not an integer.
func TestPluginSizedNumbersBoundedBySchema(t *testing.T) {
	home := newHome(t)
	cliOK(t, home, "plugins", "install", pluginCopy(t, "ints"), "--yes")
	s := startHome(t, home, workspace(t, nil))

	// Every type's own bounds are taken.
	got := s.ok("test_ints", map[string]any{
		"u8": 255, "i8": -128, "i16": 32767, "u32": uint64(math.MaxUint32), "i32": math.MinInt32, "f32": math.MaxFloat32,
	})
	if want := "u8=255 i8=-128 i16=32767 u32=4294967295 i32=-2147483648 f32=3.4028235e+38"; got != want {
		t.Fatalf("test_ints at its bounds = %q, want %q", got, want)
	}
	// One past them is juju's INVALID_ARGUMENT, naming the bound.
	for _, c := range []struct {
		arg  string
		val  any
		want string
	}{
		{"u8", 256, `the argument "u8" must be at most 255 (got 256)`},
		{"u8", -1, `the argument "u8" must be at least 0 (got -1)`},
		{"i8", 128, `the argument "i8" must be at most 127 (got 128)`},
		{"i8", -129, `the argument "i8" must be at least -128 (got -129)`},
		{"i16", 32768, `the argument "i16" must be at most 32767`},
		{"u32", uint64(math.MaxUint32) + 1, `the argument "u32" must be at most 4294967295`},
		{"i32", int64(math.MinInt32) - 1, `the argument "i32" must be at least -2147483648`},
		{"f32", 1e39, `the argument "f32" must be at most 3.4028234663852886e+38 (got 1e+39)`},
	} {
		msg := s.fail("test_ints", map[string]any{c.arg: c.val}, "INVALID_ARGUMENT")
		if !strings.Contains(msg, "do not fit the input schema of test_ints") || !strings.Contains(msg, c.want) {
			t.Errorf("test_ints %s=%v: %q, want juju's schema check saying %q", c.arg, c.val, msg, c.want)
		}
	}
}
