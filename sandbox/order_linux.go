package sandbox

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"syscall"
)

// orderFD is the descriptor a standby reaper reads its order on: the
// first of exec.Cmd.ExtraFiles.
const orderFD = 3

// OrderSocket returns the two ends of a new socket for a standby reaper:
// juju keeps the first and hands the order on it (HandOrder); the second
// goes to the reaper at descriptor 3, and juju closes its copy once the
// reaper has started. Both are close-on-exec.
func OrderSocket() (juju, reaper *os.File, err error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("creating a standby reaper's socket: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "order"), os.NewFile(uintptr(fds[1]), "order"), nil
}

// HandOrder hands the standby reaper at the other end of sock the
// program at path with argv, env and dir, and the descriptors it runs
// with: stdout, stderr, then the kept ones (at 3 onwards, as ReaperArgs'
// --keep). The descriptors cross in the same message as the order's first
// bytes (SCM_RIGHTS); the caller may close its own copies afterwards.
func HandOrder(sock *os.File, path string, argv, env []string, dir string, stdout, stderr *os.File, kept []*os.File) error {
	if len(kept) > maxOrderFiles-2 {
		return fmt.Errorf("%d descriptors to keep, more than %d", len(kept), maxOrderFiles-2)
	}
	msg := order{Path: path, Dir: dir, Args: argv, Env: env}.encode()
	if len(msg)-4 > maxOrderBytes {
		return fmt.Errorf("the command and its environment take %d bytes, more than %d", len(msg)-4, maxOrderBytes)
	}
	fds := []int{int(stdout.Fd()), int(stderr.Fd())}
	for _, f := range kept {
		fds = append(fds, int(f.Fd()))
	}
	s := int(sock.Fd())
	var sent int
	for {
		n, err := syscall.SendmsgN(s, msg, syscall.UnixRights(fds...), nil, 0)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return fmt.Errorf("handing a standby reaper its command: %w", err)
		}
		sent = n
		break
	}
	for sent < len(msg) { // a stream socket may take a long order in parts
		n, err := syscall.Write(s, msg[sent:])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return fmt.Errorf("handing a standby reaper its command: %w", err)
		}
		sent += n
	}
	runtime.KeepAlive(stdout)
	runtime.KeepAlive(stderr)
	runtime.KeepAlive(kept)
	runtime.KeepAlive(sock)
	return nil
}

// receiveOrder reads the order on the socket at fd, and closes fd: the
// command inherits nothing of it. The descriptors come close-on-exec,
// stdout and stderr first; io.EOF is juju closing the socket with no
// order.
func receiveOrder(fd int) (order, []*os.File, error) {
	defer syscall.Close(fd)
	buf := make([]byte, 64<<10)
	oob := make([]byte, syscall.CmsgSpace(4*maxOrderFiles))
	var n, oobn, flags int
	var err error
	for {
		n, oobn, flags, _, err = syscall.Recvmsg(fd, buf, oob, syscall.MSG_CMSG_CLOEXEC)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return order{}, nil, fmt.Errorf("reading the command: %w", err)
	}
	files, ferr := rightsOf(oob[:oobn])
	fail := func(err error) (order, []*os.File, error) {
		for _, f := range files[min(len(files), 2):] {
			f.Close()
		}
		return order{}, files[:min(len(files), 2)], err
	}
	switch {
	case n == 0 && oobn == 0:
		return order{}, nil, io.EOF
	case ferr != nil:
		return fail(ferr)
	case flags&syscall.MSG_CTRUNC != 0 || len(files) < 2:
		return fail(fmt.Errorf("%w: the command came with %d descriptors", errBadOrder, len(files)))
	}
	msg := buf[:n]
	for len(msg) < 4 || len(msg) < 4+int(binary.LittleEndian.Uint32(msg)) {
		if len(msg) >= 4 && binary.LittleEndian.Uint32(msg) > maxOrderBytes {
			return fail(fmt.Errorf("%w: %d bytes", errBadOrder, binary.LittleEndian.Uint32(msg)))
		}
		if len(msg) == cap(msg) {
			msg = append(msg, make([]byte, len(msg))...)[:len(msg)]
		}
		m, err := syscall.Read(fd, msg[len(msg):cap(msg)])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return fail(fmt.Errorf("reading the command: %w", err))
		}
		if m == 0 {
			return fail(fmt.Errorf("%w: it ends early", errBadOrder))
		}
		msg = msg[:len(msg)+m]
	}
	body := msg[4:]
	if len(body) != int(binary.LittleEndian.Uint32(msg)) {
		return fail(fmt.Errorf("%w: bytes after it", errBadOrder))
	}
	o, err := decodeOrder(body)
	if err != nil {
		return fail(err)
	}
	return o, files, nil
}

// rightsOf returns the descriptors passed in control messages oob.
func rightsOf(oob []byte) ([]*os.File, error) {
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errBadOrder, err)
	}
	var files []*os.File
	for _, m := range msgs {
		fds, err := syscall.ParseUnixRights(&m)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			files = append(files, os.NewFile(uintptr(fd), "order"))
		}
	}
	return files, nil
}

// awaitOrder is the helper's side of a sandbox built ahead of its command
// (HelperMain with --await): it says on the socket at fd that the sandbox
// is ready (one byte), waits for the order juju hands it there, puts the
// order's stdout and stderr in place of its own, and changes to the
// order's folder. It returns the command's arguments; the program is
// looked up again inside the sandbox, and the environment is the
// sandbox's own (juju hands a command only to a sandbox started with the
// command's environment). io.EOF is juju closing the socket unused.
func awaitOrder(fd int) ([]string, error) {
	for {
		_, err := syscall.Write(fd, []byte{ready})
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			syscall.Close(fd)
			return nil, fmt.Errorf("saying the sandbox is ready: %w", err)
		}
		break
	}
	o, files, err := receiveOrder(fd)
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	if len(files) >= 2 { // even a bad order's error reaches its stderr
		if derr := syscall.Dup3(int(files[1].Fd()), 2, 0); derr != nil && err == nil {
			err = fmt.Errorf("taking the command's stderr: %w", derr)
		}
	}
	switch {
	case err != nil:
		return nil, err
	case len(files) != 2:
		return nil, fmt.Errorf("%w: %d descriptors where stdout and stderr were expected", errBadOrder, len(files))
	case !strings.HasPrefix(o.Dir, "/"):
		return nil, fmt.Errorf("%w: the working folder %q is not absolute", errBadOrder, o.Dir)
	}
	if err := syscall.Dup3(int(files[0].Fd()), 1, 0); err != nil {
		return nil, fmt.Errorf("taking the command's stdout: %w", err)
	}
	if err := syscall.Chdir(o.Dir); err != nil {
		return nil, fmt.Errorf("changing to %s: %w", o.Dir, err)
	}
	return o.Args, nil
}

// ready is the byte a sandbox built ahead of its command sends once it
// waits for the order.
const ready = 'R'
