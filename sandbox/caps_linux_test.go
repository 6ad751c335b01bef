package sandbox

import (
	"os"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/sandboxtest"
)

// TestWrapPrivileges runs sandboxtest.PrivilegeProbe through Wrap: as root
// (CI) a sandboxed command keeps none of root's powers; as an ordinary
// user (see TestAsUnprivilegedUser) it gains none.
func TestWrapPrivileges(t *testing.T) {
	needBubblewrap(t)
	k, v, _ := strings.Cut(sandboxtest.HostUTS(), "=")
	t.Setenv(k, v)
	hostname, _ := os.Hostname()
	sb := New(testHelper(t))
	root := t.TempDir()
	got, code, mech := runWrapped(t, sb, Policy{Write: []string{root}}, root, sandboxtest.PrivilegeProbe)
	t.Logf("uid %d, %s, user namespace %v:\n%s", os.Geteuid(), mech, sb.bwrap.UserNS, got)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	sandboxtest.CheckPrivileges(t, got, sb.bwrap.UserNS)
	if after, _ := os.Hostname(); after != hostname {
		t.Errorf("the host's name changed from %q to %q", hostname, after)
	}
}
