package mcpserver

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"
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
	// Lines come whole, in pieces, and a byte at a time.
	for name, r := range map[string]func() io.Reader{
		"whole":       func() io.Reader { return strings.NewReader(in) },
		"halves":      func() io.Reader { return iotest.HalfReader(strings.NewReader(in)) },
		"single byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(in)) },
	} {
		t.Run(name, func(t *testing.T) {
			refused := 0
			l := newLineReader(context.Background(), r(), newInflight(), func() { refused++ })
			l.max = 16
			got := readLines(t, l)
			if strings.Join(got, "|") != strings.Join(want, "|") || refused != 2 {
				t.Fatalf("got %q and %d refusals; want %q and 2", got, refused, want)
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
	l := newLineReader(context.Background(), in, newInflight(), func() { refused++ })
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
	w := &answerWriter{w: io.Discard, f: f}
	w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"))
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

func TestTooLargeAnswer(t *testing.T) {
	got := string(tooLargeAnswer(MaxMessage))
	if !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"the message is larger than 16 MiB`) || !strings.HasSuffix(got, "}\n") {
		t.Fatalf("answer: %s", got)
	}
}
