package search

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// EnvironmentInfoArgs are the arguments of environment_info: none.
type EnvironmentInfoArgs struct{}

func init() {
	juju.Tool("environment_info", juju.ReadTool("Environment info",
		"Describes the machine and juju's setup: OS, architecture, kernel, distribution, shells, the toolchains and tools on PATH with their versions "+
			"(go, node, npm, pnpm, yarn, bun, deno, python3, pip3, uv, cargo, rustc, java, mvn, gradle, php, composer, ruby, gcc, clang, make, just, task, git, rg, gopls, docker …), "+
			"and juju's version, trust mode, workspace roots, sandbox setting and availability, deny and secret globs. "+
			"Use it before running commands, to pick the right tools and flags. Versions are probed once per server.",
		abi.EnvironmentResult{}), environmentInfo)
}

func environmentInfo(_ *juju.Call, _ EnvironmentInfoArgs) (*juju.Result, error) {
	env, err := juju.Environment()
	if err != nil {
		return nil, err
	}
	// Lists never null, as the schema promises for shells and tools.
	if env.Shells == nil {
		env.Shells = []string{}
	}
	if env.Tools == nil {
		env.Tools = []abi.ToolVersion{}
	}
	if env.Juju.SandboxStatus == nil {
		env.Juju.SandboxStatus = []abi.SandboxState{}
	}
	return juju.Text(renderEnvironment(env)).WithStructured(env), nil
}

func renderEnvironment(e *abi.EnvironmentResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "System: %s/%s", e.OS, e.Arch)
	if e.Distro != "" {
		fmt.Fprintf(&b, ", %s", e.Distro)
	}
	if e.Kernel != "" {
		fmt.Fprintf(&b, ", kernel %s", e.Kernel)
	}
	fmt.Fprintf(&b, ", %d CPUs\n", e.CPUs)
	fmt.Fprintf(&b, "Shells: %s", strings.Join(e.Shells, ", "))
	if e.Shell != "" {
		fmt.Fprintf(&b, " (login shell: %s)", e.Shell)
	}
	b.WriteString("\nTools:\n")
	for _, t := range e.Tools {
		v := t.Version
		if v == "" {
			v = "(no version given in time)"
		}
		fmt.Fprintf(&b, "  %s: %s\n", t.Name, v)
	}
	j := e.Juju
	fmt.Fprintf(&b, "juju %s, mode %s, sandbox %s", j.Version, j.Mode, j.Sandbox)
	for _, s := range j.SandboxStatus {
		if s.Available {
			fmt.Fprintf(&b, "; %s available", s.Name)
		} else {
			fmt.Fprintf(&b, "; %s unavailable", s.Name)
		}
	}
	fmt.Fprintf(&b, "\nRoots: %s\n", strings.Join(j.Roots, ", "))
	fmt.Fprintf(&b, "Secret globs (never readable): %s\n", strings.Join(j.Secrets, ", "))
	if len(j.Deny) > 0 {
		fmt.Fprintf(&b, "Deny globs: %s\n", strings.Join(j.Deny, ", "))
	}
	fmt.Fprintf(&b, "Web fetch: %v\n", j.WebFetch)
	return b.String()
}
