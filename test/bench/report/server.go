package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// command says how to start one MCP server over stdio.
type command struct {
	name string // "juju" or "baseline", for messages
	bin  string
	args []string
	env  []string // appended to the report's environment
}

// server is one running MCP server driven by raw JSON-RPC lines over pipes:
// one request written, its answer read, nothing else in between. mcp-go's
// client would add its own goroutines, channels and decoding to every figure,
// which at a tenth of a millisecond per call is not noise.
type server struct {
	name    string
	cmd     *exec.Cmd
	in      *os.File // the server's stdin, our end
	outF    *os.File // the server's stdout, our end
	out     *bufio.Reader
	stderr  *tail
	spawned time.Time // just before the process was started
	id      int64
	buf     []byte
	// answered is when the last answer's line had been read, before the
	// report decodes it: figures time the server, not the report's JSON.
	answered time.Time
}

// rpcTimeout bounds every answer; a server that does not answer in time is a
// failed run, not a hung report.
const rpcTimeout = 2 * time.Minute

// start spawns the server. The returned server's spawned field is the time
// taken just before the process was created.
func start(c command) (*server, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd := exec.Command(c.bin, c.args...)
	cmd.Env = append(os.Environ(), c.env...)
	cmd.Stdin, cmd.Stdout = inR, outW
	s := &server{name: c.name, cmd: cmd, in: inW, outF: outR, out: bufio.NewReaderSize(outR, 1<<20), stderr: &tail{max: 8 << 10}}
	cmd.Stderr = s.stderr
	s.spawned = time.Now()
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("starting %s: %w", c.name, err)
	}
	return s, nil
}

// rpcError is a JSON-RPC error answer.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// envelope is any JSON-RPC message from the server.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// request sends one request and returns its result.
func (s *server) request(method string, params json.RawMessage) (json.RawMessage, error) {
	s.id++
	id := strconv.FormatInt(s.id, 10)
	s.buf = append(s.buf[:0], `{"jsonrpc":"2.0","id":`...)
	s.buf = append(s.buf, id...)
	s.buf = append(s.buf, `,"method":"`...)
	s.buf = append(s.buf, method...)
	s.buf = append(s.buf, `","params":`...)
	s.buf = append(s.buf, params...)
	s.buf = append(s.buf, "}\n"...)
	if _, err := s.in.Write(s.buf); err != nil {
		return nil, s.fail(fmt.Errorf("%s: writing %s: %w", s.name, method, err))
	}
	if err := s.outF.SetReadDeadline(time.Now().Add(rpcTimeout)); err != nil {
		return nil, err
	}
	for {
		line, err := s.out.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long answer: gather the rest of the line.
			rest, err2 := s.out.ReadBytes('\n')
			line, err = append(bytes.Clone(line), rest...), err2
		}
		if err != nil {
			return nil, s.fail(fmt.Errorf("%s: waiting for the answer to %s: %w", s.name, method, err))
		}
		s.answered = time.Now()
		var env envelope
		if err := json.Unmarshal(line, &env); err != nil {
			return nil, s.fail(fmt.Errorf("%s: a line that is not JSON-RPC on stdout: %.200q", s.name, line))
		}
		if env.Method != "" || string(env.ID) != id {
			continue // a notification or a request from the server: not ours
		}
		if env.Error != nil {
			return nil, fmt.Errorf("%s: %s: %w", s.name, method, env.Error)
		}
		return env.Result, nil
	}
}

// notify sends a notification.
func (s *server) notify(method string) error {
	_, err := fmt.Fprintf(s.in, `{"jsonrpc":"2.0","method":%q}`+"\n", method)
	return err
}

// initParams are the initialize parameters of a classic (2025-11-25)
// handshake, which both servers speak.
var initParams = json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"juju-bench","version":"1"}}`)

// initialize performs the handshake and returns when the answer to
// initialize has been read.
func (s *server) initialize() error {
	if _, err := s.request("initialize", initParams); err != nil {
		return err
	}
	return s.notify("notifications/initialized")
}

// toolResult is the part of a tools/call result the report checks.
type toolResult struct {
	IsError bool `json:"isError"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

// text joins the result's text content.
func (r *toolResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// callParams encodes the params of a tools/call request.
func callParams(tool string, args any) json.RawMessage {
	b, err := json.Marshal(map[string]any{"name": tool, "arguments": args})
	if err != nil {
		panic(err) // the report's own argument maps always encode
	}
	return b
}

// call runs a tool; a tool error is an error.
func (s *server) call(params json.RawMessage) (*toolResult, error) {
	raw, err := s.request("tools/call", params)
	if err != nil {
		return nil, err
	}
	var res toolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("%s: tools/call result: %w", s.name, err)
	}
	if res.IsError {
		return &res, fmt.Errorf("%s: tool error: %.300s", s.name, res.text())
	}
	return &res, nil
}

// tools lists the server's tool names.
func (s *server) tools() ([]string, error) {
	raw, err := s.request("tools/list", json.RawMessage(`{}`))
	if err != nil {
		return nil, err
	}
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("%s: tools/list result: %w", s.name, err)
	}
	names := make([]string, len(list.Tools))
	for i, t := range list.Tools {
		names[i] = t.Name
	}
	return names, nil
}

// peakRSS is the process's VmHWM in bytes, from /proc.
func (s *server) peakRSS() (int64, error) { return s.status("VmHWM") }

// rss is the server's resident size now, in bytes (Linux).
func (s *server) rss() (int64, error) { return s.status("VmRSS") }

// status reads a size field of /proc/PID/status, in bytes.
func (s *server) status(field string) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0, fmt.Errorf("%s: %s: %w", s.name, field, err)
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s: %s %q: %w", s.name, field, v, err)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("%s: no %s in /proc/%d/status", s.name, field, s.cmd.Process.Pid)
}

// close ends stdin and waits for the server to exit, killing it after grace.
func (s *server) close(grace time.Duration) {
	s.in.Close()
	done := make(chan struct{})
	go func() {
		s.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(grace):
		s.cmd.Process.Kill()
		<-done
	}
	s.outF.Close()
}

// kill ends the server at once; used after a timed run whose process is of
// no further use.
func (s *server) kill() {
	s.in.Close()
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.outF.Close()
}

// fail adds the server's last stderr lines to err.
func (s *server) fail(err error) error {
	if msg := strings.TrimSpace(s.stderr.String()); msg != "" {
		return fmt.Errorf("%w\n%s stderr:\n%s", err, s.name, msg)
	}
	return err
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
