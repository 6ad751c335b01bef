package sandbox

import (
	"path/filepath"
	"strings"
)

// BubblewrapArgs builds the bwrap command line that runs argv in cwd under
// p: the whole file system read-only, a fresh /dev and /proc, a private
// tmpfs on /tmp, the Write folders bound writable over it, the ReadOnly
// folders bound read-only again inside them, the network unshared unless
// p.Network, a new session (no terminal injection), and the command killed
// with bwrap. keep is a file under /tmp that must stay visible (the juju
// helper when juju runs from a temporary folder), or "".
func BubblewrapArgs(bwrap string, p Policy, cwd, keep string, argv []string) []string {
	a := []string{bwrap,
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
		"--tmpfs", "/tmp",
	}
	if keep != "" && under(keep, "/tmp") {
		a = append(a, "--ro-bind", keep, keep)
	}
	for _, d := range p.Write {
		a = append(a, "--bind-try", d, d)
	}
	for _, d := range p.ReadOnly {
		a = append(a, "--ro-bind-try", d, d)
	}
	if !p.Network {
		a = append(a, "--unshare-net")
	}
	a = append(a, "--unshare-pid", "--unshare-ipc", "--new-session", "--die-with-parent",
		"--setenv", "TMPDIR", "/tmp", "--chdir", cwd, "--")
	return append(a, argv...)
}

func under(p, dir string) bool {
	p = filepath.Clean(p)
	return p == dir || strings.HasPrefix(p, dir+"/")
}
