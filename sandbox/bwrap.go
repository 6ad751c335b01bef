package sandbox

import (
	"path/filepath"
	"strings"
)

// Bubblewrap is a bwrap that detection proved works: its path, and
// whether it can also give the command a user namespace of its own.
type Bubblewrap struct {
	Path   string
	UserNS bool
}

// Args builds the bwrap command line that runs argv in cwd under p, in
// this order (bwrap applies its binds in order, a later one on top):
//
//   - the whole file system read-only, a fresh /dev and /proc with
//     /proc/sys read-only, a private tmpfs on /tmp (and keep, a file
//     under /tmp that must stay visible — the juju helper when juju runs
//     from a temporary folder — or ""), and one on each Hidden folder.
//     The kernel lets the machine's root user write its settings with no
//     capability at all: juju run as root gave a command, root in its
//     user namespace, kernel.core_pattern, a program the kernel runs as
//     root on the next crash, wherever Landlock did not refuse the write;
//     bubblewrap covers /proc/sys only when it finds the folder itself
//     writable, which it never is;
//   - the Write folders bound writable over it;
//   - the Pinned paths bound onto themselves, after the Write folder they
//     are in: still writable, but each a mount point, which rename(2),
//     rmdir(2) and unlink(2) refuse with EBUSY, so none can be renamed,
//     removed or replaced by another (a Pinned path that is also a Write
//     folder is one already and is not bound twice);
//   - the ReadOnly paths bound read-only onto themselves, last, so that
//     one inside a Pinned folder lands on top of it. A ReadOnly path that
//     does not exist is skipped (--ro-bind-try): bwrap cannot bind what is
//     not there, and creating it to bind it would change the workspace.
//   - /dev/null bound read-only onto each HiddenFiles file, after all the
//     rest so that one inside a Write folder is covered too: bwrap's
//     bind is nodev, so opening it is refused (EACCES).
//
// Then: no capabilities, in any set (--cap-drop ALL; bwrap also sets
// no_new_privs, so none comes back through a setuid or file-capability
// program); new user (when UserNS), PID, IPC, UTS and cgroup (where the
// kernel has them) namespaces; the network unshared unless p.Network; a
// new session (no terminal injection); the command killed with bwrap.
func (b Bubblewrap) Args(p Policy, cwd, keep string, argv []string) []string {
	a := []string{b.Path,
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
		"--ro-bind-try", "/proc/sys", "/proc/sys",
		"--tmpfs", "/tmp",
	}
	if keep != "" && under(keep, "/tmp") {
		a = append(a, "--ro-bind", keep, keep)
	}
	for _, d := range p.Hidden {
		a = append(a, "--tmpfs", d)
	}
	for _, d := range p.Write {
		a = append(a, "--bind-try", d, d)
	}
	for _, d := range p.pinBinds() {
		a = append(a, "--bind-try", d, d)
	}
	for _, d := range p.ReadOnly {
		a = append(a, "--ro-bind-try", d, d)
	}
	for _, f := range p.HiddenFiles {
		a = append(a, "--ro-bind", "/dev/null", f)
	}
	if b.UserNS {
		a = append(a, "--unshare-user")
	}
	if !p.Network {
		a = append(a, "--unshare-net")
	}
	a = append(a, Confinement...)
	a = append(a, "--setenv", "TMPDIR", "/tmp", "--chdir", cwd, "--")
	return append(a, argv...)
}

// Confinement are the bwrap flags every sandboxed command gets besides its
// binds and its network: the namespaces, the capabilities, the session.
// BubblewrapProbe proves them.
var Confinement = []string{
	"--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
	"--cap-drop", "ALL",
	"--new-session", "--die-with-parent",
}

// under reports whether p is dir or inside it.
func under(p, dir string) bool {
	p = filepath.Clean(p)
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}
