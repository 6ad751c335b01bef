package sysinfo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/proc"
	"github.com/jujutools/juju/sdk/abi"
)

// ProbeTimeout bounds each version probe.
const ProbeTimeout = 3 * time.Second

// Program is a program to look for and how to ask its version.
type Program struct {
	Name string
	Args []string
}

// Programs are the toolchains and tools environment_info looks for.
var Programs = []Program{
	{"go", []string{"version"}},
	{"gopls", []string{"version"}},
	{"node", []string{"--version"}},
	{"npm", []string{"--version"}},
	{"pnpm", []string{"--version"}},
	{"yarn", []string{"--version"}},
	{"bun", []string{"--version"}},
	{"deno", []string{"--version"}},
	{"python3", []string{"--version"}},
	{"pip3", []string{"--version"}},
	{"uv", []string{"--version"}},
	{"cargo", []string{"--version"}},
	{"rustc", []string{"--version"}},
	{"java", []string{"-version"}},
	{"mvn", []string{"--version"}},
	{"gradle", []string{"--version"}},
	{"php", []string{"--version"}},
	{"composer", []string{"--version"}},
	{"ruby", []string{"--version"}},
	{"gcc", []string{"--version"}},
	{"clang", []string{"--version"}},
	{"make", []string{"--version"}},
	{"just", []string{"--version"}},
	{"task", []string{"--version"}},
	{"git", []string{"--version"}},
	{"rg", []string{"--version"}},
	{"docker", []string{"--version"}},
	{"bwrap", []string{"--version"}},
}

// passEnv are the variables a version probe keeps; everything else of the
// owner's environment (tokens, keys) stays out.
var passEnv = []string{"PATH", "HOME", "LANG", "JAVA_HOME", "GOROOT", "GOPATH", "CARGO_HOME", "RUSTUP_HOME"}

// pathEnv are the variables of passEnv that name a folder whose files the
// programs read and may run: mvn sources ~/.mavenrc and runs
// $JAVA_HOME/bin/java, yarn follows ~/.yarnrc's yarn-path, rustup's
// proxies read $RUSTUP_HOME's settings.
var pathEnv = []string{"HOME", "JAVA_HOME", "GOROOT", "GOPATH", "CARGO_HOME", "RUSTUP_HOME"}

func lookPath(name string) (string, error) { return exec.LookPath(name) }

// probeEnv is the environment of a version probe. A folder variable that
// leads into a root is left out — a confined command may write there, and
// the probes run unconfined — and HOME becomes the probes' folder.
func probeEnv(roots []string) []string {
	env := []string{"GOTOOLCHAIN=local", "NO_COLOR=1"}
	for _, k := range passEnv {
		v, ok := os.LookupEnv(k)
		if !ok {
			continue
		}
		if slices.Contains(pathEnv, k) && insideAny(v, roots) {
			if k == "HOME" {
				env = append(env, "HOME="+probeDir())
			}
			continue
		}
		env = append(env, k+"="+v)
	}
	return env
}

// insideAny reports whether the folder v lies inside one of roots, by its
// path or where it leads, also through a link to something not made yet.
// A relative or empty value, or one whose links do not end, counts as
// inside: it would be taken from the probe's folder, and is of no use.
func insideAny(v string, roots []string) bool {
	if v == "" || !filepath.IsAbs(v) {
		return true
	}
	hops := 0
	real, ok := leadsTo(filepath.Clean(v), &hops)
	if !ok {
		return true
	}
	for _, p := range []string{filepath.Clean(v), real} {
		for _, r := range roots {
			if policy.Within(p, r) {
				return true
			}
		}
	}
	return false
}

// maxHops bounds the links leadsTo follows, as the kernel's 40.
const maxHops = 40

// leadsTo resolves the absolute path p through its links as far as they
// exist: a missing name is kept as it is, a link to a missing name
// followed. It reports false past maxHops links.
func leadsTo(p string, hops *int) (string, bool) {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r, true
	}
	dir := filepath.Dir(p)
	if dir == p {
		return p, true
	}
	parent, ok := leadsTo(dir, hops)
	if !ok {
		return "", false
	}
	q := filepath.Join(parent, filepath.Base(p))
	t, err := os.Readlink(q)
	if err != nil {
		return q, true
	}
	if *hops++; *hops > maxHops {
		return "", false
	}
	if !filepath.IsAbs(t) {
		t = filepath.Join(parent, t)
	}
	return leadsTo(filepath.Clean(t), hops)
}

// probeDir is where the probes run and, when the owner's home lies in a
// root, their home: a folder that only the administrator can write, and
// every folder above it too. Programs look upward from their folder for
// settings that run code — mvn for .mvn/jvm.config, yarn 1 for .yarnrc,
// corepack for package.json — so neither a root (a cloned repository) nor
// a shared folder such as /tmp, where any local user may put such files,
// will do. On Windows every drive's top folder takes new folders from any
// user, so the system folder is the best there is.
func probeDir() string {
	if runtime.GOOS == "windows" {
		if d := os.Getenv("SystemRoot"); filepath.IsAbs(d) {
			return d
		}
		return `C:\Windows`
	}
	return "/"
}

// probeAll probes every program in parallel and returns those found, in
// the order of progs. roots are the folders a confined command may write.
func probeAll(ctx context.Context, progs []Program, roots []string, timeout time.Duration) []abi.ToolVersion {
	env := probeEnv(roots)
	out := make([]*abi.ToolVersion, len(progs))
	var wg sync.WaitGroup
	for i, p := range progs {
		path, err := lookPath(p.Name)
		if err != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = &abi.ToolVersion{Name: p.Name, Version: probe(ctx, path, p.Args, env, timeout)}
		}()
	}
	wg.Wait()
	tools := []abi.ToolVersion{}
	for _, t := range out {
		if t != nil {
			tools = append(tools, *t)
		}
	}
	return tools
}

// probe runs one program with its version arguments and returns the first
// non-empty line it printed (stdout, else stderr), or "" when it gave none
// in time.
func probe(ctx context.Context, path string, args, env []string, timeout time.Duration) string {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := proc.Command(ctx, probeDir(), env, append([]string{path}, args...)...)
	cmd.WaitDelay = 500 * time.Millisecond
	stdout, stderr := proc.NewCapped(64<<10), proc.NewCapped(64<<10)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if cmd.Run() != nil && ctx.Err() != nil {
		return ""
	}
	for _, b := range []*proc.Capped{stdout, stderr} {
		for _, l := range strings.Split(b.String(), "\n") {
			if l = strings.TrimSpace(plain(l)); l != "" {
				if len(l) > 200 {
					l = strings.ToValidUTF8(l[:200], "")
				}
				return l
			}
		}
	}
	return ""
}

// plain is a line of a program's output as text: its terminal escape
// sequences (mvn colours its version line even into a pipe: ESC[1m …
// ESC[m) removed, and any other control character with them, so the
// version reads as the terminal showed it and no escape reaches the
// model or the owner's terminal.
func plain(l string) string {
	var b strings.Builder
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case c == 0x1b && i+1 < len(l) && l[i+1] == '[':
			// CSI: parameters and intermediates, then one final byte.
			for i += 2; i < len(l) && (l[i] < 0x40 || l[i] > 0x7e); i++ {
			}
		case c == 0x1b && i+1 < len(l) && l[i+1] == ']':
			// OSC: up to BEL or ESC \.
			for i += 2; i < len(l) && l[i] != 0x07 && l[i] != 0x1b; i++ {
			}
			if i+1 < len(l) && l[i] == 0x1b && l[i+1] == '\\' {
				i++
			}
		case c == 0x1b && i+1 < len(l):
			i++ // a two-byte escape
		case c == '\t':
			b.WriteByte(' ')
		case c < 0x20 || c == 0x7f:
		default:
			b.WriteByte(c)
		}
	}
	return strings.Map(func(r rune) rune {
		if r >= 0x80 && r <= 0x9f { // C1 controls
			return -1
		}
		return r
	}, b.String())
}
