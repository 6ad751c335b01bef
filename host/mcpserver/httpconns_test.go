package mcpserver

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"
)

// At most max connections are open: a new one takes the place of the one
// waiting longest for a request, so connections opened and left silent
// never lock a client out; when every one has a request in flight, a new
// connection is closed at once.
func TestConnLimit(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	const max = 4
	conns := newConnLimit(ln, max, slog.New(slog.DiscardHandler))
	release := make(chan struct{})
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/hold" {
				<-release
			}
			io.WriteString(w, "ok")
		}),
		ConnState: conns.track,
	}
	go srv.Serve(conns)
	t.Cleanup(func() { srv.Close() })
	addr := ln.Addr().String()
	get := func(path string) error {
		c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 5 * time.Second}
		res, err := c.Get("http://" + addr + path)
		if err == nil {
			res.Body.Close()
		}
		return err
	}

	// Silent connections: all but max of them are closed by the server.
	closed := make(chan struct{}, 10*max)
	for range 10 * max {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		go func() {
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			if _, err := c.Read(make([]byte, 1)); err == io.EOF {
				closed <- struct{}{}
			}
		}()
	}
	for range 9 * max {
		select {
		case <-closed:
		case <-time.After(5 * time.Second):
			t.Fatalf("%d connections open, more than the cap of %d", conns.count(), max)
		}
	}
	if err := get("/"); err != nil {
		t.Fatalf("a request beside silent connections: %v", err)
	}
	// Its connection closes on the server's side after the answer; once
	// it has, max-1 silent ones are left, the oldest of the rest.
	waitFor(t, "the answered connection is still counted", func() bool { return conns.count() == max-1 })

	held := make(chan error, max)
	for range max {
		go func() { held <- get("/hold") }()
	}
	waitFor(t, "the held requests did not all arrive", func() bool {
		select {
		case err := <-held:
			t.Fatalf("a held request ended: %v", err)
		default:
		}
		conns.mu.Lock()
		defer conns.mu.Unlock()
		busy := 0
		for _, e := range conns.open {
			if e.busy {
				busy++
			}
		}
		return busy == max
	})
	if err := get("/"); err == nil {
		t.Fatal("a request was served with every connection busy")
	}
	if n := conns.count(); n != max {
		t.Fatalf("%d connections open, want %d", n, max)
	}
	close(release)
	for range max {
		if err := <-held; err != nil {
			t.Fatalf("a held request: %v", err)
		}
	}
	if err := get("/"); err != nil {
		t.Fatalf("a request once the others were answered: %v", err)
	}
}
