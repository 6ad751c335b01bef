package test

import (
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
)

// An OAuth client that sends initialize and hangs up before the answer,
// over and over, leaves no session behind. juju serve made a session for
// each, given to nobody (the answer that gives it was never written), and
// such sessions, in no client's share, filled the table of 64: the owner's
// own clients got 503 for ten minutes, however few sessions the client was
// allowed. A body that takes a moment to read makes juju see the hang-up
// before it answers.
func TestServeHungUpInitializeLeavesNoSession(t *testing.T) {
	srv := startServe(t, workspace(t, map[string]string{"a.txt": "alpha\n"}))
	g := srv.oauthGrant(t, "hangs up", 1)
	pad := strings.Repeat(`{"a":1},`, 16<<10)
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",` +
		`"capabilities":{"experimental":{"pad":[` + pad + `{}]}},"clientInfo":{"name":"hangs up","version":"1"}}}`
	req := fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", srv.host, g.token, len(body), body)
	for range 70 {
		c, err := net.Dial("tcp", srv.host)
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte(req))
		c.(*net.TCPConn).CloseWrite() // gone before the answer
		io.Copy(io.Discard, c)
		c.Close()
	}
	srv.initSession(t, srv.bearer())
	srv.initSession(t, map[string]string{"Authorization": "Bearer " + g.token})
}
