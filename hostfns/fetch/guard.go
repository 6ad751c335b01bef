package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// guard makes every connection of the fetcher and checks, in the dialer's
// Control hook, the address each one is about to connect to: after DNS,
// for every address tried, on every redirect hop, so a name that resolves
// (or rebinds) to a private address is refused just as that address
// written in the URL is.
type guard struct {
	allow map[string]bool // canonical host:port pairs exempt from the block
	// local lists the addresses of this machine's interfaces, read at
	// every connection (interfaces come and go): a public address of the
	// machine itself reaches its services as loopback would.
	local func() []netip.Addr
	// route, when set, asks the kernel whether it routes an address to
	// this machine (localRoute: a block routed locally, "AnyIP", is on no
	// interface).
	route func(netip.Addr) (bool, error)
}

// interfaceAddrs is guard.local on a real machine.
func interfaceAddrs() []netip.Addr {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []netip.Addr
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(n.IP); ok {
				out = append(out, ip.Unmap())
			}
		}
	}
	return out
}

// canonicalHostPort writes host:port as the allow list and the dialer
// compare it: a name in lower case without a final dot, an IP address in
// its canonical form (so [0:0::1]:8443 is [::1]:8443).
func canonicalHostPort(s string) (string, error) {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return "", errors.New("must be host:port")
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("port %q must be a number from 1 to 65535", port)
	}
	if host == "" {
		return "", errors.New("the host is missing")
	}
	if a, err := netip.ParseAddr(host); err == nil {
		host = a.String()
	} else {
		host = strings.TrimSuffix(strings.ToLower(host), ".")
	}
	return net.JoinHostPort(host, strconv.Itoa(n)), nil
}

// allowed reports whether the dial target host:port (as the HTTP transport
// names it, from the URL of the hop) is one of the owner's exact pairs.
func (g *guard) allowed(hostport string) bool {
	k, err := canonicalHostPort(hostport)
	return err == nil && g.allow[k]
}

// dial is the transport's DialContext. Each connection gets a dialer whose
// Control hook checks the address the socket is about to connect to; an
// allowed pair exempts only the connections made for that exact
// host:port.
func (g *guard) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{
		Timeout:        15 * time.Second,
		KeepAlive:      30 * time.Second,
		ControlContext: g.control(g.allowed(addr)),
	}
	return d.DialContext(ctx, network, addr)
}

// control returns the Control hook of one dial. It runs after the socket is
// made and before connect(2), once for every address tried, with the
// numeric address: nothing has been sent yet when it refuses.
func (g *guard) control(allowed bool) func(ctx context.Context, network, address string, c syscall.RawConn) error {
	return func(_ context.Context, network, address string, _ syscall.RawConn) error {
		if err := checkConnect(network, address, allowed); err != nil || allowed {
			return err
		}
		return g.checkLocal(address)
	}
}

// checkConnect is the Control hook's decision: only TCP, and only to an
// address of the public internet unless the hop's host:port is allowed.
func checkConnect(network, address string, allowed bool) error {
	if network != "tcp4" && network != "tcp6" {
		return fmt.Errorf("juju fetches over TCP only, not %s", network)
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &Blocked{Range: Range{Name: "not a numeric address (" + address + ")"}}
	}
	if allowed {
		return nil
	}
	if b := Classify(ap.Addr()); b != nil {
		return b
	}
	return nil
}

// checkLocal refuses an address of one of this machine's own interfaces,
// or one the kernel routes to the machine itself. A failed route lookup
// (no route at all: the connection would fail anyway) refuses nothing.
func (g *guard) checkLocal(address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil || g.local == nil {
		return err
	}
	a := ap.Addr().WithZone("").Unmap()
	for _, l := range g.local() {
		if l == a {
			return &Blocked{Addr: a, Range: Range{Prefix: netip.PrefixFrom(a, a.BitLen()), Name: "an address of this machine's own network interfaces"}}
		}
	}
	if g.route != nil {
		if local, _ := g.route(a); local {
			return &Blocked{Addr: a, Range: Range{Prefix: netip.PrefixFrom(a, a.BitLen()), Name: "an address this machine routes to itself (a local route)"}}
		}
	}
	return nil
}
