package test

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestUnknownToolIsProtocolError(t *testing.T) {
	s := start(t, workspace(t, map[string]string{"a": "a"}))
	_, err := s.callErr("no_such_tool", map[string]any{})
	if err == nil || !errors.Is(err, mcp.ErrInvalidParams) {
		t.Fatalf("unknown tool: want a JSON-RPC invalid params error, got %v", err)
	}
}

func TestBadArgumentsAreProtocolErrors(t *testing.T) {
	s := start(t, workspace(t, map[string]string{"a": "a"}))
	for name, args := range map[string]map[string]any{
		"missing required": {},
		"wrong type":       {"path": 42},
		"unknown field":    {"path": "a", "bogus": true},
		"negative limit":   {"path": "a", "limit": -3},
	} {
		t.Run(name, func(t *testing.T) {
			s := s.with(t)
			_, err := s.callErr("read_file", args)
			if err == nil || !errors.Is(err, mcp.ErrInvalidParams) {
				t.Fatalf("want a JSON-RPC invalid params error, got %v", err)
			}
		})
	}
	// The server still serves after bad calls.
	s.ok("read_file", map[string]any{"path": "a"})
}

// rawSession speaks JSON-RPC lines to `juju stdio` directly.
type rawSession struct {
	in  io.WriteCloser
	out *bufio.Scanner
	cmd *exec.Cmd
}

func startRaw(t *testing.T, root string) *rawSession {
	t.Helper()
	cmd := exec.Command(jujuBin, "stdio", "--root", root)
	cmd.Env = append(os.Environ(), "JUJU_HOME="+t.TempDir())
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	return &rawSession{in: in, out: sc, cmd: cmd}
}

func (r *rawSession) send(t *testing.T, line string) map[string]any {
	t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
	done := make(chan bool, 1)
	var ok bool
	go func() { ok = r.out.Scan(); done <- true }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatalf("no answer to %q", line)
	}
	if !ok {
		t.Fatalf("server closed stdout after %q", line)
	}
	var m map[string]any
	if err := json.Unmarshal(r.out.Bytes(), &m); err != nil {
		t.Fatalf("stdout carried a non-JSON line: %q", r.out.Text())
	}
	return m
}

func TestMalformedJSONKeepsServing(t *testing.T) {
	r := startRaw(t, workspace(t, map[string]string{"a.txt": "hello\n"}))
	init := r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if init["result"] == nil {
		t.Fatalf("initialize failed: %v", init)
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	bad := r.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"`)
	errObj, _ := bad["error"].(map[string]any)
	if errObj == nil || errObj["code"] != float64(mcp.PARSE_ERROR) {
		t.Fatalf("malformed JSON: want a parse error, got %v", bad)
	}
	resp := r.send(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`)
	if !strings.Contains(string(mustJSON(resp)), "hello") {
		t.Fatalf("server stopped serving after a parse error: %v", resp)
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

func TestBurstOfConcurrentCalls(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 50; i++ {
		files[strings.Repeat("d/", i%3)+"f"+string(rune('a'+i%26))+string(rune('a'+i/26))+".txt"] = "content " + string(rune('a'+i%26))
	}
	s := start(t, workspace(t, files))
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for p := range files {
		wg.Add(1)
		go func(p string) {
			defer wg.Done()
			res, err := s.callErr("read_file", map[string]any{"path": p})
			switch {
			case err != nil:
				errs <- err
			case res.IsError:
				errs <- errors.New(text(res))
			case !strings.Contains(text(res), files[p]):
				errs <- errors.New(p + ": wrong content " + text(res))
			}
		}(p)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// Piped input: the answers come even though the input ends at once.
func TestPipedInputIsAnswered(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "piped hello\n"})
	cmd := exec.Command(jujuBin, "stdio", "--root", root)
	cmd.Env = append(os.Environ(), "JUJU_HOME="+t.TempDir())
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`,
	}, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("juju stdio: %v", err)
	}
	if !strings.Contains(string(out), "piped hello") {
		t.Fatalf("the call was not answered before exit: %s", out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if !json.Valid([]byte(line)) {
			t.Fatalf("stdout carried a non-JSON line: %q", line)
		}
	}
}
