package fetch

import (
	"encoding/binary"
	"errors"
	"net/netip"
	"syscall"

	"golang.org/x/sys/unix"
)

// localRoute reports whether the kernel routes a to this machine itself:
// whether the route it would use is of type local (RTN_LOCAL). That holds
// for the addresses of the machine's interfaces, and also for whole blocks
// routed locally (`ip route add local 9.9.9.0/24 dev lo`, "AnyIP"), which
// no interface lists. It asks the kernel with one RTM_GETROUTE message
// over netlink, as `ip route get` does.
func localRoute(a netip.Addr) (bool, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE)
	if err != nil {
		return false, err
	}
	defer unix.Close(fd)
	// The kernel answers at once; the timeout is a guard, not a wait.
	if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &unix.Timeval{Sec: 1}); err != nil {
		return false, err
	}
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return false, err
	}
	family := byte(unix.AF_INET6)
	if a.Is4() {
		family = unix.AF_INET
	}
	dst := a.AsSlice()
	attr := unix.SizeofRtAttr + len(dst)
	req := make([]byte, unix.SizeofNlMsghdr+unix.SizeofRtMsg+(attr+unix.RTA_ALIGNTO-1)&^(unix.RTA_ALIGNTO-1))
	ne := binary.NativeEndian
	ne.PutUint32(req[0:], uint32(len(req)))
	ne.PutUint16(req[4:], unix.RTM_GETROUTE)
	ne.PutUint16(req[6:], unix.NLM_F_REQUEST)
	ne.PutUint32(req[8:], 1) // sequence number
	rtm := req[unix.SizeofNlMsghdr:]
	rtm[0], rtm[1] = family, byte(a.BitLen()) // rtm_family, rtm_dst_len; the rest zero
	rta := rtm[unix.SizeofRtMsg:]
	ne.PutUint16(rta[0:], uint16(attr))
	ne.PutUint16(rta[2:], unix.RTA_DST)
	copy(rta[unix.SizeofRtAttr:], dst)
	if err := unix.Sendto(fd, req, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return false, err
	}
	buf := make([]byte, 4096)
	n, _, err := unix.Recvfrom(fd, buf, 0)
	if err != nil {
		return false, err
	}
	msgs, err := syscall.ParseNetlinkMessage(buf[:n])
	if err != nil {
		return false, err
	}
	for _, m := range msgs {
		switch {
		case m.Header.Type == unix.NLMSG_ERROR && len(m.Data) >= 4:
			return false, syscall.Errno(-int32(ne.Uint32(m.Data))) // no route: not local
		case m.Header.Type == unix.RTM_NEWROUTE && len(m.Data) >= unix.SizeofRtMsg:
			return m.Data[7] == unix.RTN_LOCAL, nil // rtm_type
		}
	}
	return false, errors.New("no route in the kernel's answer")
}
