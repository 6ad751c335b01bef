package test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

func TestUnknownToolIsProtocolError(t *testing.T) {
	s := start(t, workspace(t, map[string]string{"a": "a"}))
	_, err := s.callErr("no_such_tool", map[string]any{})
	if err == nil || !errors.Is(err, mcp.ErrInvalidParams) {
		t.Fatalf("unknown tool: want a JSON-RPC invalid params error, got %v", err)
	}
}

// badCalls are calls whose arguments do not fit the tool's input schema,
// and what their INVALID_ARGUMENT message must say.
var badCalls = []struct {
	name, tool string
	args       map[string]any
	want       []string
}{
	{"missing required", "read_file", map[string]any{}, []string{`the argument "path" is required (The file to read`}},
	{"wrong type", "read_file", map[string]any{"path": 42}, []string{`the argument "path" must be a string, not a number`}},
	{"unknown field", "read_file", map[string]any{"path": "a", "bogus": true}, []string{`unknown argument "bogus"; read_file takes only: path, offset, limit, numbered`}},
	{"negative limit", "read_file", map[string]any{"path": "a", "limit": -3}, []string{`the argument "limit" must be at least 1 (got -3)`}},
	{"did you mean", "edit_file", map[string]any{"path": "a", "old_string": "a", "newString": "b"},
		[]string{`unknown argument "old_string" (did you mean "oldString"?)`, `the argument "oldString" is required`}},
	{"enum", "search_code", map[string]any{"pattern": "a", "outputMode": "lines"}, []string{`the argument "outputMode" must be one of "content", "files", "count", not "lines"`}},
}

// Arguments that do not fit the input schema are tool results (SEP-1303):
// INVALID_ARGUMENT, naming the argument and what it should be, the nearest
// known name for an unknown one, so the model can correct its call.
func TestBadArgumentsAreToolResults(t *testing.T) {
	root := workspace(t, map[string]string{"a": "a"})
	s := start(t, root)
	checkBadArguments(t, s, "juju-e2e")
}

// checkBadArguments makes every bad call of s, a session of client, and
// checks each is an INVALID_ARGUMENT result, the server serves on, and
// each refused call is audited like any other.
func checkBadArguments(t *testing.T, s *session, client string) {
	t.Helper()
	for _, c := range badCalls {
		t.Run(c.name, func(t *testing.T) {
			s := s.with(t)
			res, err := s.callErr(c.tool, c.args)
			if err != nil {
				t.Fatalf("want a tool result, got the JSON-RPC error %v", err)
			}
			got := structured(t, res)
			msg, _ := got["message"].(string)
			if !res.IsError || got["code"] != "INVALID_ARGUMENT" || text(res) != "INVALID_ARGUMENT: "+msg {
				t.Fatalf("want an INVALID_ARGUMENT result, got %s", text(res))
			}
			for _, w := range append(c.want, "the input schema of "+c.tool) {
				if !strings.Contains(msg, w) {
					t.Errorf("the message lacks %q:\n%s", w, msg)
				}
			}
		})
	}
	s.ok("read_file", map[string]any{"path": "a"})
	refused := 0
	for _, e := range auditJSON(t, s.home, s.root) {
		if e.Outcome == "INVALID_ARGUMENT" && e.Client == client {
			refused++
		}
	}
	if refused != len(badCalls) {
		t.Errorf("%d refused calls of %s audited, want %d", refused, client, len(badCalls))
	}
}

// Arguments that are not an object at all are a tool result too; an
// unknown tool stays a JSON-RPC error.
func TestArgumentsNotAnObject(t *testing.T) {
	r := startRaw(t, workspace(t, map[string]string{"a.txt": "hello\n"}))
	if init := r.send(t, initializeLine); init["result"] == nil {
		t.Fatalf("initialize failed: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	got := r.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":"a.txt"}}`)
	res, _ := got["result"].(map[string]any)
	if res == nil || res["isError"] != true || !strings.Contains(string(mustJSON(res)), "INVALID_ARGUMENT: the arguments do not fit the input schema of read_file: the arguments must be a JSON object, not a string") {
		t.Fatalf("arguments as a string: want an INVALID_ARGUMENT result, got %s", mustJSON(got))
	}
	unknown := r.send(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_fil","arguments":{"path":"a.txt"}}}`)
	if e := rpcError(t, unknown); e["code"] != float64(mcp.INVALID_PARAMS) {
		t.Fatalf("unknown tool: want -32602, got %s", mustJSON(unknown))
	}
}

// rawSession speaks JSON-RPC lines to `juju stdio` directly.
type rawSession struct {
	in   io.WriteCloser
	out  *bufio.Scanner
	cmd  *exec.Cmd
	home string // its JUJU_HOME
}

func startRaw(t *testing.T, root string, args ...string) *rawSession {
	t.Helper()
	return startRawLogging(t, root, io.Discard, args...)
}

// startRawLogging is startRaw with juju's stderr, its log, written to
// stderr.
func startRawLogging(t *testing.T, root string, stderr io.Writer, args ...string) *rawSession {
	t.Helper()
	return startRawHome(t, newHome(t), root, stderr, args...)
}

// startRawHome is startRawLogging with juju's home folder given.
func startRawHome(t *testing.T, home, root string, stderr io.Writer, args ...string) *rawSession {
	t.Helper()
	cmd := exec.Command(jujuBin, append([]string{"stdio", "--root", root}, args...)...)
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	return &rawSession{in: in, out: sc, cmd: cmd, home: home}
}

// waitExit fails the test with msg unless juju exits within d.
func (r *rawSession) waitExit(t *testing.T, d time.Duration, msg string) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- r.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatal(msg)
	}
}

func (r *rawSession) send(t *testing.T, line string) map[string]any {
	t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
	return r.recv(t, line, 15*time.Second)
}

// recv reads the next answer, waiting up to d; what names what it answers,
// for failures.
func (r *rawSession) recv(t *testing.T, what string, d time.Duration) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.line(t, what, d), &m); err != nil {
		t.Fatalf("stdout carried a non-JSON line: %q", r.out.Text())
	}
	return m
}

// line reads the next line juju writes, as it is (an answer or a batch's
// array), waiting up to d; what names what it answers, for failures.
func (r *rawSession) line(t *testing.T, what string, d time.Duration) []byte {
	t.Helper()
	done := make(chan bool, 1)
	go func() { done <- r.out.Scan() }()
	select {
	case ok := <-done:
		if !ok {
			t.Fatalf("server closed stdout after %q", what)
		}
	case <-time.After(d):
		t.Fatalf("no answer to %q", what)
	}
	return r.out.Bytes()
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

// startRawExec is a raw session that runs commands without approval or
// sandbox, handshake done.
func startRawExec(t *testing.T, root string) *rawSession {
	t.Helper()
	r := startRaw(t, root, "--mode", "trusted", "--sandbox", "off")
	if init := r.send(t, initializeLine); init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return r
}

// The plugins are compiled in the background once the client has its
// tools: a compilation running beside the first tools/list made its answer
// five times slower. A client that lists no tools gets them compiled
// warmDelay (100 ms) after notifications/initialized.
func TestWarmUpWaitsForToolsList(t *testing.T) {
	logR, logW := io.Pipe()
	compiling := make(chan time.Time, 16) // when juju logged the start of a compilation
	go func() {
		sc := bufio.NewScanner(logR)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "compiling plugin") {
				compiling <- time.Now()
			}
		}
	}()
	r := startRawLogging(t, t.TempDir(), logW, "--log-level", "debug")
	t.Cleanup(func() { logW.Close() })
	if init := r.send(t, initializeLine); init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	const pause = 30 * time.Millisecond
	initialized := time.Now()
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	time.Sleep(pause)
	list := r.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	res, _ := list["result"].(map[string]any)
	if tools, _ := res["tools"].([]any); len(tools) < 30 {
		t.Fatalf("tools/list: %.300s", mustJSON(list))
	}
	select {
	case at := <-compiling:
		// A line is read no sooner than it is written: one read within the
		// pause was written before tools/list was even sent.
		if d := at.Sub(initialized); d < pause {
			t.Fatalf("a plugin was compiled %v after notifications/initialized, before the client listed its tools", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no plugin was compiled after tools/list was answered")
	}
}

// A lazy plugin is left out of the warm-up and compiled on its first call:
// the warm-up compiles core and core-exec, not core-image, whose one tool,
// read_image, compiles it and then answers.
func TestLazyPluginWaitsForItsCall(t *testing.T) {
	logR, logW := io.Pipe()
	events := make(chan string, 64) // "compiling NAME" or "warm-up done"
	go func() {
		sc := bufio.NewScanner(logR)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.Contains(line, `msg="compiling plugin"`):
				_, name, _ := strings.Cut(line, " plugin=")
				events <- "compiling " + strings.Fields(name)[0]
			case strings.Contains(line, `msg="warm-up done"`):
				events <- "warm-up done"
			}
		}
	}()
	img := encode(t, func(b *bytes.Buffer) error { return png.Encode(b, picture(20, 10, false)) })
	r := startRawLogging(t, workspace(t, map[string]string{"a.png": img}), logW, "--log-level", "debug")
	t.Cleanup(func() { logW.Close() })
	next := func(what string) string {
		t.Helper()
		select {
		case e := <-events:
			return e
		case <-time.After(60 * time.Second):
			t.Fatalf("juju logged nothing while waiting for %s", what)
			return ""
		}
	}
	r.send(t, initializeLine)
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	r.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	var warmed []string
	for e := next("the warm-up"); e != "warm-up done"; e = next("the warm-up") {
		warmed = append(warmed, e)
	}
	if !slices.Contains(warmed, "compiling core") || !slices.Contains(warmed, "compiling core-exec") || slices.Contains(warmed, "compiling core-image") {
		t.Fatalf("the warm-up did %q; want core and core-exec compiled, core-image left to its first call", warmed)
	}
	m := r.send(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_image","arguments":{"path":"a.png"}}}`)
	if res := string(mustJSON(m["result"])); !strings.Contains(res, `"type":"image"`) || strings.Contains(res, `"isError":true`) {
		t.Fatalf("read_image: %.400s", res)
	}
	if e := next("read_image's compilation"); e != "compiling core-image" {
		t.Fatalf("read_image was answered, and then juju logged %q; want core-image compiled for it", e)
	}
}

// A tool call that takes long holds up nothing sent after it: a ping and a
// quick call written behind a two-second command are answered before it.
// (juju serves a call on the goroutine that read it, and hands the reading
// on when the call runs long.)
func TestLongCallHoldsNothingBehindIt(t *testing.T) {
	r := startRawExec(t, workspace(t, map[string]string{"a.txt": "quick\n"}))
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"sleep 2; echo slow"}}}`+"\n"+
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`+"\n"+
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`+"\n")
	var order []any
	answers := map[any]string{}
	for range 3 {
		m := r.recv(t, "the three requests", 20*time.Second)
		order = append(order, m["id"])
		answers[m["id"]] = string(mustJSON(m["result"]))
	}
	if order[2] != 2.0 {
		t.Fatalf("answers came in the order %v: the long call held up what followed it", order)
	}
	if !strings.Contains(answers[2.0], "slow") || !strings.Contains(answers[4.0], "quick") || answers[3.0] != "{}" {
		t.Fatalf("answers: %v", answers)
	}
}

// notifications/cancelled stops a running tool call: its command is killed
// long before it would end, the call gets no answer (the client gave it
// up, and MCP asks the receiver not to answer), and juju serves on, then
// ends with its input.
func TestCancelledCallStops(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "after\n"})
	r := startRawExec(t, root)
	const marker = "sleep 29.75"
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"`+marker+`"}}}`+"\n")
	waitFor(t, "the command to start", func() bool { return running(marker) })
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"the user stopped it"}}`+"\n")
	waitFor(t, "the cancelled command to be killed", func() bool { return !running(marker) })
	m := r.send(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`)
	if m["id"] != 3.0 || !strings.Contains(string(mustJSON(m["result"])), "after") {
		t.Fatalf("the next answer, after the cancellation: %s (the cancelled call is not answered)", mustJSON(m))
	}
	r.in.Close()
	r.waitExit(t, 10*time.Second, "juju did not end with its input: it still waits to answer the cancelled call")
	if r.out.Scan() {
		t.Fatalf("an answer after the input ended: %s", r.out.Text())
	}
	// The audit says the client gave the call up, not that it ran out of
	// time.
	var outcomes []string
	for _, e := range auditJSON(t, r.home, root) {
		if e.Tool == "run_command" {
			outcomes = append(outcomes, e.Outcome)
		}
	}
	if !slices.Equal(outcomes, []string{"cancelled"}) {
		t.Errorf("run_command's outcomes in juju audit: %q, want [cancelled]", outcomes)
	}
}

// running reports whether a process of this machine has cmdline words
// (joined by spaces).
func running(words string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), words) && !strings.Contains(string(b), "sh\x00-c") {
			return true
		}
	}
	return false
}

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

const initializeLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// rpcError returns the error object of a JSON-RPC answer, or fails.
func rpcError(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	e, _ := m["error"].(map[string]any)
	if e == nil {
		t.Fatalf("want a JSON-RPC error, got %s", mustJSON(m))
	}
	return e
}

// A request sent before initialize is refused and runs nothing; a
// notification is ignored; ping is answered; after initialize the same call
// runs.
func TestRequestsBeforeInitializeAreRefused(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	r := startRaw(t, root)
	write := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"made.txt","content":"made\n"}}}`
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	for i, line := range []string{
		fmt.Sprintf(write, 7),
		`{"jsonrpc":"2.0","id":8,"method":"tools/list"}`,
	} {
		got := r.send(t, line)
		e := rpcError(t, got)
		if e["code"] != float64(mcp.INVALID_REQUEST) || !strings.Contains(e["message"].(string), "initialize") {
			t.Fatalf("request %d before initialize: want invalid request naming initialize, got %s", i, mustJSON(got))
		}
		if got["id"] != float64(7+i) {
			t.Fatalf("the refusal must carry the request's id: %s", mustJSON(got))
		}
	}
	if pong := r.send(t, `{"jsonrpc":"2.0","id":9,"method":"ping"}`); pong["result"] == nil {
		t.Fatalf("ping before initialize: %s", mustJSON(pong))
	}
	if _, err := os.Stat(filepath.Join(root, "made.txt")); !os.IsNotExist(err) {
		t.Fatalf("write_file ran before initialize (stat: %v)", err)
	}
	if init := r.send(t, initializeLine); init["result"] == nil {
		t.Fatalf("initialize failed: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	if got := r.send(t, fmt.Sprintf(write, 10)); got["result"] == nil || strings.Contains(string(mustJSON(got)), `"isError":true`) {
		t.Fatalf("write_file after initialize: %s", mustJSON(got))
	}
	if b, err := os.ReadFile(filepath.Join(root, "made.txt")); err != nil || string(b) != "made\n" {
		t.Fatalf("write_file after initialize did not write: %q, %v", b, err)
	}
}

// The same through mcp-go's client, told to skip the handshake.
func TestClientCallBeforeInitializeIsRefused(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	home := newHome(t)
	tr := transport.NewStdio(jujuBin, append(os.Environ(), "JUJU_HOME="+home), "stdio", "--root", root)
	c := client.NewClient(tr, client.WithSession())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	req := mcp.CallToolRequest{}
	req.Params.Name = "write_file"
	req.Params.Arguments = map[string]any{"path": "made.txt", "content": "made\n"}
	if _, err := c.CallTool(ctx, req); !errors.Is(err, mcp.ErrInvalidRequest) || !strings.Contains(err.Error(), "initialize") {
		t.Fatalf("tools/call before initialize: want invalid request naming initialize, got %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "made.txt")); !os.IsNotExist(err) {
		t.Fatalf("write_file ran before initialize (stat: %v)", err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "juju-e2e", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	if res, err := c.CallTool(ctx, req); err != nil || res.IsError {
		t.Fatalf("write_file after initialize: %v %v", err, res)
	}
	if _, err := os.Stat(filepath.Join(root, "made.txt")); err != nil {
		t.Fatal("write_file after initialize did not write")
	}
}

// hwm is the peak resident size of a process, in bytes (Linux).
func hwm(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kb)
			return kb << 10
		}
	}
	t.Skip("no VmHWM in /proc/PID/status")
	return 0
}

// A 100 MB line is discarded as it streams: the memory of the process
// barely moves, the call is answered as that call (its id and tool read
// from the line's first bytes) with TOO_LARGE and audited, and the next
// call is served. A message whose id comes after the cut gets an error of
// id null.
func TestOversizedMessageIsDiscarded(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	r := startRaw(t, root)
	if init := r.send(t, initializeLine); init["result"] == nil {
		t.Fatalf("initialize failed: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	read := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`
	r.send(t, fmt.Sprintf(read, 2))
	time.Sleep(2 * time.Second) // let the background compilation settle
	before := hwm(t, r.cmd.Process.Pid)

	send := func(head string, size int, tail string) {
		go func() {
			io.WriteString(r.in, head)
			chunk := strings.Repeat("x", 1<<20)
			for i := 0; i < size>>20; i++ {
				if _, err := io.WriteString(r.in, chunk); err != nil {
					return
				}
			}
			io.WriteString(r.in, tail+"\n")
		}()
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"big.txt","content":"`, 100<<20, `"}}}`)
	got := r.recv(t, "a 100 MB line", 2*time.Minute)
	after := hwm(t, r.cmd.Process.Pid)
	t.Logf("peak resident size: %d MiB before, %d MiB after the 100 MB line", before>>20, after>>20)
	if after-before > 40<<20 {
		t.Errorf("a 100 MB line raised the peak resident size by %d MiB", (after-before)>>20)
	}
	res, _ := got["result"].(map[string]any)
	if got["id"] != float64(3) || res == nil || res["isError"] != true ||
		!strings.Contains(string(mustJSON(res)), "TOO_LARGE: this call to write_file was larger than 16 MiB") {
		t.Fatalf("100 MB tool call: want its id and a TOO_LARGE result naming the tool and the cap, got %s", mustJSON(got))
	}
	if _, err := os.Stat(filepath.Join(root, "big.txt")); !os.IsNotExist(err) {
		t.Fatalf("big.txt after the discarded call: %v", err)
	}

	send(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"write_file","arguments":{"path":"big.txt","content":"`, 17<<20, `"}},"id":4}`)
	got = r.recv(t, "a 17 MB line with its id at the end", time.Minute)
	e := rpcError(t, got)
	if got["id"] != nil || e["code"] != float64(mcp.INVALID_REQUEST) || !strings.Contains(e["message"].(string), "16 MiB") {
		t.Fatalf("17 MB message, id last: want invalid request with id null naming the cap, got %s", mustJSON(got))
	}
	if resp := r.send(t, fmt.Sprintf(read, 5)); !strings.Contains(string(mustJSON(resp)), "hello") {
		t.Fatalf("not served after the oversized messages: %s", mustJSON(resp))
	}
	var refused []auditEntry
	for _, a := range auditJSON(t, r.home, root) {
		if a.Outcome == "TOO_LARGE" {
			refused = append(refused, a)
		}
	}
	if len(refused) != 1 || refused[0].Tool != "write_file" || refused[0].Client != "raw" {
		t.Fatalf("audited as too large: %+v", refused)
	}
}

// TestBatches checks JSON-RPC batches over stdio, which MCP 2025-03-26
// servers must accept: each request answered in one array in the batch's
// order, notifications answered by nothing, what is not a request refused
// in its place, and a batch's answer written before juju ends with its
// input. A request whose id is neither a string nor a number is refused,
// alone or in a batch, and not served.
func TestBatches(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	r := startRaw(t, root, "--mode", "trusted")
	if init := r.send(t, strings.Replace(initializeLine, "2025-06-18", "2025-03-26", 1)); init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	line := func(what string) []map[string]any {
		t.Helper()
		if _, err := io.WriteString(r.in, what+"\n"); err != nil {
			t.Fatal(err)
		}
		done := make(chan bool, 1)
		go func() { done <- r.out.Scan() }()
		select {
		case ok := <-done:
			if !ok {
				t.Fatalf("no answer to %s: stdout closed", what)
			}
		case <-time.After(15 * time.Second):
			t.Fatalf("no answer to %s", what)
		}
		var batch []map[string]any
		if err := json.Unmarshal(r.out.Bytes(), &batch); err != nil {
			var one map[string]any
			if err := json.Unmarshal(r.out.Bytes(), &one); err != nil {
				t.Fatalf("%s: not JSON: %q", what, r.out.Text())
			}
			return []map[string]any{one, nil} // a lone answer: never a batch of one
		}
		return batch
	}
	// Nothing answers a batch of notifications: the next answer is the ping's.
	io.WriteString(r.in, `[{"jsonrpc":"2.0","method":"notifications/initialized"}]`+"\n")
	if got := line(`{"jsonrpc":"2.0","id":"p","method":"ping"}`); got[0]["id"] != "p" {
		t.Fatalf("after a batch of notifications: %s", mustJSON(got))
	}

	got := line(`[{"jsonrpc":"2.0","id":2,"method":"ping"},` +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}},` +
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}},` +
		`5,{"jsonrpc":"2.0","id":null,"method":"ping"},{"jsonrpc":"2.0","id":{"a":1},"method":"ping"},` +
		`{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}},` +
		`{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"write_file","arguments":{"path":"b.txt"}}}]`)
	want := []struct {
		id   any
		code float64 // 0: a result
	}{{float64(2), 0}, {float64(3), 0}, {nil, mcp.INVALID_REQUEST}, {nil, mcp.INVALID_REQUEST}, {nil, mcp.INVALID_REQUEST}, {float64(7), mcp.INVALID_REQUEST}, {"w", 0}}
	if len(got) != len(want) {
		t.Fatalf("a batch of 8 with 7 requests: %s", mustJSON(got))
	}
	for i, w := range want {
		e, _ := got[i]["error"].(map[string]any)
		code, _ := e["code"].(float64)
		if got[i]["id"] != w.id || code != w.code || (w.code == 0) != (got[i]["result"] != nil) {
			t.Errorf("answer %d: %s, want id %v and code %v", i, mustJSON(got[i]), w.id, w.code)
		}
	}
	if !strings.Contains(string(mustJSON(got[1])), "hello") {
		t.Errorf("read_file in a batch: %s", mustJSON(got[1]))
	}
	if res, _ := got[6]["result"].(map[string]any); res["isError"] != true || !strings.Contains(string(mustJSON(res)), "INVALID_ARGUMENT") {
		t.Errorf("write_file without content in a batch: %s", mustJSON(got[6]))
	}

	for _, c := range []struct{ msg, says string }{
		{`[]`, "empty"},
		{`[1,2`, "not valid JSON"},
		{`[` + strings.Repeat(`{"jsonrpc":"2.0","method":"notifications/x"},`, 300) + `{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "more than the 256"},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "neither a string nor a number"},
		{`{"jsonrpc":"2.0","id":[1],"method":"tools/call","params":{"name":"write_file","arguments":{"path":"c.txt","content":"x"}}}`, "neither a string nor a number"},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, "neither a string nor a number"},
	} {
		got := line(c.msg)
		if got[1] != nil || got[0]["id"] != nil || !strings.Contains(string(mustJSON(got[0])), c.says) {
			t.Errorf("%.60s: %s", c.msg, mustJSON(got))
		}
	}
	mustNotExist(t, root, "c.txt")

	// The input ends right behind a batch: its answer comes first.
	io.WriteString(r.in, `[{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"sleep 0.3; echo late"}}}]`+"\n")
	r.in.Close()
	if !r.out.Scan() || !strings.Contains(r.out.Text(), "late") {
		t.Fatalf("the batch before the end of input: %q", r.out.Text())
	}
	if r.out.Scan() {
		t.Errorf("more after the batch's answer: %q", r.out.Text())
	}
	if err := r.cmd.Wait(); err != nil {
		t.Errorf("juju ended with %v", err)
	}
}

// TestStdioKeepsReadingWhenFull: with 32 tool calls running over stdio,
// juju keeps reading. Further calls wait for a slot (up to 256 of them); a
// call past those is refused at once (TOO_LARGE, with its id); a ping is
// answered; and cancellations are read: they stop the running calls and
// drop the waiting ones unanswered, after which calls are served again.
func TestStdioKeepsReadingWhenFull(t *testing.T) {
	r := startRawExec(t, workspace(t, map[string]string{"a.txt": "hello\n"}))
	const calls = 32 + 256 + 2
	for id := 1000; id < 1000+calls; id++ {
		fmt.Fprintf(r.in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"sleep 20"}}}`+"\n", id)
	}
	refused := map[float64]bool{}
	for len(refused) < 2 {
		m := r.recv(t, "the calls past 32 running and 256 waiting", 15*time.Second)
		if !strings.Contains(string(mustJSON(m)), "already running 32 tool calls") {
			t.Fatalf("want a refusal of a call past 288, got %s", mustJSON(m))
		}
		refused[m["id"].(float64)] = true
	}
	start := time.Now()
	if m := r.send(t, `{"jsonrpc":"2.0","id":7,"method":"ping"}`); m["id"] != float64(7) || time.Since(start) > 5*time.Second {
		t.Fatalf("ping behind 32 running calls: %s after %v", mustJSON(m), time.Since(start))
	}
	for id := 1000; id < 1000+calls; id++ {
		if !refused[float64(id)] {
			fmt.Fprintf(r.in, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}`+"\n", id)
		}
	}
	m := r.send(t, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`)
	if m["id"] != float64(8) || !strings.Contains(string(mustJSON(m)), "hello") {
		t.Fatalf("a call once the others were cancelled: %s", mustJSON(m))
	}
}

// TestUnreadableRequestsEndWithTheInput: a request mcp-go cannot read
// (jsonrpc not a string, an id Go cannot hold) is refused by juju with its
// id, as its own, instead of pending for ever: past 1,024 of them juju
// still answers, and it ends with its input.
func TestUnreadableRequestsEndWithTheInput(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "still here\n"})
	lines := []string{
		initializeLine,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":2,"id":"v","method":"ping"}`,
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
		`{"jsonrpc":2.0,"id":"c","method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`,
	}
	for i := range 1100 {
		lines = append(lines, fmt.Sprintf(`{"jsonrpc":2,"id":%d,"method":"ping"}`, 100+i))
	}
	lines = append(lines, `{"jsonrpc":"2.0","id":"last","method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, jujuBin, "stdio", "--root", root)
	cmd.Env = append(os.Environ(), "JUJU_HOME="+t.TempDir())
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	out, err := cmd.Output()
	if ctx.Err() != nil {
		t.Fatalf("juju did not end with its input: %d bytes answered", len(out))
	}
	if err != nil {
		t.Fatalf("juju stdio: %v", err)
	}
	byID := map[string]map[string]any{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not JSON: %q", l)
		}
		byID[fmt.Sprint(m["id"])] = m
	}
	for _, id := range []string{"v", "c", "100", "1199"} {
		if e := rpcError(t, byID[id]); e["code"] != float64(mcp.INVALID_REQUEST) || !strings.Contains(fmt.Sprint(e["message"]), `"2.0"`) {
			t.Errorf("id %s: %s", id, mustJSON(byID[id]))
		}
	}
	if e := rpcError(t, byID["<nil>"]); e["code"] != float64(mcp.INVALID_REQUEST) {
		t.Errorf("id 1e400: %s", mustJSON(byID["<nil>"]))
	}
	if !strings.Contains(string(mustJSON(byID["last"])), "still here") {
		t.Errorf("the call behind them: %s", mustJSON(byID["last"]))
	}
}
