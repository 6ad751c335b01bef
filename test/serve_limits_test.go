package test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// 24 clients at once, each in its own session (or stateless), each
// reading and writing: every call answers, and each write lands once.
func TestServeConcurrentSessions(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "shared\n"})
	srv := startServe(t, root, "--mode", "trusted")
	const n = 24
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			version := []string{"2025-11-25", "2025-03-26", mcp.LATEST_PROTOCOL_VERSION}[i%3]
			s := srv.connect(t, fmt.Sprintf("client-%d", i), version)
			for j := range 3 {
				res, err := s.callErr("read_file", map[string]any{"path": "a.txt"})
				if err != nil || res.IsError || !strings.Contains(text(res), "shared") {
					errs <- fmt.Errorf("client %d read %d: %v %v", i, j, err, res)
					return
				}
			}
			res, err := s.callErr("write_file", map[string]any{"path": fmt.Sprintf("c%02d.txt", i), "content": fmt.Sprint(i)})
			if err != nil || res.IsError {
				errs <- fmt.Errorf("client %d write: %v %v", i, err, res)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range n {
		if !fileExists(root, fmt.Sprintf("c%02d.txt", i)) {
			t.Errorf("client %d's write is missing", i)
		}
	}
}

// A body over the cap (8 MiB) but within 64 MiB is read to its end, unkept,
// and a tool call in it is answered as that call, with TOO_LARGE, as stdio
// answers a line too long: a client reports a 413 as a failed request, not
// as a result the model can act on. A larger body is refused with 413.
// Either way, declared length or not, the call does not run, the refusal
// is audited, and the server goes on serving; malformed bodies get a 4xx
// or a JSON-RPC parse error, never a 5xx.
func TestServeBodies(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	srv := startServe(t, root, "--mode", "trusted")
	sid := srv.initSession(t, srv.bearer())
	sess := merge(srv.bearer(), map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25", "Content-Type": "application/json"})

	call := func(size int) string {
		return `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"pwned-big.txt","content":"` +
			strings.Repeat("x", size) + `"}}}`
	}
	post := func(body string, declared bool) (*http.Response, string, error) {
		var r io.Reader = strings.NewReader(body)
		if !declared {
			r = io.MultiReader(strings.NewReader(body)) // no length: sent chunked
		}
		req, _ := http.NewRequest("POST", srv.url, r)
		for k, v := range sess {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, "", err
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, string(b), nil
	}
	for _, declared := range []bool{true, false} {
		start := time.Now()
		res, body, err := post(call(50<<20), declared)
		if err != nil {
			t.Fatalf("50 MB body (length declared %v): %v", declared, err)
		}
		var msg struct {
			ID     int                `json:"id"`
			Result mcp.CallToolResult `json:"result"`
		}
		if res.StatusCode != 200 || json.Unmarshal([]byte(body), &msg) != nil || msg.ID != 9 || !msg.Result.IsError ||
			!strings.Contains(body, "TOO_LARGE: this call to write_file was larger than 8 MiB") {
			t.Fatalf("50 MB body (length declared %v): %d %.300s", declared, res.StatusCode, body)
		}
		t.Logf("50 MB body (length declared %v) answered in %v", declared, time.Since(start))

		res, body, err = post(call(80<<20), declared)
		if err == nil && res.StatusCode != 413 {
			t.Fatalf("80 MB body (length declared %v): %d %.300s, want 413", declared, res.StatusCode, body)
		} else if err != nil && !strings.Contains(err.Error(), "reset") && !strings.Contains(err.Error(), "broken pipe") && !strings.Contains(err.Error(), "EOF") {
			t.Fatalf("80 MB body: %v", err)
		}
	}
	var refused []auditEntry
	for _, a := range auditJSON(t, srv.home, root) {
		if a.Outcome == "TOO_LARGE" {
			refused = append(refused, a)
		}
	}
	if len(refused) != 2 || refused[0].Tool != "write_file" {
		t.Errorf("audited as too large: %+v", refused)
	}
	mustNotExist(t, root, "pwned-big.txt")

	for _, body := range []string{
		"", "{", "}", "[]", "[{}]", "null", "true", `"text"`, "\x00\x01\xff", strings.Repeat("[", 100000),
		`{"jsonrpc":"2.0"}`, `{"jsonrpc":"2.0","id":1}`, `{"jsonrpc":"2.0","id":{},"method":"tools/call"}`,
		`{"jsonrpc":"2.0","id":1,"method":7}`, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"x"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_file","arguments":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":["write_file"]}}`,
		`{"jsonrpc":"2.0","id":1,"method":"no/such/method"}`, `{"jsonrpc":"1.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"x":1}}`, `{"jsonrpc":"2.0","id":99999,"error":{"code":1,"message":"m"}}`,
	} {
		res, text := srv.raw(t, "POST", "/mcp", body, sess)
		if res.StatusCode >= 500 {
			t.Errorf("%.40q: %d %s", body, res.StatusCode, text)
		}
	}
	for _, ct := range []string{"text/plain", "", "application/x-www-form-urlencoded"} {
		if res, _ := srv.raw(t, "POST", "/mcp", writeCall("pwned-ct.txt", false), merge(sess, map[string]string{"Content-Type": ct})); res.StatusCode >= 500 {
			t.Errorf("content type %q: %d", ct, res.StatusCode)
		}
	}
	mustNotExist(t, root, "pwned-ct.txt")
	srv.connect(t, "after", "2025-11-25").ok("read_file", map[string]any{"path": "a.txt"})
}

// Connections that send their headers or body a drop at a time do not
// delay a normal client, and a connection that never finishes its headers
// is cut off.
func TestServeSlowDrip(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	srv := startServe(t, root, "--mode", "trusted")
	s := srv.connect(t, "normal", "2025-11-25")
	s.ok("read_file", map[string]any{"path": "a.txt"})

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var conns []net.Conn
	var mu sync.Mutex
	drip := func(head string, then string) {
		defer wg.Done()
		c, err := net.Dial("tcp", srv.host)
		if err != nil {
			t.Error(err)
			return
		}
		mu.Lock()
		conns = append(conns, c)
		mu.Unlock()
		c.Write([]byte(head))
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
			}
			if _, err := c.Write([]byte{then[i%len(then)]}); err != nil {
				return
			}
		}
	}
	headers := "POST /mcp HTTP/1.1\r\nHost: " + srv.host + "\r\nX-Slow: "
	body := "POST /mcp HTTP/1.1\r\nHost: " + srv.host + "\r\nAuthorization: Bearer " + srv.token +
		"\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
	for i := range 40 {
		wg.Add(1)
		if i%2 == 0 {
			go drip(headers, "abcdefgh")
		} else {
			go drip(body, `"a":1,`)
		}
	}
	time.Sleep(500 * time.Millisecond)
	var worst time.Duration
	for range 20 {
		start := time.Now()
		s.ok("read_file", map[string]any{"path": "a.txt"})
		worst = max(worst, time.Since(start))
	}
	if worst > time.Second {
		t.Errorf("a normal call took %v beside slow connections", worst)
	}
	t.Logf("slowest normal call beside 40 slow connections: %v", worst)

	// A header dripper is cut at the header timeout (10 s).
	c, err := net.Dial("tcp", srv.host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte(headers))
	cut := make(chan time.Duration, 1)
	start := time.Now()
	go func() {
		buf := make([]byte, 512)
		for {
			c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
			_, err := c.Read(buf)
			if err != nil && !isTimeout(err) {
				cut <- time.Since(start)
				return
			}
			if time.Since(start) > 20*time.Second {
				cut <- -1
				return
			}
			c.Write([]byte("a")) // keep dripping
		}
	}()
	if d := <-cut; d < 0 {
		t.Error("a connection dripping its headers was not cut off within 20 s")
	} else {
		t.Logf("header dripper cut after %v", d.Round(time.Millisecond))
	}
	close(stop)
	mu.Lock()
	for _, c := range conns {
		c.Close()
	}
	mu.Unlock()
	wg.Wait()
	s.ok("read_file", map[string]any{"path": "a.txt"})
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}
