package fetch

import (
	"cmp"
	"fmt"
	"net/netip"
	"slices"
)

// Range is one block of addresses juju never connects to: an entry of the
// IANA IPv4 or IPv6 special-purpose address registry, or a block of the
// multicast registries, reserved space or broadcast.
type Range struct {
	Prefix netip.Prefix
	// Name is the block's class as the model and the owner read it.
	Name string
	// Ref is where the block is defined (an RFC).
	Ref string
	// embeds returns the IPv4 addresses an address of the block carries
	// (IPv4-mapped, NAT64, 6to4, Teredo …); nil for the other blocks.
	embeds func(netip.Addr) []netip.Addr
}

// The special-purpose blocks. Every address in them is refused, including
// the few the registries mark globally reachable (AS112, AMT, the NAT64
// well-known prefix, 6to4, Teredo): no documentation page lives there, and
// the translation forms lead to an IPv4 address chosen by whoever wrote the
// URL. The most specific block names an address (169.254.169.254 is "cloud
// metadata", not merely link-local).
var ranges = sortRanges([]Range{
	// IPv4 special-purpose registry (RFC 6890 and its updates).
	v4("0.0.0.0/8", `"this network" (connects to this machine)`, "RFC 791"),
	v4("10.0.0.0/8", "private network", "RFC 1918"),
	v4("100.64.0.0/10", "shared address space (carrier-grade NAT)", "RFC 6598"),
	v4("127.0.0.0/8", "loopback (this machine)", "RFC 1122"),
	v4("169.254.0.0/16", "link-local", "RFC 3927"),
	v4("169.254.169.254/32", "cloud metadata service (link-local)", "RFC 3927"),
	v4("172.16.0.0/12", "private network", "RFC 1918"),
	v4("192.0.0.0/24", "IETF protocol assignments", "RFC 6890"),
	v4("192.0.0.170/31", "NAT64 discovery", "RFC 8880"),
	v4("192.0.2.0/24", "documentation (TEST-NET-1)", "RFC 5737"),
	v4("192.31.196.0/24", "AS112 DNS service", "RFC 7535"),
	v4("192.52.193.0/24", "automatic multicast tunneling", "RFC 7450"),
	v4("192.88.99.0/24", "6to4 relay anycast (deprecated)", "RFC 7526"),
	v4("192.168.0.0/16", "private network", "RFC 1918"),
	v4("192.175.48.0/24", "AS112 direct delegation", "RFC 7534"),
	v4("198.18.0.0/15", "benchmarking", "RFC 2544"),
	v4("198.51.100.0/24", "documentation (TEST-NET-2)", "RFC 5737"),
	v4("203.0.113.0/24", "documentation (TEST-NET-3)", "RFC 5737"),
	v4("224.0.0.0/4", "multicast", "RFC 5771"),
	v4("240.0.0.0/4", "reserved", "RFC 1112"),
	v4("255.255.255.255/32", "limited broadcast", "RFC 919"),

	// IPv6 special-purpose registry (RFC 6890 and its updates), and the
	// blocks outside global unicast that matter most by name.
	v6("::/128", "unspecified address (connects to this machine)", "RFC 4291"),
	v6("::1/128", "loopback (this machine)", "RFC 4291"),
	embed(v6("::/96", "IPv4-compatible IPv6 (deprecated)", "RFC 4291"), last32),
	embed(v6("::ffff:0:0/96", "IPv4-mapped IPv6", "RFC 4291"), last32),
	embed(v6("::ffff:0:0:0/96", "IPv4-translated IPv6 (SIIT)", "RFC 2765"), last32),
	embed(v6("64:ff9b::/96", "NAT64 well-known prefix", "RFC 6052"), last32),
	v6("64:ff9b:1::/48", "NAT64 local-use prefix", "RFC 8215"),
	v6("100::/64", "discard-only", "RFC 6666"),
	v6("100:0:0:1::/64", "dummy prefix", "RFC 9780"),
	v6("2001::/23", "IETF protocol assignments", "RFC 2928"),
	embed(v6("2001::/32", "Teredo", "RFC 4380"), teredo),
	v6("2001:db8::/32", "documentation", "RFC 3849"),
	embed(v6("2002::/16", "6to4", "RFC 3056"), sixToFour),
	v6("2620:4f:8000::/48", "AS112 direct delegation", "RFC 7534"),
	v6("3fff::/20", "documentation", "RFC 9637"),
	v6("5f00::/16", "segment routing (SRv6) SIDs", "RFC 9602"),
	v6("fc00::/7", "unique local (private network)", "RFC 4193"),
	v6("fd00:ec2::254/128", "cloud metadata service (AWS IPv6, unique local)", "RFC 4193"),
	v6("fe80::/10", "link-local", "RFC 4291"),
	v6("fec0::/10", "site-local (deprecated)", "RFC 3879"),
	v6("ff00::/8", "multicast", "RFC 4291"),
})

// notGlobal names IPv6 addresses outside 2000::/3, the only block IANA
// allocates for global unicast.
var notGlobal = Range{Prefix: netip.MustParsePrefix("::/0"), Name: "outside IPv6 global unicast (2000::/3)", Ref: "RFC 4291"}

var globalUnicast = netip.MustParsePrefix("2000::/3")

func v4(p, name, ref string) Range {
	r := Range{Prefix: netip.MustParsePrefix(p), Name: name, Ref: ref}
	if !r.Prefix.Addr().Is4() {
		panic("fetch: " + p + " is not an IPv4 prefix")
	}
	return r
}

func v6(p, name, ref string) Range {
	r := Range{Prefix: netip.MustParsePrefix(p), Name: name, Ref: ref}
	if !r.Prefix.Addr().Is6() {
		panic("fetch: " + p + " is not an IPv6 prefix")
	}
	return r
}

func embed(r Range, f func(netip.Addr) []netip.Addr) Range {
	r.embeds = f
	return r
}

// sortRanges orders the blocks most specific first, so the first match is
// the narrowest block holding an address.
func sortRanges(rs []Range) []Range {
	slices.SortStableFunc(rs, func(a, b Range) int { return cmp.Compare(b.Prefix.Bits(), a.Prefix.Bits()) })
	return rs
}

// Ranges returns every special-purpose block, most specific first.
func Ranges() []Range { return slices.Clone(ranges) }

// Blocked says why an address is refused.
type Blocked struct {
	Addr  netip.Addr
	Range Range
	// Embedded are the IPv4 addresses the address carries (IPv4-mapped,
	// NAT64, 6to4, Teredo), for the message.
	Embedded []netip.Addr
}

// Class describes the block in words: "cloud metadata service
// (link-local), 169.254.169.254/32".
func (b *Blocked) Class() string {
	s := fmt.Sprintf("%s, %s", b.Range.Name, b.Range.Prefix)
	for i, e := range b.Embedded {
		sep := " and "
		if i == 0 {
			sep = "; it carries "
		}
		class := "public"
		if inner := Classify(e); inner != nil {
			class = inner.Range.Name
		}
		s += fmt.Sprintf("%s%s (%s)", sep, e, class)
	}
	return s
}

func (b *Blocked) Error() string {
	return fmt.Sprintf("%s is a special-purpose address (%s)", b.Addr, b.Class())
}

// Classify returns why juju refuses to connect to a, or nil for an address
// of the public internet. An address with a zone is link-scoped and always
// refused. IPv4-mapped IPv6 addresses are refused as such (a connection
// made to one by the operating system is an IPv4 connection, which is
// checked as IPv4 when it is made).
func Classify(a netip.Addr) *Blocked {
	if !a.IsValid() {
		return &Blocked{Addr: a, Range: Range{Name: "not an IP address"}}
	}
	for _, r := range ranges {
		if r.Prefix.Contains(a.WithZone("")) {
			b := &Blocked{Addr: a, Range: r}
			if r.embeds != nil {
				b.Embedded = r.embeds(a)
			}
			return b
		}
	}
	if a.Is6() && !globalUnicast.Contains(a.WithZone("")) {
		return &Blocked{Addr: a, Range: notGlobal}
	}
	if a.Zone() != "" {
		return &Blocked{Addr: a, Range: Range{Prefix: netip.PrefixFrom(a.WithZone(""), 128), Name: "scoped to one interface (" + a.Zone() + ")"}}
	}
	return nil
}

// last32 is the IPv4 address in the low 32 bits (IPv4-mapped, -compatible,
// -translated, NAT64 /96).
func last32(a netip.Addr) []netip.Addr {
	b := a.As16()
	return []netip.Addr{netip.AddrFrom4([4]byte(b[12:16]))}
}

// sixToFour is the IPv4 address in bits 16 to 47 of a 6to4 address.
func sixToFour(a netip.Addr) []netip.Addr {
	b := a.As16()
	return []netip.Addr{netip.AddrFrom4([4]byte(b[2:6]))}
}

// teredo is a Teredo address's server (bits 32 to 63) and client (the low
// 32 bits, inverted).
func teredo(a netip.Addr) []netip.Addr {
	b := a.As16()
	var c [4]byte
	for i := range c {
		c[i] = ^b[12+i]
	}
	return []netip.Addr{netip.AddrFrom4([4]byte(b[4:8])), netip.AddrFrom4(c)}
}
