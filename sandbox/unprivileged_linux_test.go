package sandbox

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// nobody is the user the sandbox tests re-run as.
const nobody = 65534

// unprivilegedTests are the sandbox tests TestAsUnprivilegedUser re-runs.
var unprivilegedTests = []string{"TestWrapBubblewrap", "TestWrapPrivileges", "TestWrapGitGuarded", "TestWrapGitWorks", "TestHelperRefusesRacedPins"}

// TestAsUnprivilegedUser re-runs the sandbox tests that use the real
// bubblewrap as an ordinary user (nobody, through setpriv), from a copy
// of this test binary that user can run, in folders it owns. It runs as
// root (as CI does) and skips, saying why, where an ordinary user cannot
// run bubblewrap at all.
func TestAsUnprivilegedUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("run as root: it re-runs the sandbox tests as nobody (as an ordinary user they run as such already)")
	}
	needBubblewrap(t)
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("no setpriv (util-linux) to switch to an ordinary user")
	}
	dir, err := os.MkdirTemp("/var/tmp", "juju-sandbox-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	home := filepath.Join(dir, "home")
	bin := filepath.Join(dir, "sandbox.test")
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(home, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	if err := copyExecutable(bin); err != nil {
		t.Fatal(err)
	}
	asNobody := func(argv ...string) *exec.Cmd {
		cmd := exec.Command(setpriv, append([]string{"--reuid", fmt.Sprint(nobody), "--regid", fmt.Sprint(nobody), "--clear-groups"}, argv...)...)
		cmd.Dir = home
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + home, "LANG=C"}
		return cmd
	}
	bwrap := DetectBubblewrap(t.Context()).Path
	if out, err := asNobody(append([]string{bwrap}, BubblewrapProbe...)...).CombinedOutput(); err != nil {
		t.Skipf("an ordinary user cannot run bubblewrap here (%v: %s); user.max_user_namespaces = %s",
			err, strings.TrimSpace(string(out)), readSysctl("/proc/sys/user/max_user_namespaces"))
	}
	run := "^(" + strings.Join(unprivilegedTests, "|") + ")$"
	out, err := asNobody(bin, "-test.run", run, "-test.count=1", "-test.v").CombinedOutput()
	t.Logf("as uid %d:\n%s", nobody, out)
	if err != nil {
		t.Fatalf("the sandbox tests failed as uid %d: %v", nobody, err)
	}
	for _, name := range unprivilegedTests {
		if !regexp.MustCompile(`(?m)^--- PASS: ` + name + ` `).Match(out) {
			t.Errorf("%s did not pass as uid %d (skipped?)", name, nobody)
		}
	}
}

// copyExecutable copies this test binary to path, runnable by anyone.
func copyExecutable(path string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	src, err := os.Open(exe)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

func readSysctl(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "unreadable (" + err.Error() + ")"
	}
	return strings.TrimSpace(string(b))
}
