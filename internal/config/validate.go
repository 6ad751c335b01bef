package config

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"regexp"
	"strconv"
	"sync"

	"github.com/jujutools/juju/sandbox"

	"github.com/bmatcuk/doublestar/v4"
)

// validate checks every value the file sets; lines maps dotted keys to the
// line they are on.
func (f *File) validate(path string, lines map[string]int) error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, &FileError{File: path, Line: lines[key], Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	if f.Mode != nil && !f.Mode.Valid() {
		bad("mode", "%q must be one of %s", *f.Mode, list(Modes))
	}
	if f.Sandbox != nil && !f.Sandbox.Valid() {
		bad("sandbox", "%q must be one of %s", *f.Sandbox, sandbox.ModeList())
	}
	for _, g := range f.Policy.Deny {
		if err := checkGlob(g); err != nil {
			bad("policy.deny", "%q: %v", g, err)
		}
	}
	for _, g := range f.Policy.Secrets {
		if err := checkGlob(g); err != nil {
			bad("policy.secrets", "%q: %v", g, err)
		}
	}
	for _, a := range f.Fetch.Allow {
		if err := CheckHostPort(a); err != nil {
			bad("fetch.allow", "%q: %v", a, err)
		}
	}
	// Bounded above too: milliseconds past 292 years overflow the
	// duration they become, to a negative one or to a fraction of a
	// millisecond, which backgrounded every command at once.
	if ms := f.Exec.BackgroundAfterMs; ms != nil && (*ms <= 0 || *ms > maxIdleMs) {
		bad("exec.backgroundAfterMs", "%d must be a positive number of milliseconds, at most %d (a day)", *ms, maxIdleMs)
	}
	if ms := f.Approvals.TimeoutMs; ms != nil && (*ms <= 0 || *ms > maxIdleMs) {
		bad("approvals.timeoutMs", "%d must be a positive number of milliseconds, at most %d (a day)", *ms, maxIdleMs)
	}
	if ms := f.Plugins.UnloadAfterMs; ms != nil && (*ms < 0 || *ms > maxIdleMs) {
		bad("plugins.unloadAfterMs", "%d must be a number of milliseconds from 0 (never unload) to %d (a day)", *ms, maxIdleMs)
	}
	if ms := f.Exec.StandbyIdleMs; ms != nil && (*ms < 0 || *ms > maxIdleMs) {
		bad("exec.standbyIdleMs", "%d must be a number of milliseconds from 0 (keep it) to %d (a day)", *ms, maxIdleMs)
	}
	if n := f.Journal.MaxAgeDays; n != nil && (*n < 0 || *n > maxJournalDays) {
		bad("journal.maxAgeDays", "%d must be a number of days from 0 (no age limit) to %d", *n, maxJournalDays)
	}
	if n := f.Journal.MaxSizeMiB; n != nil && (*n < 0 || *n > maxJournalMiB) {
		bad("journal.maxSizeMiB", "%d must be a number of MiB from 0 (no size limit) to %d", *n, maxJournalMiB)
	}
	return errors.Join(errs...)
}

// The largest journal limits a config file may set (about 100 years, 1 PiB).
const (
	maxJournalDays = 36500
	maxJournalMiB  = 1 << 30
)

// The longest plugins.unloadAfterMs, exec.standbyIdleMs,
// exec.backgroundAfterMs and approvals.timeoutMs: a day.
const maxIdleMs = 24 * 60 * 60 * 1000

func checkGlob(g string) error {
	if g == "" {
		return errors.New("an empty glob matches nothing")
	}
	if !doublestar.ValidatePattern(g) {
		return errors.New("not a valid glob (unclosed [ or {, or a trailing backslash)")
	}
	return nil
}

// hostnameRE matches a DNS name: dot-separated labels of letters, digits and
// inner hyphens. It is compiled on first use, not at every start.
var hostnameRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?i:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.(?i:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?))*$`)
})

// CheckHostPort checks an exact host:port pair as fetch.allow holds them:
// a DNS name or an IP address (IPv6 in brackets) and a port from 1 to 65535.
func CheckHostPort(s string) error {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return errors.New("must be host:port, as in 127.0.0.1:8443 or [::1]:8443")
	}
	if host == "" {
		return errors.New("the host is missing")
	}
	if _, err := netip.ParseAddr(host); err != nil && !hostnameRE().MatchString(host) {
		return fmt.Errorf("%q is neither an IP address nor a host name", host)
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 || port != strconv.Itoa(n) {
		return fmt.Errorf("port %q must be a number from 1 to 65535", port)
	}
	return nil
}
