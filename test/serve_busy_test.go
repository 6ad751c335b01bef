package test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// One OAuth client's calls in flight hold no more than its share of the
// connections juju keeps. A consented client that sent a long call over
// each of 256 connections (job_wait on a job of its own, fully arrived,
// each waiting 50 s) had every connection busy: juju closed each new
// connection at once, the owner's local client's too, for as long as the
// client kept calling. Now the calls past the client's share (32) are
// answered at once with TOO_LARGE saying to wait for the others, and the
// owner, and another OAuth client, are served meanwhile.
func TestServeOneClientsCallsLeaveRoom(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted", "--sandbox", "off")
	g := srv.oauthGrant(t, "busy-oauth", 1)
	hog := map[string]string{"Authorization": "Bearer " + g.token}
	remote := srv.connectWith(t, "busy-oauth-session", "2025-11-25", hog)
	job := structured(t, remote.call("run_command", map[string]any{"command": "sleep 120", "background": true}))
	jobID, _ := job["jobId"].(string)
	if jobID == "" {
		t.Fatalf("run_command: %v", job)
	}
	session := srv.initSession(t, hog)

	const conns = 256
	const share = 32
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"job_wait","arguments":{"jobId":%q,"waitMs":50000}}}`, jobID)
	head := fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nMcp-Session-Id: %s\r\nMcp-Protocol-Version: 2025-11-25\r\n"+
		"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n", srv.host, g.token, session, len(body))
	answers := make(chan string, conns)
	for range conns {
		c, err := net.Dial("tcp", srv.host)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := c.Write([]byte(head + body)); err != nil {
			t.Fatal(err)
		}
		go func() {
			res, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				answers <- "error: " + err.Error()
				return
			}
			defer res.Body.Close()
			b := make([]byte, 4096)
			n, _ := res.Body.Read(b)
			answers <- string(b[:n])
		}()
	}
	// Every call past the share is answered at once; the others wait for
	// the job. Without the share, none is answered for 50 s. (A connection
	// juju had not read yet when it was full may have made room for a new
	// one: it ends unanswered.)
	refused, shed := 0, 0
	deadline := time.After(20 * time.Second)
	for refused+shed < conns-share {
		select {
		case a := <-answers:
			switch {
			case strings.HasPrefix(a, "error: "):
				shed++
			case !strings.Contains(a, `"isError":true`) || !strings.Contains(a, "TOO_LARGE: this client has "+fmt.Sprint(share)+" requests in flight"):
				t.Fatalf("a call past the client's share: %s", a)
			default:
				refused++
			}
		case <-deadline:
			t.Fatalf("%d of %d calls past the client's share were answered (%d connections shed)", refused, conns-share, shed)
		}
	}
	if refused == 0 {
		t.Fatalf("no call was answered TOO_LARGE (%d connections shed)", shed)
	}
	// The owner's local client, and another OAuth client, are served.
	local := srv.connect(t, "busy-local", "2025-11-25")
	if text := text(local.call("read_file", map[string]any{"path": "a.txt"})); !strings.Contains(text, "alpha") {
		t.Fatalf("the owner's read_file: %s", text)
	}
	g2 := srv.oauthGrant(t, "busy-other", 2)
	other := srv.connectWith(t, "busy-other-session", "2025-11-25", map[string]string{"Authorization": "Bearer " + g2.token})
	if text := text(other.call("read_file", map[string]any{"path": "a.txt"})); !strings.Contains(text, "alpha") {
		t.Fatalf("another OAuth client's read_file: %s", text)
	}
	select {
	case a := <-answers:
		t.Fatalf("a call within the share was answered before its job ended: %s", a)
	default:
	}
}
