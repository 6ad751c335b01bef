package test

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// tunnel stands for a tunnel (cloudflared, ngrok) between a client and
// juju serve: it forwards each connection it accepts to juju, until
// frozen. A frozen tunnel, like one whose far end went away without a
// word, forwards nothing more either way and closes nothing, yet goes on
// reading what juju writes, so that no write of juju's ever fails.
type tunnel struct {
	ln     net.Listener
	frozen atomic.Bool
	mu     sync.Mutex
	// ended closes when juju has closed the connection it was accepted
	// for, by the order connections were accepted.
	ended []chan struct{}
}

func newTunnel(t *testing.T, target string) *tunnel {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tunnel{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			t.Cleanup(func() { c.Close(); up.Close() })
			ended := make(chan struct{})
			p.mu.Lock()
			p.ended = append(p.ended, ended)
			p.mu.Unlock()
			go p.pipe(up, c, nil)
			go p.pipe(c, up, ended)
		}
	}()
	return p
}

// pipe copies from src to dst until src ends, dropping what it reads once
// the tunnel is frozen; ended, when given, closes as src ends.
func (p *tunnel) pipe(dst, src net.Conn, ended chan struct{}) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !p.frozen.Load() {
			dst.Write(buf[:n])
		}
		if err != nil {
			if ended != nil {
				close(ended)
			}
			return
		}
	}
}

// A client whose GET stream a tunnel dropped without a word (the
// connection half-open: juju still holds its end, nothing reaches the
// client) opens a new one on its session, and gets it: the new stream
// replaces the old, whose connection juju closes, so that requests and
// notifications for the client go where the client listens. Only the
// session's own principal may do so: another's GET with the session's id
// is refused (404) and the stream it names stays open. A stream younger
// than 10 s is not replaced (409), so a client's two streams cannot end
// each other in turn.
func TestServeGetStreamReplacedAfterTunnelDrop(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "inspect")
	g := srv.oauthGrant(t, "through-a-tunnel", 1)
	b := map[string]string{"Authorization": "Bearer " + g.token}
	sh := merge(b, map[string]string{"Mcp-Session-Id": srv.initSession(t, b)})

	tun := newTunnel(t, srv.host)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", "http://"+tun.ln.Addr().String()+"/mcp", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = srv.host // the tunnel forwards juju's own Host
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	for k, v := range sh {
		req.Header.Set(k, v)
	}
	// A keep-alive connection, as a tunnel's: juju must close it itself.
	keep := &http.Transport{}
	t.Cleanup(keep.CloseIdleConnections)
	old, err := (&http.Client{Transport: keep}).Do(req)
	if err != nil || old.StatusCode != 200 {
		t.Fatalf("the GET stream through the tunnel: %v %v", old, err)
	}
	go io.Copy(io.Discard, old.Body)
	tun.frozen.Store(true)
	// A client finds its stream gone long after it opened: a stream
	// younger than 10 s is not replaced (below).
	time.Sleep(10*time.Second + 500*time.Millisecond)

	res, err := srv.openGet(t, sh)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		res.Body.Close()
		t.Fatalf("the client's new GET stream while the old one hangs in a dropped tunnel: %d, want 200", res.StatusCode)
	}
	current := drain(res)
	tun.mu.Lock()
	oldEnded := tun.ended[0]
	tun.mu.Unlock()
	select {
	case <-oldEnded:
	case <-time.After(5 * time.Second):
		t.Fatal("juju still holds the replaced GET stream's connection 5 s after the new stream opened")
	}

	other := srv.oauthGrant(t, "another-client", 2)
	for _, hdr := range []map[string]string{
		{"Authorization": "Bearer " + other.token},
		srv.bearer(),
	} {
		res, err := srv.openGet(t, merge(hdr, map[string]string{"Mcp-Session-Id": sh["Mcp-Session-Id"]}))
		if err != nil || res.StatusCode != http.StatusNotFound {
			t.Fatalf("another principal's GET on the session: %v %v, want 404", res, err)
		}
		res.Body.Close()
	}
	select {
	case <-current:
		t.Fatal("another principal's GET on the session ended the session's GET stream")
	case <-time.After(time.Second):
	}

	// The session's own principal may not replace a stream seconds old:
	// two streams of one client would replace each other in turn.
	res, err = srv.openGet(t, sh)
	if err != nil || res.StatusCode != http.StatusConflict {
		t.Fatalf("the client's third GET stream, seconds after the second: %v %v, want 409", res, err)
	}
	res.Body.Close()
	select {
	case <-current:
		t.Fatal("a GET stream refused as too soon ended the session's stream")
	case <-time.After(time.Second):
	}
}
