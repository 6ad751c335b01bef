package search

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/juju"
)

// EnvironmentInfoArgs are the arguments of environment_info: none.
type EnvironmentInfoArgs struct{}

// EnvironmentInfoResult is the structured content of environment_info.
type EnvironmentInfoResult struct {
	OS     string        `json:"os" desc:"The operating system (linux, darwin, windows …)."`
	Arch   string        `json:"arch" desc:"The CPU architecture (amd64, arm64 …)."`
	Kernel string        `json:"kernel,omitempty" desc:"The kernel release."`
	Distro string        `json:"distro,omitempty" desc:"The distribution's name."`
	CPUs   int           `json:"cpus" desc:"Logical CPUs."`
	Shell  string        `json:"shell,omitempty" desc:"The owner's login shell."`
	Shells []string      `json:"shells" jsonschema:"required" desc:"Shells installed."`
	Tools  []ToolVersion `json:"tools" jsonschema:"required" desc:"Toolchains and tools found on PATH, with the first line of their version output."`
	Juju   JujuSetup     `json:"juju" desc:"How this juju server is set up."`
}

// ToolVersion is one program found on PATH.
type ToolVersion struct {
	Name    string `json:"name" desc:"The program."`
	Version string `json:"version,omitempty" desc:"Its version line; empty when it gave none in time."`
}

// JujuSetup is juju's own setup.
type JujuSetup struct {
	Version       string         `json:"version" desc:"juju's version."`
	Mode          string         `json:"mode" desc:"The trust mode: inspect (edits and commands need approval), edit (commands need approval) or trusted."`
	Roots         []string       `json:"roots" desc:"The workspace roots; relative paths start from the first."`
	Sandbox       string         `json:"sandbox" desc:"The command sandbox setting: off, prefer or require."`
	SandboxStatus []SandboxState `json:"sandboxStatus" desc:"Which confinement mechanisms work on this machine."`
	Deny          []string       `json:"deny" desc:"Deny globs: paths no tool may touch."`
	Secrets       []string       `json:"secrets" desc:"Secret globs: files no tool may read, search or write."`
	WebFetch      bool           `json:"webFetch" desc:"Whether fetch_url is enabled."`
}

// SandboxState says whether one confinement mechanism works here.
type SandboxState struct {
	Name      string `json:"name" desc:"bubblewrap or landlock."`
	Available bool   `json:"available" desc:"Whether it works here."`
	Version   string `json:"version,omitempty" desc:"Its version (Landlock: the ABI number)."`
	Reason    string `json:"reason,omitempty" desc:"Why it does not work."`
}

func init() {
	juju.Tool("environment_info", juju.ReadTool("Environment info",
		"Describes the machine and juju's setup: OS, architecture, kernel, distribution, shells, the toolchains and tools on PATH with their versions "+
			"(go, node, npm, pnpm, yarn, bun, deno, python3, pip3, uv, cargo, rustc, java, mvn, gradle, php, composer, ruby, gcc, clang, make, just, task, git, rg, gopls, docker …), "+
			"and juju's version, trust mode, workspace roots, sandbox setting and availability, deny and secret globs. "+
			"Use it before running commands, to pick the right tools and flags. Versions are probed once per server.",
		EnvironmentInfoResult{}), environmentInfo)
}

func environmentInfo(_ *juju.Call, _ EnvironmentInfoArgs) (*juju.Result, error) {
	env, err := juju.Environment()
	if err != nil {
		return nil, err
	}
	out := EnvironmentInfoResult{
		OS: env.OS, Arch: env.Arch, Kernel: env.Kernel, Distro: env.Distro, CPUs: env.CPUs,
		Shell: env.Shell, Shells: env.Shells, Tools: []ToolVersion{},
		Juju: JujuSetup{
			Version: env.Juju.Version, Mode: env.Juju.Mode, Roots: env.Juju.Roots, Sandbox: env.Juju.Sandbox,
			Deny: env.Juju.Deny, Secrets: env.Juju.Secrets, WebFetch: env.Juju.WebFetch,
			SandboxStatus: []SandboxState{},
		},
	}
	for _, t := range env.Tools {
		out.Tools = append(out.Tools, ToolVersion(t))
	}
	for _, s := range env.Juju.SandboxStatus {
		out.Juju.SandboxStatus = append(out.Juju.SandboxStatus, SandboxState(s))
	}
	return juju.Text(renderEnvironment(out)).WithStructured(out), nil
}

func renderEnvironment(e EnvironmentInfoResult) string {
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
