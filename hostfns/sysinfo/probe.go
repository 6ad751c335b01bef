package sysinfo

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

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

func lookPath(name string) (string, error) { return exec.LookPath(name) }

// probeAll probes every program in parallel and returns those found, in
// the order of progs.
func probeAll(ctx context.Context, progs []Program, timeout time.Duration) []abi.ToolVersion {
	env := []string{"GOTOOLCHAIN=local", "NO_COLOR=1"}
	for _, k := range passEnv {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
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
	cmd := proc.Command(ctx, os.TempDir(), env, append([]string{path}, args...)...)
	cmd.WaitDelay = 500 * time.Millisecond
	stdout, stderr := proc.NewCapped(64<<10), proc.NewCapped(64<<10)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if cmd.Run() != nil && ctx.Err() != nil {
		return ""
	}
	for _, b := range []*proc.Capped{stdout, stderr} {
		for _, l := range strings.Split(b.String(), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				if len(l) > 200 {
					l = strings.ToValidUTF8(l[:200], "")
				}
				return l
			}
		}
	}
	return ""
}
