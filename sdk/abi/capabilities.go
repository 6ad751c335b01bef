package abi

// Capability names a power a plugin may be granted. A host function checks
// the calling plugin's grants before it does anything else.
type Capability string

// The capabilities juju knows. Manifests may ask only for these.
const (
	CapFSRead    Capability = "fs.read"    // read, list, stat, walk and glob inside the roots
	CapFSWrite   Capability = "fs.write"   // journaled writes inside the roots
	CapExec      Capability = "exec"       // run a program with argv, never a shell
	CapExecShell Capability = "exec.shell" // run a shell string with bash -c
	CapNetFetch  Capability = "net.fetch"  // fetch https URLs, SSRF-guarded
	CapLSP       Capability = "lsp"        // query registered language servers
	CapGit       Capability = "git"        // run the git CLI on the workspace
	CapState     Capability = "state"      // the plugin's own key-value space
)

// Capabilities lists every capability with the words an owner reads when a
// plugin asks for it.
var Capabilities = []struct {
	Name  Capability
	Words string
}{
	{CapFSRead, "read files and list folders inside the workspace roots (never secrets)"},
	{CapFSWrite, "change files inside the workspace roots (journaled and reversible)"},
	{CapExec, "run programs on this machine"},
	{CapExecShell, "run shell command strings on this machine"},
	{CapNetFetch, "fetch pages from the internet"},
	{CapLSP, "ask the registered language servers about the code"},
	{CapGit, "run git on the workspace"},
	{CapState, "keep its own small key-value store"},
}

// Known reports whether c is a capability juju knows.
func (c Capability) Known() bool {
	for _, k := range Capabilities {
		if k.Name == c {
			return true
		}
	}
	return false
}
