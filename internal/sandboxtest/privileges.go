package sandboxtest

import (
	"os"
	"strings"
	"testing"
)

// PrivilegeProbe is a bash script that prints what a command sees of its
// privileges and namespaces. It tries to set the hostname only in a UTS
// namespace of its own (it would rename the machine otherwise: $HOST_UTS
// must hold the host's, see HostUTS), and the clock to the time it reads
// (a step of microseconds, should it be allowed).
const PrivilegeProbe = `grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):' /proc/self/status
for ns in uts ipc pid net cgroup user; do echo "ns $ns $(readlink /proc/self/ns/$ns)"; done
if [ "$(readlink /proc/self/ns/uts)" = "$HOST_UTS" ]; then echo hostname-shared
elif hostname juju-sandbox-probe 2>/dev/null; then echo hostname-set; else echo hostname-refused; fi
date -s now >/dev/null 2>&1 && echo date-set || echo date-refused`

// HostUTS is the environment entry PrivilegeProbe needs: the host's UTS
// namespace.
func HostUTS() string {
	ns, _ := os.Readlink("/proc/self/ns/uts")
	return "HOST_UTS=" + ns
}

// CheckPrivileges fails t unless out, PrivilegeProbe's output, shows a
// command with no capability in any set, no_new_privs, namespaces of its
// own (the user namespace when userNS), that could neither rename the
// machine nor set its clock. Root without a user namespace keeps its
// capability bounding set (bwrap leaves it; no_new_privs and the empty
// permitted set keep it unusable): that is logged, not failed.
func CheckPrivileges(t testing.TB, out string, userNS bool) {
	t.Helper()
	status, ns, lines := map[string]string{}, map[string]string{}, map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(line, ":\t"); ok {
			status[k] = strings.TrimSpace(v)
		} else if f := strings.Fields(line); len(f) == 3 && f[0] == "ns" {
			ns[f[1]] = f[2]
		} else {
			lines[strings.TrimSpace(line)] = true
		}
	}
	for _, set := range []string{"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"} {
		if set == "CapBnd" && !userNS && os.Geteuid() == 0 {
			t.Logf("CapBnd %s: root without a user namespace", status[set])
			continue
		}
		if status[set] != "0000000000000000" {
			t.Errorf("%s = %q, want no capability", set, status[set])
		}
	}
	if status["NoNewPrivs"] != "1" {
		t.Errorf("NoNewPrivs = %q, want 1", status["NoNewPrivs"])
	}
	spaces := []string{"uts", "ipc", "pid", "net"}
	if _, err := os.Readlink("/proc/self/ns/cgroup"); err == nil {
		spaces = append(spaces, "cgroup")
	}
	if userNS {
		spaces = append(spaces, "user")
	}
	for _, n := range spaces {
		host, _ := os.Readlink("/proc/self/ns/" + n)
		if ns[n] == "" || ns[n] == host {
			t.Errorf("%s namespace %q, the host's is %q", n, ns[n], host)
		}
	}
	for _, want := range []string{"hostname-refused", "date-refused"} {
		if !lines[want] {
			t.Errorf("no %s in the probe's output", want)
		}
	}
}
