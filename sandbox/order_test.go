package sandbox

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestOrderRoundTrip(t *testing.T) {
	for _, o := range []order{
		{Path: "/usr/bin/bwrap", Dir: "/w", Args: []string{"bwrap", "--", "sh", "-c", "echo 'a b'"}, Env: []string{"A=1", "B="}},
		{Path: "/bin/true", Args: []string{"true"}, Env: []string{}},
		{Path: "/x", Dir: "", Args: []string{""}, Env: []string{"É=ü", strings.Repeat("x", 70<<10)}},
	} {
		b := o.encode()
		got, err := decodeOrder(b[4:])
		if err != nil {
			t.Fatalf("%q: %v", o.Args, err)
		}
		if len(o.Env) == 0 {
			o.Env = []string{}
		}
		if !reflect.DeepEqual(got, o) {
			t.Errorf("round trip: got %+v, want %+v", got, o)
		}
	}
}

// A malformed order is refused whole: cut short, with bytes after it,
// counts past its end, a NUL in a string, a relative program or no
// arguments at all.
func TestDecodeOrderRefuses(t *testing.T) {
	good := order{Path: "/bin/sh", Dir: "/", Args: []string{"sh", "-c", "true"}, Env: []string{"A=1"}}.encode()[4:]
	bad := map[string][]byte{
		"empty":       nil,
		"cut short":   good[:len(good)-1],
		"extra byte":  append(append([]byte(nil), good...), 0),
		"huge count":  order{Path: "/bin/sh", Args: []string{"sh"}}.encode()[4:][:4+7+4+0],
		"nul":         order{Path: "/bin/sh", Args: []string{"sh", "a\x00b"}}.encode()[4:],
		"relative":    order{Path: "sh", Args: []string{"sh"}}.encode()[4:],
		"no argument": order{Path: "/bin/sh"}.encode()[4:],
	}
	bad["huge count"] = append(bad["huge count"], 0xff, 0xff, 0xff, 0xff)
	for name, b := range bad {
		if _, err := decodeOrder(b); !errors.Is(err, errBadOrder) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// FuzzDecodeOrder: whatever bytes arrive, decoding never panics, and what
// it accepts encodes back to the same bytes.
func FuzzDecodeOrder(f *testing.F) {
	f.Add(order{Path: "/usr/bin/bwrap", Dir: "/w", Args: []string{"bwrap", "x"}, Env: []string{"A=1"}}.encode()[4:])
	f.Add([]byte{1, 0, 0, 0, '/'})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		o, err := decodeOrder(b)
		if err != nil {
			return
		}
		if again := o.encode()[4:]; string(again) != string(b) {
			t.Fatalf("accepted %x, which encodes back as %x", b, again)
		}
	})
}
