package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// checkMounts is the helper's look, from inside the sandbox, at the pins
// bubblewrap made, before the command runs. bwrap resolves a bind's source
// when it starts and its destination when it mounts, following symbolic
// links both times, so a Pinned path that a command running concurrently
// (one whose sandbox did not pin it, because it started before the path
// existed) turns into a link at the right moment would carry a writable
// bind elsewhere: a folder outside the roots bound onto the pinned path
// (Landlock would not stop writes there: it judges the path, which is in
// a root), or bound onto itself. So each --pin path must be the mount
// point of a bind of itself: a mount must be there, and show the folder
// its parent mount has at that path.
//
// And each --ro path that is there now must be read-only: bwrap binds
// one only if it existed when bwrap started, and a sandbox built ahead
// of its command (--await) started before the command came. juju hands a
// command to such a sandbox only when every bind's source is what it was
// when the sandbox started (hostfns/exec, standby.go); this check is what
// holds when one was removed and made again in between.
func checkMounts(p Policy) error {
	if err := checkReadOnly(p.ReadOnly); err != nil {
		return err
	}
	if len(p.Pinned) == 0 {
		return nil
	}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return fmt.Errorf("checking the sandbox's binds: %w", err)
	}
	defer f.Close()
	mounts, err := parseMountInfo(f)
	if err != nil {
		return fmt.Errorf("checking the sandbox's binds: %w", err)
	}
	return checkMountTable(mounts, p)
}

// checkReadOnly checks that each path of paths that exists is on a
// read-only mount, as seen from here (statfs follows symbolic links, as
// bubblewrap's binds do). A path that is not there, a link to nothing,
// or one this process may not even look at (nor may the command, which
// runs as it does) has nothing to keep.
func checkReadOnly(paths []string) error {
	for _, ro := range paths {
		var st unix.Statfs_t
		err := unix.Statfs(ro, &st)
		for errors.Is(err, unix.EINTR) {
			err = unix.Statfs(ro, &st)
		}
		switch {
		case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENOTDIR), errors.Is(err, unix.ELOOP), errors.Is(err, unix.EACCES):
			continue
		case err != nil:
			return fmt.Errorf("checking that %s is read-only: %w", ro, err)
		case st.Flags&unix.ST_RDONLY == 0:
			return fmt.Errorf("%s is not read-only in the sandbox: it appeared after the sandbox was built", ro)
		}
	}
	return nil
}

// mountEntry is one line of /proc/self/mountinfo.
type mountEntry struct {
	id, parent int
	dev        string // the file system's device, major:minor
	root       string // the mounted folder, within its file system
	point      string // where it is mounted
}

func parseMountInfo(r io.Reader) ([]mountEntry, error) {
	var out []mountEntry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 {
			return nil, fmt.Errorf("mountinfo line %q", sc.Text())
		}
		id, err1 := strconv.Atoi(f[0])
		parent, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("mountinfo line %q", sc.Text())
		}
		out = append(out, mountEntry{
			id: id, parent: parent, dev: f[2],
			root: unescapeMount(f[3]), point: unescapeMount(f[4]),
		})
	}
	return out, sc.Err()
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func checkMountTable(mounts []mountEntry, p Policy) error {
	byID := map[int]mountEntry{}
	top := map[string]mountEntry{} // the last mount at each point
	for _, m := range mounts {
		byID[m.id] = m
		top[m.point] = m
	}
	for _, pin := range p.Pinned {
		m, ok := top[pin]
		if !ok {
			return fmt.Errorf("%s is not pinned: it changed while the sandbox was being built", pin)
		}
		parent, ok := byID[m.parent]
		want, in := within(parent, pin)
		if !ok || !in || m.root != want || m.dev != parent.dev {
			return fmt.Errorf("%s is not pinned: the sandbox bound %s there; it changed while the sandbox was being built", pin, m.root)
		}
	}
	return nil
}

// within is what parent's file system calls the folder at point, a path
// under parent's mount point.
func within(parent mountEntry, point string) (string, bool) {
	if !under(point, parent.point) {
		return "", false
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(point, parent.point), "/")
	return path.Join(parent.root, rel), true
}
