// Package fetch provides the juju_fetch host function (capability
// net.fetch; the runtime serves it to exec-tier tools only): the host
// fetches an https URL for a plugin, which never opens a socket, and
// returns the page as Markdown, as text or as sent.
//
// What it guarantees, and how:
//
//   - Off unless the owner enables it (Options.Enabled, from allowWebFetch
//     or --allow-web-fetch): otherwise FETCH_DISABLED, before the URL is
//     even parsed, and nothing is contacted.
//   - https only, on the first URL and on every redirect hop (at most
//     MaxRedirects); no credentials in URLs.
//   - The address check happens at connect time: every connection is made
//     by a net.Dialer whose Control hook sees the numeric address the
//     socket is about to connect to, after name resolution, for every
//     address tried and every hop, and refuses the special-purpose blocks
//     of the IANA registries (Ranges: loopback, private, link-local and
//     cloud metadata, carrier-grade NAT, multicast, broadcast, reserved,
//     unique local, IPv4-mapped and -compatible, NAT64, 6to4, Teredo …,
//     and every IPv6 address outside 2000::/3), and the addresses of this
//     machine's own interfaces, and on Linux every address the kernel
//     routes to the machine itself (a local route, AnyIP included): a
//     public address of the machine reaches its services as loopback
//     would. So DNS rebinding, a
//     redirect, or an address written in decimal, octal or short form
//     (which only the resolver could turn into an address) reach the same
//     check; SSRF_BLOCKED names the class, and nothing was sent.
//   - The owner's fetch.allow pairs exempt connections made for that exact
//     host:port (as the URL of the hop writes it); nothing else does, and a
//     redirect from an allowed host elsewhere is checked as any hop.
//   - No proxy: HTTPS_PROXY, ALL_PROXY and the like are ignored, as a
//     proxy would connect on juju's behalf past the check.
//   - Certificates are verified against the system's roots (SSL_CERT_FILE
//     honoured); a connection that fails verification yields no content.
//   - Caps: the body is read up to maxBytes counted after decompression (a
//     gzip bomb stops there), the whole fetch runs under a time cap (a
//     server that hangs is TIMEOUT, one that drips is cut with the cut
//     said), response headers are bounded (MaxHeaderBytes).
//
// HTML becomes Markdown with html-to-markdown v2 (ToMarkdown) on the host:
// the same conversion inside a wasm plugin ran about 25 times slower
// (docs/RATIONALE.md). The DOM is built for at most the page's first
// maxDOMBytes and an estimated maxNodes (budget.go), and the page is
// bounded before the converter sees it (prune.go: nesting, list numbers,
// table spans and cells, and the Markdown's estimated size); the
// conversion runs within the call's time cap, in at most convertSlots
// goroutines, abandoned ones included, each stopping soon after its
// context ends. The text format strips the tags (StripTags); other
// text is returned as text, decoded to UTF-8; binary content is described
// by the tool, never dumped.
package fetch
