package fetch

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
)

// The kernel says loopback and the machine's own addresses are routed to
// the machine (a block routed locally, "AnyIP", is too: the namespace test
// in test/ proves that one); a public address is not. The connect hook
// refuses what the kernel routes locally even when no interface lists it.
func TestLocalRoute(t *testing.T) {
	for _, s := range []string{"127.0.0.1", "127.8.9.10", "::1"} {
		local, err := localRoute(netip.MustParseAddr(s))
		if strings.Contains(s, ":") && err != nil {
			continue // no IPv6 here
		}
		if err != nil || !local {
			t.Errorf("%s: local %v, %v", s, local, err)
		}
	}
	for _, a := range interfaceAddrs() {
		if a.Is4() {
			if local, err := localRoute(a); err != nil || !local {
				t.Errorf("interface address %s: local %v, %v", a, local, err)
			}
		}
	}
	if local, _ := localRoute(netip.MustParseAddr("8.8.8.8")); local {
		t.Error("8.8.8.8 is routed locally")
	}
	g := &guard{local: func() []netip.Addr { return nil }, route: func(a netip.Addr) (bool, error) { return a == netip.MustParseAddr("9.9.9.9"), nil }}
	var b *Blocked
	if err := g.control(false)(context.Background(), "tcp4", "9.9.9.9:443", nil); !errors.As(err, &b) || !strings.Contains(b.Error(), "local route") {
		t.Errorf("a locally routed address: %v", err)
	}
	if err := g.control(false)(context.Background(), "tcp4", "9.9.9.8:443", nil); err != nil {
		t.Errorf("another address: %v", err)
	}
}
