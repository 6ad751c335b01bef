package fetch

import (
	"math/rand/v2"
	"net/netip"
	"strings"
	"testing"
)

// registry is the IANA IPv4 and IPv6 special-purpose address registries
// (https://www.iana.org/assignments/iana-ipv4-special-registry,
// iana-ipv6-special-registry), every row, written out again here rather
// than taken from ranges, plus the multicast blocks, broadcast, reserved
// space and the metadata addresses the issue names.
var registry = []string{
	// IPv4 special-purpose registry.
	"0.0.0.0/8", "0.0.0.0/32", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
	"172.16.0.0/12", "192.0.0.0/24", "192.0.0.0/29", "192.0.0.8/32", "192.0.0.9/32", "192.0.0.10/32",
	"192.0.0.170/32", "192.0.0.171/32", "192.0.2.0/24", "192.31.196.0/24", "192.52.193.0/24",
	"192.88.99.0/24", "192.168.0.0/16", "192.175.48.0/24", "198.18.0.0/15", "198.51.100.0/24",
	"203.0.113.0/24", "240.0.0.0/4", "255.255.255.255/32",
	// IPv4 multicast, and the cloud metadata address.
	"224.0.0.0/4", "169.254.169.254/32",
	// IPv6 special-purpose registry.
	"::1/128", "::/128", "::ffff:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "100:0:0:1::/64",
	"2001::/23", "2001::/32", "2001:1::1/128", "2001:1::2/128", "2001:1::3/128", "2001:2::/48",
	"2001:3::/32", "2001:4:112::/48", "2001:10::/28", "2001:20::/28", "2001:30::/28", "2001:db8::/32",
	"2002::/16", "2620:4f:8000::/48", "3fff::/20", "5f00::/16", "fc00::/7", "fe80::/10",
	// IPv4-compatible and -translated forms, site-local, multicast, AWS's
	// IPv6 metadata address.
	"::/96", "::ffff:0:0:0/96", "fec0::/10", "ff00::/8", "fd00:ec2::254/128",
}

// Every address of every registered block is refused: its first and last
// addresses and random ones inside, checked against Go's netip.
func TestEveryRegistryBlockIsRefused(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range registry {
		p := netip.MustParsePrefix(s)
		if p != p.Masked() {
			t.Fatalf("%s is not a network prefix", s)
		}
		t.Run(s, func(t *testing.T) {
			for _, a := range append([]netip.Addr{p.Addr(), lastAddr(p)}, randomIn(rng, p, 64)...) {
				if !p.Contains(a) {
					t.Fatalf("test bug: %s not in %s", a, p)
				}
				b := Classify(a)
				if b == nil {
					t.Fatalf("%s (in %s) is not refused", a, s)
				}
				if !b.Range.Prefix.Contains(a) {
					t.Fatalf("%s refused as %s (%s), which does not hold it", a, b.Range.Name, b.Range.Prefix)
				}
			}
		})
	}
}

// The blocks' neighbours outside every block are public, so the table has
// no off-by-one at its edges, and well-known public addresses pass.
func TestPublicAddressesPass(t *testing.T) {
	for _, s := range []string{
		"1.1.1.1", "8.8.8.8", "9.9.9.9", "93.184.215.14", "140.82.112.3", "151.101.1.69", "223.255.255.255",
		"100.63.255.255", "100.128.0.0", "172.15.255.255", "172.32.0.0", "192.167.255.255", "192.169.0.0",
		"198.17.255.255", "198.20.0.0", "11.0.0.0", "126.255.255.255", "128.0.0.0", "169.253.255.255", "169.255.0.0",
		"2606:4700:4700::1111", "2001:4860:4860::8888", "2a00:1450:4001:80e::200e", "2001:200::1", "2003::1",
		"2620:4f:7fff:ffff::1", "2620:4f:8001::1", "3ffe:ffff::1", "3fff:1000::1", "2400:cb00::1",
	} {
		a := netip.MustParseAddr(s)
		if b := Classify(a); b != nil {
			t.Errorf("%s refused as %s (%s)", s, b.Range.Name, b.Range.Prefix)
		}
	}
	for _, r := range Ranges() {
		for _, n := range []netip.Addr{r.Prefix.Addr().Prev(), lastAddr(r.Prefix).Next()} {
			if !n.IsValid() || inRegistry(n) || n.Is6() && !globalUnicast.Contains(n) {
				continue
			}
			if b := Classify(n); b != nil {
				t.Errorf("%s, just outside %s, refused as %s (%s)", n, r.Prefix, b.Range.Name, b.Range.Prefix)
			}
		}
	}
}

// Whatever Go's netip calls loopback, private, link-local, multicast,
// unspecified or not global unicast is refused, over the blocks' edges
// and 600,000 random addresses.
func TestAgreesWithNetip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(a netip.Addr) {
		special := a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
			a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() || !a.IsGlobalUnicast() || a.Is4In6()
		if special && Classify(a) == nil {
			t.Errorf("netip says %s is special, Classify lets it pass", a)
		}
		if inRegistry(a) && Classify(a) == nil {
			t.Errorf("%s is in the registry, Classify lets it pass", a)
		}
		if !inRegistry(a) && Classify(a) != nil && (a.Is4() || globalUnicast.Contains(a)) {
			t.Errorf("%s is in no registered block, Classify refuses it: %v", a, Classify(a))
		}
	}
	for _, r := range Ranges() {
		check(r.Prefix.Addr())
		check(lastAddr(r.Prefix))
	}
	for range 200_000 {
		var b4 [4]byte
		var b16 [16]byte
		for i := range b4 {
			b4[i] = byte(rng.Uint32())
		}
		for i := range b16 {
			b16[i] = byte(rng.Uint32())
		}
		check(netip.AddrFrom4(b4))
		check(netip.AddrFrom16(b16))
		b16[0] = 0x20 | b16[0]&0x1f // inside 2000::/3, where the blocks are
		check(netip.AddrFrom16(b16))
	}
}

// The translation forms say which IPv4 address they carry.
func TestEmbeddedIPv4IsNamed(t *testing.T) {
	for addr, want := range map[string]string{
		"::ffff:169.254.169.254":               "169.254.169.254 (cloud metadata",
		"64:ff9b::a9fe:a9fe":                   "169.254.169.254 (cloud metadata",
		"64:ff9b::808:808":                     "it carries 8.8.8.8 (public)",
		"2002:a00:1::1":                        "10.0.0.1 (private",
		"2001:0:4136:e378:8000:63bf:f5ff:fffe": "65.54.227.120 (public) and 10.0.0.1 (private", // client 10.0.0.1 inverted
		"2001:0:7f00:1:8000:63bf:3fff:fdd2":    "127.0.0.1 (loopback",
		"::a9fe:a9fe":                          "169.254.169.254",
		"::ffff:0:7f00:1":                      "127.0.0.1 (loopback",
		"fe80::1%eth0":                         "link-local",
		"fd00:ec2::254":                        "cloud metadata service (AWS IPv6",
		"169.254.169.254":                      "cloud metadata service (link-local), 169.254.169.254/32",
		"100.100.100.200":                      "carrier-grade NAT",
	} {
		a, err := netip.ParseAddr(addr)
		if err != nil {
			continue
		}
		b := Classify(a)
		if b == nil {
			t.Errorf("%s passes", addr)
			continue
		}
		if got := b.Class(); !strings.Contains(got, want) {
			t.Errorf("%s: class %q, want it to say %q", addr, got, want)
		}
	}
}

var registryPrefixes = func() (ps []netip.Prefix) {
	for _, s := range registry {
		ps = append(ps, netip.MustParsePrefix(s))
	}
	return ps
}()

// inRegistry reports whether a lies in a block of the test's registry.
func inRegistry(a netip.Addr) bool {
	for _, p := range registryPrefixes {
		if p.Contains(a.WithZone("")) {
			return true
		}
	}
	return false
}

// lastAddr is the last address of p.
func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

// randomIn returns n random addresses of p.
func randomIn(rng *rand.Rand, p netip.Prefix, n int) []netip.Addr {
	var out []netip.Addr
	for range n {
		b := p.Addr().AsSlice()
		for i := p.Bits(); i < len(b)*8; i++ {
			if rng.IntN(2) == 1 {
				b[i/8] |= 0x80 >> (i % 8)
			}
		}
		a, _ := netip.AddrFromSlice(b)
		out = append(out, a)
	}
	return out
}
