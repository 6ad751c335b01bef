package test

import (
	"fmt"
	"net"
	"testing"
	"time"
)

// Requests whose bodies drip in hold no place the owner needs. Anyone who
// reaches juju serve — no token needed, /register reads its body before
// anything else — could open as many connections as juju keeps (256) and
// send each a request whose body never ends: every connection then had a
// request "in flight", and the owner's were closed as they came, for as
// long as the dripping went on (each body may take 30 s; new ones follow).
func TestServeDrippingBodiesLockNobodyOut(t *testing.T) {
	srv := startServe(t, workspace(t, map[string]string{"a.txt": "alpha\n"}))
	heads := []string{
		fmt.Sprintf("POST /register HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{", srv.host),
		// With a token, to /mcp, the same.
		fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{", srv.host, srv.token),
	}
	for i := range 260 {
		c, err := net.Dial("tcp", srv.host)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.Write([]byte(heads[i%2]))
	}
	time.Sleep(time.Second) // for juju to read their headers: without them, they are only waiting
	srv.initSession(t, srv.bearer())
}
