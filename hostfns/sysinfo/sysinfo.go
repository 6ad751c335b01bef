package sysinfo

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sandbox"
	"github.com/jujutools/juju/sdk/abi"
)

// Setup is what the host tells the function about juju itself.
type Setup struct {
	Version  string
	Mode     string
	Roots    []string
	Sandbox  string
	Deny     []string
	Secrets  []string // every secret glob: the built-in list and the owner's
	WebFetch bool
	// Writable are the roots by their paths and their real paths: what a
	// confined command may write, so what the probes may not trust.
	Writable []string
}

type server struct {
	setup Setup
	once  sync.Once
	res   *abi.EnvironmentResult
}

// New returns the environment host function.
func New(s Setup) []hostfns.Func {
	srv := &server{setup: s}
	return []hostfns.Func{
		{Name: abi.FnEnvironment, Handle: hostfns.Typed(srv.environment)},
	}
}

func (s *server) environment(ctx context.Context, _ *abi.EnvironmentRequest, _ []byte) (*abi.EnvironmentResult, []byte, *abi.Error) {
	s.once.Do(func() { s.res = s.gather(context.WithoutCancel(ctx)) })
	return s.res, nil, nil
}

// gather computes the answer once.
func (s *server) gather(ctx context.Context) *abi.EnvironmentResult {
	res := &abi.EnvironmentResult{
		OS:     runtime.GOOS,
		Arch:   runtime.GOARCH,
		Kernel: sandbox.KernelRelease(),
		Distro: distro(),
		CPUs:   runtime.NumCPU(),
		Shells: shells(),
	}
	if sh := os.Getenv("SHELL"); sh != "" {
		res.Shell = filepath.Base(sh)
	}
	var wg sync.WaitGroup
	var states []abi.SandboxState
	wg.Add(1)
	go func() {
		defer wg.Done()
		for _, a := range []sandbox.Availability{sandbox.DetectBubblewrap(ctx), sandbox.DetectLandlock()} {
			states = append(states, abi.SandboxState{Name: a.Name, Available: a.Available, Version: a.Version, Reason: a.Reason})
		}
	}()
	res.Tools = probeAll(ctx, Programs, s.setup.Writable, ProbeTimeout)
	wg.Wait()
	res.Juju = abi.JujuSetup{
		Version:       s.setup.Version,
		Mode:          s.setup.Mode,
		Roots:         nonNil(s.setup.Roots),
		Sandbox:       s.setup.Sandbox,
		SandboxStatus: states,
		Deny:          nonNil(s.setup.Deny),
		Secrets:       nonNil(s.setup.Secrets),
		WebFetch:      s.setup.WebFetch,
	}
	return res
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// distro reads the distribution's name from /etc/os-release.
func distro() string {
	f, err := os.Open("/etc/os-release")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "PRETTY_NAME="); ok {
			return strings.Trim(v, `"'`)
		}
	}
	return ""
}

// knownShells are looked for on PATH and in /etc/shells.
var knownShells = []string{"bash", "zsh", "fish", "sh", "dash", "ksh", "tcsh", "nu", "pwsh", "elvish", "xonsh"}

// shells lists the known shells installed, by name.
func shells() []string {
	found := map[string]bool{}
	if b, err := os.ReadFile("/etc/shells"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			l = strings.TrimSpace(l)
			if strings.HasPrefix(l, "/") {
				if fi, err := os.Stat(l); err == nil && !fi.IsDir() {
					found[filepath.Base(l)] = true
				}
			}
		}
	}
	for _, sh := range knownShells {
		if _, err := lookPath(sh); err == nil {
			found[sh] = true
		}
	}
	out := []string{}
	for sh := range found {
		out = append(out, sh)
	}
	sort.Strings(out)
	return out
}
