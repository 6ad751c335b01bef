package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// readLines reads every message of l.
func readLines(t *testing.T, l *lineReader) []string {
	t.Helper()
	var out []string
	for {
		line, _, err := l.next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(line))
	}
}

// A message read is the caller's: reading on does not overwrite it.
func TestLineReaderLinesAreKept(t *testing.T) {
	l := newLineReader(context.Background(), strings.NewReader("one\ntwo\nthree\n"), newInflight(), nil)
	var kept [][]byte
	for {
		line, _, err := l.next()
		if err != nil {
			break
		}
		kept = append(kept, line)
	}
	if got := string(bytes.Join(kept, nil)); got != "one\ntwo\nthree\n" {
		t.Fatalf("lines kept: %q", got)
	}
}

func TestLineReaderDiscardsLongLines(t *testing.T) {
	in := "short\n" + strings.Repeat("x", 40) + "\n" + strings.Repeat("y", 16) + "\n\n" + strings.Repeat("z", 17) + "\nlast"
	want := []string{"short\n", strings.Repeat("y", 16) + "\n", "\n", "last"}
	discarded := []string{strings.Repeat("x", 40), strings.Repeat("z", 17)}
	// Lines come whole, in pieces, and a byte at a time.
	for name, r := range map[string]func() io.Reader{
		"whole":       func() io.Reader { return strings.NewReader(in) },
		"halves":      func() io.Reader { return iotest.HalfReader(strings.NewReader(in)) },
		"single byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(in)) },
	} {
		t.Run(name, func(t *testing.T) {
			var heads []string
			l := newLineReader(context.Background(), r(), newInflight(), func(head []byte) { heads = append(heads, string(head)) })
			l.max = 16
			got := readLines(t, l)
			if strings.Join(got, "|") != strings.Join(want, "|") || len(heads) != len(discarded) {
				t.Fatalf("got %q and refusals of %q; want %q and 2", got, heads, want)
			}
			// Each is answered from its first bytes: at least what was read
			// when it passed the limit.
			for i, h := range heads {
				if len(h) <= l.max || !strings.HasPrefix(discarded[i], h) {
					t.Fatalf("refusal %d from %q, of the line %q", i, h, discarded[i])
				}
			}
		})
	}
}

// endless is n bytes of 'x' and a newline, made as they are read.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	if e.n < 0 {
		return 0, io.EOF
	}
	k := min(len(p), e.n)
	for i := range p[:k] {
		p[i] = 'x'
	}
	e.n -= k
	if k < len(p) {
		p[k] = '\n'
		k++
		e.n = -1
	}
	return k, nil
}

// A 100 MB line costs the reader at most MaxMessage of memory, in all.
func TestLineReaderStreamsPastLongLines(t *testing.T) {
	refused := 0
	in := io.MultiReader(&endless{n: 100 << 20}, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n"))
	l := newLineReader(context.Background(), in, newInflight(), func(head []byte) {
		refused++
		if len(head) != headKeep || strings.Trim(string(head), "x") != "" {
			t.Errorf("the discarded line's head: %d bytes, %.40q…", len(head), head)
		}
	})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	line, head, err := l.next()
	runtime.ReadMemStats(&after)
	if err != nil || head.Method != "ping" || refused != 1 {
		t.Fatalf("after the long line: %q, %v, %d refusals", line, err, refused)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > MaxMessage+4<<20 {
		t.Fatalf("discarding a 100 MB line allocated %d MiB", grew>>20)
	}
}

func TestLineReaderHoldsAfterInitialize(t *testing.T) {
	f := newInflight()
	l := newLineReader(context.Background(), strings.NewReader(
		`{"jsonrpc":"2.0","id":1.0,"method":"initialize"}`+"\n"+`{"jsonrpc":"2.0","id":2,"method":"tools/call"}`+"\n"), f, nil)
	if line, head, err := l.next(); err != nil || head.Method != "initialize" {
		t.Fatalf("first read: %q, %v", line, err)
	}
	next := make(chan string)
	go func() {
		line, _, _ := l.next()
		next <- string(line)
	}()
	select {
	case got := <-next:
		t.Fatalf("read on before initialize was answered: %q", got)
	case <-time.After(50 * time.Millisecond):
	}
	// mcp-go answers under the id juju gave the request in place of 1.0,
	// which it would write back as 1 (ids.go).
	var out bytes.Buffer
	w := &answerWriter{w: &out, f: f}
	w.Write([]byte(`{"jsonrpc":"2.0","id":"\u001fjuju:1","result":{}}` + "\n"))
	if out.String() != `{"jsonrpc":"2.0","id":1.0,"result":{}}`+"\n" {
		t.Errorf("the answer written: %q", out.String())
	}
	select {
	case got := <-next:
		if !strings.Contains(got, "tools/call") {
			t.Fatalf("after the answer: %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("still held after initialize was answered")
	}
}

func TestInflightWaitsForAnswers(t *testing.T) {
	f := newInflight()
	l := newLineReader(context.Background(), strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`+"\n"+`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"), f, nil)
	for range 2 {
		if _, _, err := l.next(); err != nil {
			t.Fatal(err)
		}
	}
	eof := make(chan struct{})
	go func() {
		l.next() // EOF: held until id 1 is answered
		close(eof)
	}()
	select {
	case <-eof:
		t.Fatal("end of input passed while a request was unanswered")
	case <-time.After(50 * time.Millisecond):
	}
	w := &answerWriter{w: io.Discard, f: f}
	w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"))
	select {
	case <-eof:
	case <-time.After(5 * time.Second):
		t.Fatal("end of input held after the answer")
	}
}

// A discarded message is answered as the request its first bytes name,
// whatever the cut leaves out; nothing is guessed past the cut.
func TestTooLargeAnswer(t *testing.T) {
	const args = `"arguments":{"path":"big.txt","content":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`
	for _, c := range []struct {
		name, head string
		want       string // the answer's start
		tool       bool   // a tool result with TOO_LARGE
	}{
		{"tool call", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"write_file",` + args,
			`{"jsonrpc":"2.0","id":3,"result":{`, true},
		{"string id, members in another order", `{"method":"tools/call","params":{"_meta":{"progressToken":[1,{"a":"}"}]},"name":"write_file","arguments":{"path":"a"}},"id":"w\u0031","jsonrpc":"2.0"`,
			`{"jsonrpc":"2.0","id":"w1","result":{`, true},
		{"the name after the arguments", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{` + args,
			`{"jsonrpc":"2.0","id":4,"result":{`, true},
		{"another request", `{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"` + strings.Repeat("y", 50),
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"the message is larger than 16 MiB`, false},
		{"the id after the cut", `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"write_file",` + args,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"the message is larger than 16 MiB`, false},
		{"a number the cut may have shortened", `{"jsonrpc":"2.0","method":"tools/call","id":12`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600`, false},
		{"no method before the cut", `{"jsonrpc":"2.0","id":6,"params":{"name":"write_file",` + args,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600`, false},
		{"an object as id", `{"id":{"a":1},"method":"tools/call","params":{` + args,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600`, false},
		{"a null id", `{"id":null,"method":"tools/call","params":{` + args,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600`, false},
		{"not JSON", strings.Repeat("x", 100), `{"jsonrpc":"2.0","id":null,"error":{"code":-32600`, false},
		{"an array (a batch)", `[{"jsonrpc":"2.0","id":7,"method":"tools/call"`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600`, false},
		{"the id twice: the first counts", `{"id":8,"id":9,"method":"tools/call","params":{"name":"x"}`,
			`{"jsonrpc":"2.0","id":8,"result":{`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := string(tooLargeAnswer(readDiscardedHead([]byte(c.head)), MaxMessage))
			if !strings.HasPrefix(got, c.want) || !strings.HasSuffix(got, "}\n") || !json.Valid([]byte(got)) {
				t.Fatalf("answer:\n%s\nwant it to start\n%s", got, c.want)
			}
			if !c.tool {
				return
			}
			var resp struct {
				Result mcp.CallToolResult `json:"result"`
			}
			if err := json.Unmarshal([]byte(got), &resp); err != nil {
				t.Fatal(err)
			}
			text := resp.Result.Content[0].(mcp.TextContent).Text
			if !resp.Result.IsError || !strings.HasPrefix(text, "TOO_LARGE: this call to ") || !strings.Contains(text, "16 MiB") || !strings.Contains(text, "in parts") {
				t.Fatalf("tool result: %s", got)
			}
			if strings.Contains(c.head, `"name":"write_file"`) && !strings.Contains(text, "write_file") {
				t.Fatalf("the tool is not named: %s", text)
			}
		})
	}
}

// Every prefix of a message says its id, method and tool rightly or not at
// all: a cut never makes up a value.
func FuzzReadDiscardedHead(f *testing.F) {
	f.Add(int64(3), "tools/call", "write_file", "xyz", 10, false)
	f.Add(int64(123456), "ping", "", "", 0, true)
	f.Add(int64(-7), "tools/call", "a\"b\u00e9", "{\"k\":[1,2]}", 40, false)
	f.Fuzz(func(t *testing.T, id int64, method, tool, content string, cut int, idLast bool) {
		params, _ := json.Marshal(map[string]any{"name": tool, "arguments": map[string]string{"content": content}})
		idText := strconv.FormatInt(id, 10)
		msg := `{"jsonrpc":"2.0","id":` + idText + `,"method":` + string(mustMarshal(method)) + `,"params":` + string(params) + `}`
		if idLast {
			msg = `{"jsonrpc":"2.0","method":` + string(mustMarshal(method)) + `,"params":` + string(params) + `,"id":` + idText + `}`
		}
		if cut < 0 || cut > len(msg) {
			cut = len(msg)
		}
		h := readDiscardedHead([]byte(msg[:cut]))
		// What the message says, invalid UTF-8 replaced as JSON does.
		json.Unmarshal(mustMarshal(method), &method)
		json.Unmarshal(mustMarshal(tool), &tool)
		if h.id != nil && string(h.id) != idText {
			t.Fatalf("id %s read from %q (the message's is %s)", h.id, msg[:cut], idText)
		}
		if h.method != "" && h.method != method {
			t.Fatalf("method %q read from %q", h.method, msg[:cut])
		}
		if h.tool != "" && h.tool != tool {
			t.Fatalf("tool %q read from %q", h.tool, msg[:cut])
		}
		if cut == len(msg) && (h.id == nil || h.method != method || h.tool != tool) {
			t.Fatalf("the whole message %q read as %+v", msg, h)
		}
		tooLargeAnswer(h, MaxMessage) // never panics
	})
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
