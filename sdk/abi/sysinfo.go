package abi

// Environment host function (no capability): what machine juju runs on and
// how juju is set up. The host probes the programs itself, once per server,
// so a plugin that describes the environment never needs exec.
const FnEnvironment = "juju_environment" // EnvironmentRequest → EnvironmentResult

// EnvironmentRequest asks for the environment. It has no fields yet.
type EnvironmentRequest struct{}

// EnvironmentResult describes the host machine and juju's setup.
type EnvironmentResult struct {
	Status
	OS     string        `json:"os"`               // GOOS, e.g. "linux"
	Arch   string        `json:"arch"`             // GOARCH, e.g. "amd64"
	Kernel string        `json:"kernel,omitempty"` // the kernel release
	Distro string        `json:"distro,omitempty"` // e.g. "Debian GNU/Linux 12 (bookworm)"
	CPUs   int           `json:"cpus"`             // logical CPUs
	Shell  string        `json:"shell,omitempty"`  // the owner's login shell ($SHELL), by name
	Shells []string      `json:"shells"`           // shells installed, by name
	Tools  []ToolVersion `json:"tools"`            // programs found on PATH, with their versions
	Juju   JujuSetup     `json:"juju"`
}

// ToolVersion is one program found on PATH.
type ToolVersion struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"` // the first line of its version output; empty when it gave none in time
}

// JujuSetup is how this juju server is configured.
type JujuSetup struct {
	Version       string         `json:"version"`
	Mode          string         `json:"mode"`    // inspect, edit, trusted
	Roots         []string       `json:"roots"`   // the workspace roots, the first one first
	Sandbox       string         `json:"sandbox"` // off, prefer, require
	SandboxStatus []SandboxState `json:"sandboxStatus"`
	Deny          []string       `json:"deny"`    // deny globs
	Secrets       []string       `json:"secrets"` // secret globs (the built-in list and the owner's)
	WebFetch      bool           `json:"webFetch"`
}

// SandboxState says whether one confinement mechanism works here.
type SandboxState struct {
	Name      string `json:"name"`
	Available bool   `json:"available"`
	Version   string `json:"version,omitempty"`
	Reason    string `json:"reason,omitempty"`
}
