package sandbox

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// SeatbeltProfile generates the macOS sandbox-exec profile of p: everything
// allowed but writes, which are allowed only in the Write folders, the
// temporary folders and the terminal devices, never in the ReadOnly ones
// (each path and everything under it: sandbox-exec matches paths, so one
// that does not exist yet cannot be created either), nor on a Pinned path
// itself (a literal match: what is inside stays writable, but the path
// cannot be removed, renamed or replaced); and, unless p.Network, no
// network but local Unix sockets. sandbox-exec applies the last matching
// rule, so the order below matters.
func SeatbeltProfile(p Policy) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(allow default)\n(deny file-write*)\n(allow file-write*\n")
	for _, d := range p.Write {
		fmt.Fprintf(&b, "    (subpath %s)\n", sbplString(d))
	}
	b.WriteString("    (subpath \"/private/tmp\")\n    (subpath \"/private/var/folders\")\n")
	b.WriteString("    (literal \"/dev/null\")\n    (literal \"/dev/zero\")\n    (literal \"/dev/dtracehelper\")\n    (regex #\"^/dev/tty\"))\n")
	if len(p.ReadOnly)+len(p.Pinned) > 0 {
		b.WriteString("(deny file-write*\n")
		for _, d := range p.ReadOnly {
			fmt.Fprintf(&b, "    (subpath %s)\n", sbplString(d))
		}
		for _, d := range p.Pinned {
			fmt.Fprintf(&b, "    (literal %s)\n", sbplString(d))
		}
		b.WriteString(")\n")
	}
	if !p.Network {
		b.WriteString("(deny network*)\n(allow network* (remote unix-socket))\n")
	}
	return b.String()
}

// sbplString quotes s as an SBPL string literal.
func sbplString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

// SeatbeltProbe is the profile DetectSeatbelt runs true under.
const SeatbeltProbe = "(version 1)(allow default)(deny network*)"

// DetectSeatbelt proves macOS's sandbox-exec works by running true under
// a small profile.
func DetectSeatbelt(ctx context.Context) Availability {
	a := Availability{Name: "sandbox-exec"}
	path, err := exec.LookPath("sandbox-exec")
	if err != nil {
		a.Reason = "sandbox-exec is not on PATH"
		return a
	}
	a.Path = path
	if _, err := run(ctx, ProbeTimeout, path, "-p", SeatbeltProbe, "true"); err != nil {
		a.Reason = fmt.Sprintf("%s -p … true: %v", path, err)
		return a
	}
	a.Available = true
	return a
}
