package abi

// Environment host function (no capability): what machine juju runs on and
// how juju is set up. The host probes the programs itself, once per server,
// so a plugin that describes the environment never needs exec.
const FnEnvironment = "juju_environment" // EnvironmentRequest → EnvironmentResult

// EnvironmentRequest asks for the environment. It has no fields yet.
type EnvironmentRequest struct{}

// EnvironmentResult describes the host machine and juju's setup:
// OS and Arch are GOOS and GOARCH, Distro e.g. "Debian GNU/Linux 12
// (bookworm)", Shell the owner's login shell ($SHELL) by name, Shells and
// Tools never nil. environment_info returns it.
type EnvironmentResult struct {
	Status
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

// ToolVersion is one program found on PATH; Version is the first line of
// its version output, empty when it gave none in time.
type ToolVersion struct {
	Name    string `json:"name" desc:"The program."`
	Version string `json:"version,omitempty" desc:"Its version line; empty when it gave none in time."`
}

// JujuSetup is how this juju server is configured: Mode is inspect, edit
// or trusted; Roots are the workspace roots, the first one first; Sandbox
// is off, prefer or require; Secrets are the built-in secret globs and the
// owner's.
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
