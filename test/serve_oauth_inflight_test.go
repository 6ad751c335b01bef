//go:build unix

package test

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

var approveRE = regexp.MustCompile(`juju approvals approve ([A-Za-z0-9_-]+)`)

// `juju clients revoke` ends the revoked client's calls in flight. Ending
// its sessions through mcp-go did not end a POST already running: a call
// held for the owner's approval in the terminal waited on, answered the
// revoked client when the wait ended, and ran if the owner approved it
// meanwhile. Now the call ends with the revocation check (every ten
// seconds), answered 401 invalid_token, and approving it afterwards runs
// nothing.
func TestServeRevokeEndsCallsInFlight(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	home := t.TempDir()
	writeConfig(t, home, "[approvals]\ntimeoutMs = 120000\naskInClient = false\n")
	srv := startServeHome(t, home, root, "--mode", "edit", "--sandbox", "off")
	g := srv.oauthGrant(t, "revoke-in-flight", 1)
	hdr := map[string]string{"Authorization": "Bearer " + g.token}
	sid := srv.initSession(t, hdr)

	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	got := postAside(ctx, srv.url, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"touch revoked-ran.txt"}}}`,
		merge(hdr, map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25"}))

	var id string
	for deadline := time.Now().Add(30 * time.Second); id == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if m := approveRE.FindStringSubmatch(srv.log.String()); m != nil {
			id = m[1]
		}
	}
	if id == "" {
		t.Fatalf("the call did not wait for the owner's approval:\n%s", srv.log)
	}
	juju(t, home, root, "clients", "revoke", g.client)
	revoked := time.Now()
	// Well within the approval timeout (120 s), past a few rechecks (10 s)
	// on a loaded machine.
	select {
	case a := <-got:
		t.Logf("the call ended %s after juju clients revoke", time.Since(revoked).Round(time.Millisecond))
		if a.err != nil || a.status != http.StatusUnauthorized || !strings.Contains(a.body, "invalid_token") {
			t.Errorf("the revoked client's call in flight: %d %q %v, want 401 invalid_token", a.status, a.body, a.err)
		}
	case <-time.After(50 * time.Second):
		t.Errorf("the revoked client's call still waits for approval 50 s after juju clients revoke")
	}
	// The owner approves the call afterwards: it does not run.
	jujuErr(home, root, "approvals", "approve", "--yes", id)
	select {
	case a := <-got:
		t.Errorf("the revoked client got an answer after the owner approved: %d %s", a.status, a.body)
	case <-time.After(3 * time.Second):
	}
	mustNotExist(t, root, "revoked-ran.txt")
}

// postedAnswer is what an HTTP POST made aside got: its status and body, or
// the error that ended it.
type postedAnswer struct {
	status int
	body   string
	err    error
}

// postAside POSTs body to url with headers (and MCP's content type and
// accept list) on a goroutine of its own, and hands its answer over when
// it comes, so a test can act while the call runs.
func postAside(ctx context.Context, url, body string, headers map[string]string) <-chan postedAnswer {
	got := make(chan postedAnswer, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
		for k, v := range merge(headers, map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}) {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			got <- postedAnswer{err: err}
			return
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		got <- postedAnswer{res.StatusCode, string(b), err}
	}()
	return got
}
