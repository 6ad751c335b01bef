package mcpserver

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Bodies held at once are bounded across clients (Limits.MaxBodies): a
// client that sends part of a large body and stalls holds what arrived,
// and another client's body that would pass the bound is refused with 503
// and Retry-After, until the first is cut off and gives its bytes back.
func TestBodiesHeldAreBounded(t *testing.T) {
	const timeout = 500 * time.Millisecond
	rig := newRig(t, "", Limits{BodyTimeout: timeout, MaxBodies: 256 << 10})
	srv := httptest.NewServer(rig.front)
	defer srv.Close()
	head := func(n int) string {
		return fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:7777\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n", testToken, n)
	}
	post := func(body string) (*http.Response, string) {
		t.Helper()
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		io.WriteString(conn, head(len(body))+body)
		conn.SetReadDeadline(time.Now().Add(10 * timeout))
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		return res, string(b)
	}
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 100<<10) + `"}}`

	// A stalls after 150 KiB of a 1 MiB body: its buffer has grown to
	// 256 KiB, the whole bound.
	a, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	io.WriteString(a, head(1<<20)+`{"a":"`+strings.Repeat("y", 150<<10))
	var res *http.Response
	var body string
	for deadline := time.Now().Add(timeout / 2); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if rig.front.bodies.used.Load() >= 256<<10 {
			break
		}
	}
	res, body = post(ping)
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Fatalf("a body past the bound while another is held: %d %q (held %d)", res.StatusCode, body, rig.front.bodies.used.Load())
	}

	// A is cut off at BodyTimeout and gives its bytes back.
	a.SetReadDeadline(time.Now().Add(10 * timeout))
	if ra, err := http.ReadResponse(bufio.NewReader(a), nil); err != nil || ra.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("the stalled body: %v %v", ra, err)
	}
	for deadline := time.Now().Add(timeout); rig.front.bodies.used.Load() != 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
	}
	if n := rig.front.bodies.used.Load(); n != 0 {
		t.Fatalf("%d bytes still held after every request ended", n)
	}
	if res, body = post(ping); res.StatusCode == http.StatusServiceUnavailable {
		t.Fatalf("a body within the bound once the other was cut off: %d %q", res.StatusCode, body)
	}
	if n := rig.front.bodies.used.Load(); n != 0 {
		t.Errorf("%d bytes still held after a served request", n)
	}
}

// readHeld reads what it is given, whole, at every size around its
// buffer's growth steps and its limit.
func TestReadHeld(t *testing.T) {
	for _, n := range []int{0, 1, 4095, 4096, 4097, 8192, 100000, 1 << 20} {
		for _, limit := range []int64{int64(n) - 1, int64(n), int64(n) + 1, 1 << 21} {
			if limit < 0 {
				continue
			}
			b := &budget{max: 1 << 30}
			in := strings.Repeat("z", n)
			got, taken, err := readHeld(strings.NewReader(in), limit, b)
			if err != nil || int64(len(got)) != min(int64(n), limit) {
				t.Fatalf("n=%d limit=%d: %d bytes, %v", n, limit, len(got), err)
			}
			if taken != b.used.Load() || taken < int64(len(got)) || taken > max(4096, 2*int64(len(got))+1) {
				t.Errorf("n=%d limit=%d: took %d for %d bytes (budget %d)", n, limit, taken, len(got), b.used.Load())
			}
		}
	}
	b := &budget{max: 10000}
	if _, taken, err := readHeld(strings.NewReader(strings.Repeat("z", 20000)), 1<<20, b); err != errBodiesFull || taken != b.used.Load() || taken > 10000 {
		t.Errorf("past the budget: %v, took %d, used %d", err, taken, b.used.Load())
	}
}
