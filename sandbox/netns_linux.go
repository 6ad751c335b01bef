package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// NetNamespace is the inode of the calling process's network namespace,
// or 0 when it cannot be read.
func NetNamespace() uint64 {
	var st unix.Stat_t
	if err := unix.Stat("/proc/self/ns/net", &st); err != nil {
		return 0
	}
	return st.Ino
}

// privateLoopback proves that the calling process's network reaches
// nothing beyond itself: its network namespace is not outer (juju's own)
// and it holds no interface but the loopback, as the namespace bubblewrap
// makes with --unshare-net does. A server a command starts on 127.0.0.1
// there (a test's httptest server, a dev server and its client in one
// command) is reachable only from that namespace's own processes.
func privateLoopback(outer uint64) error {
	if outer == 0 {
		return fmt.Errorf("juju's network namespace is unknown")
	}
	if ns := NetNamespace(); ns == 0 || ns == outer {
		return fmt.Errorf("the command's network namespace is juju's own")
	}
	// /proc/self/net is the namespace's own view, whatever /sys shows.
	f, err := os.Open("/proc/self/net/dev")
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 0; sc.Scan(); n++ {
		if n < 2 {
			continue // two lines of headers
		}
		name, _, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			return fmt.Errorf("unreadable line %q", sc.Text())
		}
		if name = strings.TrimSpace(name); name != "lo" {
			return fmt.Errorf("the command's network namespace has an interface %q", name)
		}
	}
	return sc.Err()
}
