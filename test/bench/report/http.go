package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// httpServer is one running `juju serve` driven with net/http over
// keep-alive connections, with raw JSON-RPC bodies (no MCP client library).
type httpServer struct {
	cmd     *exec.Cmd
	url     string
	token   string
	client  *http.Client
	spawned time.Time
	stderr  *tail
}

var servingRE = regexp.MustCompile(`juju: serving MCP at (\S+)`)

// startServe spawns `juju serve --addr 127.0.0.1:0` over root and returns
// once it has said where it serves.
func (b *bench) startServe(home, root string) (*httpServer, error) {
	cmd := exec.Command(b.opts.bin, "serve", "--root", root, "--addr", "127.0.0.1:0", "--mode", "trusted")
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	s := &httpServer{cmd: cmd, stderr: &tail{max: 8 << 10}, client: &http.Client{
		Transport: &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256, IdleConnTimeout: time.Minute},
		Timeout:   rpcTimeout,
	}}
	s.spawned = time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting juju serve: %w", err)
	}
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		s.stderr.Write([]byte(sc.Text() + "\n"))
		if m := servingRE.FindStringSubmatch(sc.Text()); m != nil {
			s.url = m[1]
			break
		}
	}
	go io.Copy(s.stderr, pipe)
	if s.url == "" {
		s.kill()
		return nil, fmt.Errorf("juju serve did not say where it serves: %s", s.stderr)
	}
	tok, err := os.ReadFile(filepath.Join(home, "config", "token"))
	if err != nil {
		s.kill()
		return nil, err
	}
	s.token = strings.TrimSpace(string(tok))
	return s, nil
}

func (s *httpServer) kill() {
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.client.CloseIdleConnections()
}

// httpSession is one MCP session of a juju serve.
type httpSession struct {
	s  *httpServer
	id string
	n  int64
}

// post sends one JSON-RPC message and returns the answer's body.
func (h *httpSession) post(body []byte) ([]byte, http.Header, error) {
	req, err := http.NewRequest("POST", h.s.url, bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+h.s.token)
	if h.id != "" {
		req.Header.Set("Mcp-Session-Id", h.id)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	res, err := h.s.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err == nil && res.StatusCode >= 300 {
		err = fmt.Errorf("juju serve: HTTP %d: %.200s", res.StatusCode, out)
	}
	return out, res.Header, err
}

// initialize opens a session (the handshake of 2025-11-25).
func (s *httpServer) initialize() (*httpSession, error) {
	h := &httpSession{s: s}
	_, hdr, err := h.post([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":` + string(initParams) + `}`))
	if err != nil {
		return nil, err
	}
	if h.id = hdr.Get("Mcp-Session-Id"); h.id == "" {
		return nil, errors.New("juju serve: initialize answered without a session id")
	}
	_, _, err = h.post([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	return h, err
}

// call sends one tools/call and returns how long its answer took.
func (h *httpSession) call(params json.RawMessage) (time.Duration, error) {
	h.n++
	body := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, h.n, params)
	t := time.Now()
	out, _, err := h.post(body)
	d := time.Since(t)
	if err != nil {
		return 0, err
	}
	if bytes.Contains(out, []byte(`"isError":true`)) || !bytes.Contains(out, []byte(`"result"`)) {
		return 0, fmt.Errorf("juju serve: %.300s", out)
	}
	return d, nil
}

// rawConn is one keep-alive HTTP/1.1 connection of a session, written and
// read by the calling goroutine alone: the request's bytes out, the answer
// parsed with http.ReadResponse. net/http's client hands every request to
// the connection's writing goroutine and its answer back from the reading
// one, about 0.1 ms a call on 2 cores, which is the client's cost and not
// what juju's transport adds; the stdio lines are timed over bare pipes
// for the same reason.
type rawConn struct {
	h    *httpSession
	conn net.Conn
	r    *bufio.Reader
	host string
	path string
}

// dialRaw opens a raw connection for the session's calls.
func (h *httpSession) dialRaw() (*rawConn, error) {
	u, err := url.Parse(h.s.url)
	if err != nil {
		return nil, err
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		return nil, err
	}
	return &rawConn{h: h, conn: conn, r: bufio.NewReaderSize(conn, 64<<10), host: u.Host, path: u.RequestURI()}, nil
}

func (c *rawConn) Close() error { return c.conn.Close() }

// call sends one tools/call, as httpSession.call does, and returns how
// long its answer took.
func (c *rawConn) call(params json.RawMessage) (time.Duration, error) {
	h := c.h
	h.n++
	body := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, h.n, params)
	req := fmt.Appendf(nil, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nAuthorization: Bearer %s\r\nMcp-Session-Id: %s\r\n"+
		"Mcp-Protocol-Version: 2025-11-25\r\nContent-Length: %d\r\n\r\n%s", c.path, c.host, h.s.token, h.id, len(body), body)
	if err := c.conn.SetDeadline(time.Now().Add(rpcTimeout)); err != nil {
		return 0, err
	}
	t := time.Now()
	if _, err := c.conn.Write(req); err != nil {
		return 0, err
	}
	res, err := http.ReadResponse(c.r, nil)
	if err != nil {
		return 0, err
	}
	out, err := io.ReadAll(res.Body)
	res.Body.Close()
	d := time.Since(t)
	switch {
	case err != nil:
		return 0, err
	case res.StatusCode >= 300:
		return 0, fmt.Errorf("juju serve: HTTP %d: %.200s", res.StatusCode, out)
	case bytes.Contains(out, []byte(`"isError":true`)) || !bytes.Contains(out, []byte(`"result"`)):
		return 0, fmt.Errorf("juju serve: %.300s", out)
	}
	return d, nil
}

// httpLines are the HTTP lines: spawn → first HTTP initialize, a tiny
// read_file per call over HTTP keep-alive against stdio in the same run,
// and 24 concurrent HTTP clients against one.
func (b *bench) httpLines() []row {
	return []row{b.spawnHTTP(), b.steadyHTTP(), b.concurrentHTTP()}
}

// spawnHTTP is line 1h: spawn `juju serve` → first HTTP initialize
// answered, against spawn `juju stdio` → initialize answered.
func (b *bench) spawnHTTP() row {
	r := row{ID: "1h", Work: "spawn juju serve → HTTP initialize answered", Unit: "ms", Target: target{Limit: 30},
		Via:     "fresh `juju serve --addr 127.0.0.1:0` each run, warm cache; address read from its stderr; raw JSON-RPC over HTTP",
		Against: "juju stdio spawned the same way → initialize answered (line 1)"}
	b.progress("%s, n=%d each", r.Work, b.opts.runs)
	js, bs, err := pair(b.opts.runs, func() (time.Duration, error) {
		s, err := b.startServe(b.warmHome, b.ws)
		if err != nil {
			return 0, err
		}
		defer s.kill()
		if _, err := s.initialize(); err != nil {
			return 0, fmt.Errorf("%w\n%s", err, s.stderr)
		}
		return time.Since(s.spawned), nil
	}, func() (time.Duration, error) { return once(b.juju(b.warmHome, b.ws), untilInitialized) })
	return r.with(js, bs, err)
}

// steadyHTTP is line 3h: the tiny read_file of line 3, per call over one
// HTTP keep-alive connection, against the same call over stdio. The SPEC
// sets no HTTP figure; the target bounds what the transport adds.
func (b *bench) steadyHTTP() row {
	r := row{ID: "3h", Work: "tiny read_file, per call over HTTP keep-alive", Unit: "ms", Target: target{Limit: 1.5, OnRatio: true},
		Via:     "one warm juju serve, one session, sequential calls on a keep-alive connection written and read by the calling goroutine (no net/http client), raw JSON-RPC",
		Against: "juju stdio, same calls, same run (line 3's process)"}
	if b.jujuRead == nil {
		r.Err = "no steady-state juju stdio process to compare with"
		return r
	}
	s, err := b.startServe(b.warmHome, b.ws)
	if err != nil {
		return r.with(nil, nil, err)
	}
	defer s.kill()
	h, err := s.initialize()
	if err != nil {
		return r.with(nil, nil, err)
	}
	c, err := h.dialRaw()
	if err != nil {
		return r.with(nil, nil, err)
	}
	defer c.Close()
	b.progress("steady read_file over HTTP vs stdio, up to %d calls each", b.opts.calls)
	const block, minCalls = 50, 100
	warmup := min(200, b.opts.calls/4+1)
	var js, bs sample
	began := time.Now()
	for i := 0; i < warmup+b.opts.calls; i += block {
		if len(js) >= minCalls && time.Since(began) > b.opts.maxTime {
			b.progress("  time cap reached after %d calls each", len(js))
			break
		}
		for k := 0; k < block; k++ {
			d, err := c.call(readFileParams)
			if err != nil {
				return r.with(nil, nil, err)
			}
			e, err := timedCall(b.jujuRead, readFileParams)
			if err != nil {
				return r.with(nil, nil, err)
			}
			if i+k >= warmup {
				js, bs = append(js, d), append(bs, e)
			}
		}
	}
	return r.with(js, bs, nil)
}

// concurrentClients is the number of clients of line 3c.
const concurrentClients = 24

// concurrentHTTP is line 3c: 24 clients at once, each in its own session
// and connection, each making sequential read_file calls; the figure is
// the wall time per call (elapsed / all calls), against one client alone.
// Below 1x, the clients gain from running side by side.
func (b *bench) concurrentHTTP() row {
	r := row{ID: "3c", Work: fmt.Sprintf("%d concurrent HTTP clients, tiny read_file, wall time per call", concurrentClients), Unit: "ms",
		Target:  target{Limit: 1.5, OnRatio: true},
		Via:     fmt.Sprintf("one warm juju serve, %d sessions on their own keep-alive connections calling at once; elapsed time / calls", concurrentClients),
		Against: "one HTTP client alone on the same server, sequential calls; elapsed time / calls"}
	s, err := b.startServe(b.warmHome, b.ws)
	if err != nil {
		return r.with(nil, nil, err)
	}
	defer s.kill()
	sessions := make([]*httpSession, concurrentClients)
	for i := range sessions {
		if sessions[i], err = s.initialize(); err != nil {
			return r.with(nil, nil, err)
		}
	}
	perClient := max(50, min(b.opts.calls/concurrentClients, 200))
	b.progress("%d concurrent HTTP clients, %d calls each, n=%d", concurrentClients, perClient, max(3, b.opts.runs/5))
	run := func(clients []*httpSession) (time.Duration, error) {
		var wg sync.WaitGroup
		errs := make(chan error, len(clients))
		t := time.Now()
		for _, h := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range perClient {
					if _, err := h.call(readFileParams); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			return 0, err
		}
		return time.Since(t) / time.Duration(len(clients)*perClient), nil
	}
	if _, err := run(sessions); err != nil { // warm-up
		return r.with(nil, nil, err)
	}
	js, bs, err := pair(max(3, b.opts.runs/5),
		func() (time.Duration, error) { return run(sessions) },
		func() (time.Duration, error) { return run(sessions[:1]) })
	return r.with(js, bs, err)
}
