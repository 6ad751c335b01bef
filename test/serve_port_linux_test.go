package test

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// When another user's program holds juju serve's port, the clients set up
// for that address send it the owner's token. juju serve says whose the
// listener is and what to do, rather than only that the port is taken.
func TestServePortHeldByAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("running a listener as another user needs root")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("no setpriv (util-linux) to switch to another user")
	}
	base, err := os.MkdirTemp("/var/tmp", "juju-e2e-port-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	os.Chmod(base, 0o755)
	bin := filepath.Join(base, "juju")
	if err := copyFile(jujuBin, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	theirs := filepath.Join(base, "theirs")
	os.Mkdir(theirs, 0o700)
	os.Chown(theirs, nobodyUID, nobodyUID)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	id := strconv.Itoa(nobodyUID)
	other := exec.Command(setpriv, "--reuid", id, "--regid", id, "--clear-groups", bin, "serve", "--addr", addr, "--root", theirs)
	other.Dir = theirs
	other.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + theirs, "JUJU_HOME=" + theirs}
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Process.Kill(); other.Wait() })
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the other user's listener never came up on %s", addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	home := t.TempDir()
	cmd := exec.Command(jujuBin, "serve", "--addr", addr, "--root", workspace(t, map[string]string{"a.txt": "a\n"}))
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("juju serve started on a port another user holds:\n%s", out)
	}
	if want := "another user (uid " + id + ") listens there"; !strings.Contains(string(out), want) ||
		!strings.Contains(string(out), filepath.Join(home, "config", "token")) {
		t.Errorf("juju serve said %q, want %q and the token file to remove", out, want)
	}
}
