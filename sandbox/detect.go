package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/jujutools/juju/internal/proc"
)

// Availability is what detection proved about one confinement mechanism.
type Availability struct {
	Name      string `json:"name"` // "bubblewrap", "landlock"
	Available bool   `json:"available"`
	Path      string `json:"path,omitempty"`    // the program that was proven
	Version   string `json:"version,omitempty"` // bubblewrap's version; Landlock's ABI number
	Reason    string `json:"reason,omitempty"`  // why it is unavailable, in the words of the failure
	// UserNS (bubblewrap only) says bwrap also proved it can give the
	// command a user namespace of its own (BubblewrapUserNSProbe).
	UserNS bool `json:"userNamespace,omitempty"`
}

// ProbeTimeout bounds each probe.
const ProbeTimeout = 5 * time.Second

// BubblewrapProbe is the sandbox DetectBubblewrap has bwrap build: the root
// read-only, a fresh /dev, no network, and every flag of Confinement (the
// PID, IPC and UTS namespaces, no capabilities, a new session, the child
// killed with its parent), running true. It needs the namespaces juju's
// command sandbox needs.
var BubblewrapProbe = slices.Concat([]string{"--ro-bind", "/", "/", "--dev", "/dev", "--unshare-net"}, Confinement, []string{"true"})

// BubblewrapUserNSProbe is BubblewrapProbe in a user namespace as well.
// bwrap run by an ordinary user makes one anyway (or, installed setuid,
// drops the capability bounding set itself); run by root it does not
// unless asked, and root's bounding set then stays full in the sandbox.
var BubblewrapUserNSProbe = slices.Concat([]string{"--unshare-user"}, BubblewrapProbe)

// DetectBubblewrap proves bubblewrap works here: it finds bwrap on PATH and
// runs BubblewrapProbe with it, which must exit 0, then
// BubblewrapUserNSProbe, which sets UserNS when it exits 0.
func DetectBubblewrap(ctx context.Context) Availability {
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return Availability{Name: "bubblewrap", Reason: "bwrap is not on PATH (install the bubblewrap package)"}
	}
	return probeBubblewrap(ctx, path, ProbeTimeout)
}

func probeBubblewrap(ctx context.Context, path string, timeout time.Duration) Availability {
	a := Availability{Name: "bubblewrap", Path: path}
	_, err := run(ctx, timeout, path, BubblewrapProbe...)
	if err != nil {
		a.Reason = fmt.Sprintf("%s %s: %v", path, strings.Join(BubblewrapProbe, " "), err)
		return a
	}
	a.Available = true
	if v, err := run(ctx, timeout, path, "--version"); err == nil {
		a.Version = versionIn(v)
	}
	_, err = run(ctx, timeout, path, BubblewrapUserNSProbe...)
	a.UserNS = err == nil
	return a
}

// DetectProgram proves a program the tools rely on (git, rg) runs here: it
// finds name on PATH and runs it with versionArgs, which must exit 0, and
// reads the version from the first line of its output.
func DetectProgram(ctx context.Context, name string, versionArgs ...string) Availability {
	a := Availability{Name: name}
	path, err := exec.LookPath(name)
	if err != nil {
		a.Reason = name + " is not on PATH"
		return a
	}
	a.Path = path
	out, err := run(ctx, ProbeTimeout, path, versionArgs...)
	if err != nil {
		a.Reason = fmt.Sprintf("%s %s: %v", path, strings.Join(versionArgs, " "), err)
		return a
	}
	a.Available = true
	a.Version = versionIn(out)
	return a
}

// versionIn finds the version in a program's --version output: the first
// word of its first line that starts with a digit ("git version 2.39.5",
// "ripgrep 14.1.0 (rev …)", "bubblewrap 0.8.0"), else the whole line.
func versionIn(out string) string {
	line := firstLine(out)
	for _, w := range strings.Fields(line) {
		if w[0] >= '0' && w[0] <= '9' {
			return w
		}
	}
	return line
}

// DetectLandlock reports Landlock as an Availability, its Version the
// ABI number.
func DetectLandlock() Availability {
	a := Availability{Name: "landlock"}
	abi, err := LandlockABI()
	if err != nil {
		a.Reason = err.Error()
		return a
	}
	a.Available = true
	a.Version = fmt.Sprint(abi)
	return a
}

// ErrLandlockUnavailable wraps every reason LandlockABI gives.
var ErrLandlockUnavailable = errors.New("landlock unavailable")

// run runs a program with an empty stdin and returns its combined output.
// A failure carries the program's own words.
func run(ctx context.Context, timeout time.Duration, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := proc.Command(ctx, "", os.Environ(), append([]string{name}, args...)...)
	out, err := cmd.CombinedOutput()
	if ctx.Err() == context.DeadlineExceeded {
		return string(out), fmt.Errorf("no answer within %v", timeout)
	}
	if err != nil {
		if msg := strings.TrimSpace(string(out)); msg != "" {
			return string(out), fmt.Errorf("%v: %s", err, clip(msg, 500))
		}
		return string(out), err
	}
	return string(out), nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(line)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
