package test

import (
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A request that also carries result or error is neither request nor
// response: it is refused with its id, alone or in a batch, and leaves
// nothing waiting (juju wrote "null" and, once its input ended, waited for
// ever for the answer it never gave).
func TestRequestCarryingAResultIsRefused(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	r := startRaw(t, root)
	if init := r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`); init["result"] == nil {
		t.Fatalf("initialize: %v", init)
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	for i, line := range []string{
		`{"jsonrpc":"2.0","id":77,"method":"tools/call","result":{"x":1},"params":{"name":"write_file","arguments":{"path":"w.txt","content":"x"}}}`,
		`{"jsonrpc":"2.0","id":"s","method":"ping","error":{"code":1,"message":"x"}}`,
	} {
		got := r.send(t, line)
		if e := rpcError(t, got); e["code"] != float64(-32600) || got["id"] == nil {
			t.Errorf("message %d: %s", i, mustJSON(got))
		}
	}
	io.WriteString(r.in, `[{"jsonrpc":"2.0","id":79,"method":"ping","result":{}},{"jsonrpc":"2.0","id":80,"method":"ping"}]`+"\n")
	if !r.out.Scan() {
		t.Fatal("no answer to the batch")
	}
	if s := r.out.Text(); !strings.HasPrefix(s, `[{"jsonrpc":"2.0","id":79,"error":{"code":-32600`) || strings.Contains(s, "null") {
		t.Errorf("the batch: %s", s)
	}
	if fileExists(root, "w.txt") {
		t.Error("the tool ran")
	}
	// The input ends; juju ends with it.
	r.in.Close()
	r.waitExit(t, 10*time.Second, "juju did not stop after its input ended")
}

// A client that sends pings and never reads its answers holds a bounded
// number of requests in juju: past them juju reads on only as answers go
// out, so its memory does not grow with what the client writes.
func TestUnreadAnswersStopTheReading(t *testing.T) {
	r := startRaw(t, workspace(t, map[string]string{"a.txt": "alpha\n"}))
	if init := r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`); init["result"] == nil {
		t.Fatalf("initialize: %v", init)
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	var sent atomic.Int64
	go func() {
		for i := 2; ; i++ {
			if _, err := io.WriteString(r.in, `{"jsonrpc":"2.0","id":`+strconv.Itoa(i)+`,"method":"ping"}`+"\n"); err != nil {
				return
			}
			sent.Add(1)
		}
	}()
	// Nothing reads juju's stdout now.
	time.Sleep(3 * time.Second)
	first := sent.Load()
	time.Sleep(2 * time.Second)
	if n := sent.Load(); n != first || n > 20000 {
		t.Fatalf("juju read %d pings, then %d more, without answers going out: it should stop reading", first, n-first)
	}
	rss := residentKB(t, r.cmd.Process.Pid)
	if rss > 400<<10 {
		t.Errorf("juju holds %d KB after %d unanswered pings", rss, first)
	}
	t.Logf("juju read %d pings unanswered, then stopped; resident %d KB", first, rss)
}

// residentKB is VmRSS of pid.
func residentKB(t *testing.T, pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Skip("no /proc here")
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
