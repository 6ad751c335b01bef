package mcpserver

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestBodyDripIsCutOff holds the front to "bodies within 30 s, so a
// connection that drips bytes is cut off", token or no token: a request
// that announces a body and sends a few bytes of it gets its answer within
// BodyTimeout (or at once, for a refusal that reads nothing), and its
// connection is closed. net/http reads the rest of a short body a handler
// left unread before it answers; without a deadline and Connection: close
// that read waited for the client for ever.
func TestBodyDripIsCutOff(t *testing.T) {
	const timeout = 300 * time.Millisecond
	rig := newRig(t, "", Limits{BodyTimeout: timeout})
	srv := httptest.NewServer(rig.front)
	defer srv.Close()
	for _, c := range []struct {
		name, head string
		status     int
	}{
		{"no token", "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:7777\r\n", 401},
		{"a refused origin", "POST /mcp HTTP/1.1\r\nHost: evil.example\r\n", 403},
		{"a token, a body that stops", "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:7777\r\nAuthorization: Bearer " + testToken + "\r\n", 408},
		{"the OAuth endpoint", "POST /oauth-test HTTP/1.1\r\nHost: 127.0.0.1:7777\r\n", 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			io.WriteString(conn, c.head+"Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{\"a")
			start := time.Now()
			conn.SetReadDeadline(time.Now().Add(10 * timeout))
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("no answer within %v: %v", 10*timeout, err)
			}
			io.Copy(io.Discard, res.Body)
			if res.StatusCode != c.status {
				t.Errorf("status %d, want %d", res.StatusCode, c.status)
			}
			// The connection ends: a read sees its end, not the deadline.
			if _, err := conn.Read(make([]byte, 1)); err == nil || strings.Contains(err.Error(), "timeout") {
				t.Errorf("the connection stayed open after the answer (%v)", err)
			}
			if d := time.Since(start); d > 3*timeout {
				t.Errorf("took %v to cut off a dripping body (BodyTimeout %v)", d, timeout)
			}
		})
	}
}
