package sandbox

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// An order crosses the socket whole, long or short, with its descriptors
// (stdout, stderr, kept) usable and close-on-exec on the other side, and
// the reaper's end of the socket is closed after it.
func TestHandOrder(t *testing.T) {
	dir := t.TempDir()
	files := make([]*os.File, 3)
	for i := range files {
		f, err := os.Create(filepath.Join(dir, string(rune('a'+i))))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		files[i] = f
	}
	for _, envSize := range []int{10, 1 << 20} {
		mine, theirs, err := OrderSocket()
		if err != nil {
			t.Fatal(err)
		}
		env := []string{"BIG=" + strings.Repeat("x", envSize), "A=1"}
		argv := []string{"bwrap", "--chdir", "/w", "--", "sh", "-c", "echo hi"}
		done := make(chan error, 1)
		go func() {
			done <- HandOrder(mine, "/usr/bin/bwrap", argv, env, "/w", files[0], files[1], files[2:])
		}()
		fd := int(theirs.Fd())
		o, got, err := receiveOrder(fd)
		if err != nil {
			t.Fatalf("env of %d bytes: %v", envSize, err)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if o.Path != "/usr/bin/bwrap" || o.Dir != "/w" || strings.Join(o.Args, " ") != strings.Join(argv, " ") || len(o.Env) != 2 || o.Env[0] != env[0] {
			t.Fatalf("got %q %q %q and %d variables", o.Path, o.Dir, o.Args, len(o.Env))
		}
		if len(got) != 3 {
			t.Fatalf("%d descriptors", len(got))
		}
		for i, f := range got {
			flags, err := fcntl(int(f.Fd()), syscall.F_GETFD)
			if err != nil || flags&syscall.FD_CLOEXEC == 0 {
				t.Errorf("descriptor %d: flags %d, %v: not close-on-exec", i, flags, err)
			}
			if _, err := f.WriteString("x"); err != nil {
				t.Errorf("descriptor %d: %v", i, err)
			}
			f.Close()
		}
		if _, err := fcntl(fd, syscall.F_GETFD); !errors.Is(err, syscall.EBADF) {
			t.Errorf("the reaper's end of the socket is still open: %v", err)
		}
		theirs.Close()
		mine.Close()
	}
}

// juju closing the socket with no order is io.EOF; bytes that are no
// order, or an order without its descriptors, are refused, and what
// descriptors came beyond stdout and stderr are closed.
func TestReceiveOrderRefuses(t *testing.T) {
	mine, theirs, _ := OrderSocket()
	mine.Close()
	if _, _, err := receiveOrder(int(theirs.Fd())); !errors.Is(err, io.EOF) {
		t.Errorf("a closed socket: %v", err)
	}
	theirs.Close()

	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	good := order{Path: "/bin/true", Args: []string{"true"}}.encode()
	for name, c := range map[string]struct {
		msg []byte
		fds int
	}{
		"garbage":        {[]byte{3, 0, 0, 0, 'a', 'b', 'c'}, 3},
		"no descriptors": {good, 0},
		"one descriptor": {good, 1},
		"too long":       {[]byte{0xff, 0xff, 0xff, 0xff, 'a'}, 3},
		"cut short":      {good[:len(good)-2], 3},
	} {
		mine, theirs, _ := OrderSocket()
		var fds []int
		for range c.fds {
			fds = append(fds, int(f.Fd()))
		}
		var rights []byte
		if len(fds) > 0 {
			rights = syscall.UnixRights(fds...)
		}
		if err := syscall.Sendmsg(int(mine.Fd()), c.msg, rights, nil, 0); err != nil {
			t.Fatal(err)
		}
		mine.Close() // an order cut short then ends early
		_, got, err := receiveOrder(int(theirs.Fd()))
		if !errors.Is(err, errBadOrder) {
			t.Errorf("%s: %v", name, err)
		}
		if len(got) > 2 {
			t.Errorf("%s: %d descriptors handed back", name, len(got))
		}
		for _, g := range got {
			g.Close()
		}
		theirs.Close()
	}
}

func fcntl(fd, cmd int) (int, error) {
	r, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), uintptr(cmd), 0)
	if e != 0 {
		return 0, e
	}
	return int(r), nil
}
