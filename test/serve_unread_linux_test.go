//go:build linux

package test

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Answers nobody reads hold no place the owner needs. Anyone who reaches
// juju serve — a local process without the token, no token needed for
// GET /authorize — could open as many connections as juju keeps (256) and
// on each send requests one after the other (HTTP/1.1 pipelining) while
// reading no answer: once the socket's buffers were full, juju's write of
// an answer waited on the client, up to a minute, the connection counted
// as serving, and juju closed the owner's connections as they came, for as
// long as the flood went on. A small window and small segments on the
// client's side keep juju's send buffer small, so a few dozen answers fill
// it.
func TestServeUnreadAnswersLockNobodyOut(t *testing.T) {
	srv := startServe(t, workspace(t, map[string]string{"a.txt": "alpha\n"}))
	d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		var err error
		cerr := rc.Control(func(fd uintptr) {
			err = errors.Join(syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 1024),
				syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_MAXSEG, 536))
		})
		return errors.Join(cerr, err)
	}}
	reqs := []byte(strings.Repeat(fmt.Sprintf("GET /authorize HTTP/1.1\r\nHost: %s\r\n\r\n", srv.host), 120))
	for range 260 {
		c, err := d.Dial("tcp", srv.host)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.Write(reqs)
	}
	time.Sleep(2 * time.Second) // for juju to serve what it can: then every write of it waits
	srv.initSession(t, srv.bearer())
}
