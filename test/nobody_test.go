package test

import (
	"context"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jujutools/juju/sandbox"
)

// nobodyUID is the ordinary user the tests run juju as.
const nobodyUID = 65534

// unprivileged is what running juju as nobody takes: setpriv and its
// arguments, a copy of juju that user can run, a home (JUJU_HOME, with a
// copy of the compiled plugins) and folders it owns.
type unprivileged struct {
	setpriv string
	prefix  []string // setpriv's arguments before the program
	juju    string
	home    string
	env     []string
	base    string
	userNS  bool // bubblewrap gives nobody's commands a user namespace
}

// asNobody prepares juju to run as nobody. It skips t unless the tests run
// as root and an ordinary user can run bubblewrap here, saying why.
func asNobody(t *testing.T) *unprivileged {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("run as root: it runs juju as nobody (as an ordinary user the other tests do so already)")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("no setpriv (util-linux) to switch to an ordinary user")
	}
	id := strconv.Itoa(nobodyUID)
	u := &unprivileged{setpriv: setpriv, prefix: []string{"--reuid", id, "--regid", id, "--clear-groups"}}
	u.base, err = os.MkdirTemp("/var/tmp", "juju-e2e-nobody-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(u.base) })
	if err := os.Chmod(u.base, 0o755); err != nil {
		t.Fatal(err)
	}
	u.juju = filepath.Join(u.base, "juju")
	if err := copyFile(jujuBin, u.juju, 0o755); err != nil {
		t.Fatal(err)
	}
	u.home = filepath.Join(u.base, "home")
	if err := os.CopyFS(filepath.Join(u.home, "cache"), os.DirFS(sharedCache)); err != nil {
		t.Fatalf("copying the compiled plugins: %v", err)
	}
	if err := chownAll(u.home, nobodyUID); err != nil {
		t.Fatal(err)
	}
	u.env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + u.home, "JUJU_HOME=" + u.home, "TMPDIR=" + u.home, "LANG=C"}

	bwrap := sandbox.DetectBubblewrap(context.Background()).Path
	probe := exec.Command(setpriv, append(append(u.prefix, bwrap), sandbox.BubblewrapUserNSProbe...)...)
	probe.Env = u.env
	if out, err := probe.CombinedOutput(); err == nil {
		u.userNS = true
	} else {
		probe = exec.Command(setpriv, append(append(u.prefix, bwrap), sandbox.BubblewrapProbe...)...)
		probe.Env = u.env
		if out2, err := probe.CombinedOutput(); err != nil {
			max, _ := os.ReadFile("/proc/sys/user/max_user_namespaces")
			t.Skipf("an ordinary user cannot run bubblewrap here (%v: %s; in a user namespace: %s); user.max_user_namespaces = %s",
				err, strings.TrimSpace(string(out2)), strings.TrimSpace(string(out)), strings.TrimSpace(string(max)))
		}
	}
	return u
}

// dir makes a folder nobody owns.
func (u *unprivileged) dir(name string) string {
	d := filepath.Join(u.base, name)
	if err := os.Mkdir(d, 0o755); err == nil {
		os.Chown(d, nobodyUID, nobodyUID)
	}
	return d
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func chownAll(dir string, uid int) error {
	return filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, uid)
	})
}
