package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: the owner's end and the terminal juju
// reads from.
func openPTY(t *testing.T) (owner, tty *os.File) {
	t.Helper()
	owner, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	t.Cleanup(func() { owner.Close() })
	fd := int(owner.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("cannot unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skipf("no pseudo-terminal number: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("cannot open the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return owner, tty
}

// The owner who answers no at approve's question on a terminal gets
// status 1 and one line that says the call still waits: juju approvals
// approve ID && … goes no further. A yes approves, status 0.
func TestApproveDeclinedIsAFailure(t *testing.T) {
	dirs := jujuHome(t)
	id := waiting(t, dirs.State, "app-1", "", "asker")
	owner, tty := openPTY(t)
	answer := func(a string) (int, string, string) {
		if _, err := owner.WriteString(a); err != nil {
			t.Fatal(err)
		}
		var out, errw strings.Builder
		code := run(context.Background(), []string{"approvals", "approve", id}, tty, &out, &errw)
		return code, out.String(), errw.String()
	}
	code, out, errs := answer("n\n")
	if code != exitError || out != "" || !strings.HasSuffix(errs, "[y/N] \njuju: not approved: the call still waits (juju approvals deny "+id+" refuses it)\n") {
		t.Errorf("no: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if s := stateOf(t, id); s != "pending" {
		t.Fatalf("after no, the call is %s", s)
	}
	if code, out, errs := answer("y\n"); code != 0 || !strings.HasPrefix(out, "Approved "+id) {
		t.Errorf("yes: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
