//go:build unix

package exec

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// source is what a path bubblewrap binds was: the file at the path itself
// (lstat) and the one it leads to (stat), each by device, inode and type,
// or missing.
type source struct {
	path        string
	lok, ok     bool
	ldev, lino  uint64
	dev, ino    uint64
	lmode, mode uint32
}

// bindSources looks at the source and destination of every bind in
// bubblewrap's command line argv (its options end at "--"), in order.
func bindSources(argv []string) []source {
	var out []source
	look := func(p string) {
		s := source{path: p}
		var st syscall.Stat_t
		if syscall.Lstat(p, &st) == nil {
			s.lok, s.ldev, s.lino, s.lmode = true, uint64(st.Dev), st.Ino, uint32(st.Mode)&syscall.S_IFMT
		}
		if syscall.Stat(p, &st) == nil {
			s.ok, s.dev, s.ino, s.mode = true, uint64(st.Dev), st.Ino, uint32(st.Mode)&syscall.S_IFMT
		}
		out = append(out, s)
	}
	for i := 1; i < len(argv) && argv[i] != "--"; i++ {
		switch argv[i] {
		case "--bind", "--bind-try", "--ro-bind", "--ro-bind-try":
			if i+2 >= len(argv) {
				return out
			}
			look(argv[i+1])
			if argv[i+2] != argv[i+1] {
				look(argv[i+2])
			}
			i += 2
		}
	}
	return out
}

// errStandbyGone: the standby's sandbox ended before its command came.
var errStandbyGone = errors.New("the sandbox built ahead ended before its command came")

// awaitReady waits up to d for the byte a warm standby's helper sends on
// sock once its sandbox is built and it waits for the command.
func awaitReady(sock *os.File, d time.Duration) error {
	fd := int(sock.Fd())
	deadline := time.Now().Add(d)
	for {
		ms := int(time.Until(deadline).Milliseconds())
		if ms <= 0 {
			return fmt.Errorf("the sandbox built ahead was not ready within %v", d)
		}
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, ms)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return fmt.Errorf("waiting for the sandbox built ahead: %w", err)
		}
		if n > 0 {
			break
		}
	}
	var b [1]byte
	for {
		n, err := syscall.Read(fd, b[:])
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return fmt.Errorf("waiting for the sandbox built ahead: %w", err)
		case n == 0:
			return errStandbyGone
		case b[0] != 'R':
			return fmt.Errorf("the sandbox built ahead said %q, not that it is ready", b[0])
		}
		return nil
	}
}

// diskSize is what a log takes on the disk: its size, or the blocks it
// holds when they pass its size by more than a file system's rounding
// (fallocate with FALLOC_FL_KEEP_SIZE allocates blocks past the size, and
// would pass the output cap unseen).
func diskSize(fi os.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		if held := int64(st.Blocks) * 512; held > fi.Size()+1<<20 {
			return held
		}
	}
	return fi.Size()
}
