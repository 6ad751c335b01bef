package test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// openGet sends a GET for a session's event stream with hdr; the request
// is cancelled at cleanup, and the caller closes the body.
func (s *server) openGet(t *testing.T, hdr map[string]string) (*http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", s.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	return streamClient.Do(req)
}

// streamClient opens every stream on a connection of its own.
var streamClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// drain reads a stream's body in the background; the channel closes when
// it ends.
func drain(res *http.Response) <-chan struct{} {
	ended := make(chan struct{})
	go func() {
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		close(ended)
	}()
	return ended
}

// A tool call over 8 MiB keeps its session tied to the OAuth token it came
// with: after `juju clients revoke`, the session's GET stream ends within
// the 10 s recheck, as it does without the large body.
func TestServeRevokedAfterTooLargeBody(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted")
	g := srv.oauthGrant(t, "large-then-revoked", 1)
	b := map[string]string{"Authorization": "Bearer " + g.token}
	sh := merge(b, map[string]string{"Mcp-Session-Id": srv.initSession(t, b), "Mcp-Protocol-Version": "2025-11-25"})
	res, err := srv.openGet(t, sh)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET stream: %v %v", res, err)
	}
	ended := drain(res)
	big := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"` + strings.Repeat("a", 9<<20) + `"}}}`
	if res, body := srv.raw(t, "POST", "/mcp", big, sh); res.StatusCode != 200 || !strings.Contains(body, "TOO_LARGE") {
		t.Fatalf("a tool call over 8 MiB: %d %.200s", res.StatusCode, body)
	}
	juju(t, srv.home, root, "clients", "revoke", g.client)
	revoked := time.Now()
	select {
	case <-ended:
		t.Logf("the GET stream ended %s after the revocation", time.Since(revoked).Round(time.Second))
	case <-time.After(15 * time.Second):
		t.Fatal("the revoked client's GET stream is open 15 s after juju clients revoke (the recheck runs every 10 s)")
	}
}
