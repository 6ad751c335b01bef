package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// MaxMessage bounds one JSON-RPC message read on stdio (one line). mcp-go
// reads a line whole and copies it several times while it decodes it, so a
// line of 100 MB would cost a gigabyte; a longer line is discarded as it
// streams in, never held whole, and answered from what its first bytes say
// (discardedHead). 16 MiB is far above
// what a client sends: a model writes tens of kilobytes at a time, and
// results travel the other way.
const MaxMessage = 16 << 20

// maxInitializeWait bounds how long the reader holds the input after an
// initialize line for its answer; past it, the requests that follow are
// read anyway and refused if the handshake is still not done.
const maxInitializeWait = 10 * time.Second

// lineReader is the client's input, read a message at a time. It hands on
// whole messages of at most MaxMessage bytes, and for each:
//
//   - records a request in the inflight set, and holds back the end of the
//     input until every request has been answered (mcp-go cancels every
//     request it runs when its input ends);
//   - after an initialize request, reads nothing more until it has been
//     answered, so that a client that writes its first call right behind
//     its initialize (a script piped into `juju stdio`) finds the session
//     initialized: mcp-go serves each request on its own goroutine, and the
//     call would otherwise race the handshake;
//   - discards a longer line while reading it and calls tooLarge at its
//     end with the line's first bytes (at most headKeep).
type lineReader struct {
	ctx      context.Context
	r        io.Reader
	f        *inflight
	max      int               // MaxMessage; smaller in tests
	tooLarge func(head []byte) // answers a discarded line
	atEnd    func()            // told when the input has ended, before next waits for the answers
	cutHead  []byte            // the first bytes of the line being discarded

	buf      []byte   // what r gave and was not yet scanned, within chunk
	chunk    []byte   // the read buffer
	parts    [][]byte // the line being collected, in pieces
	size     int      // its length so far
	skipping bool     // discarding the rest of a line over max
	ready    []byte   // a whole line, handed on by next
	head     msgHead  // ready's head
	hold     string   // the id of an initialize handed on and not yet answered
	err      error    // r's error, once seen
}

// headKeep is how much of a discarded line the reader keeps: enough for
// the id, the method and the tool's name, which clients write before the
// arguments.
const headKeep = 4 << 10

func newLineReader(ctx context.Context, r io.Reader, f *inflight, tooLarge func(head []byte)) *lineReader {
	return &lineReader{ctx: ctx, r: r, f: f, max: MaxMessage, tooLarge: tooLarge, chunk: make([]byte, 64<<10)}
}

// next returns the client's next message, a line of at most max bytes
// (with its newline, when it had one), and what its head says. At the end
// of the input it waits until every request read has been answered, then
// returns the reader's error (io.EOF). The line is the caller's: reading on
// does not overwrite it.
func (l *lineReader) next() ([]byte, msgHead, error) {
	for l.ready == nil {
		if l.hold != "" {
			l.waitAnswer(l.hold)
			l.hold = ""
		}
		switch {
		case len(l.buf) > 0:
			l.scan()
		case l.err == nil:
			n, err := l.r.Read(l.chunk)
			l.buf, l.err = l.chunk[:n], err
		case l.size > 0 && !l.skipping:
			l.ready = l.join() // a last line without its newline, as it came
			l.ready, l.head = l.record(l.ready)
		default:
			if l.atEnd != nil {
				l.atEnd()
			}
			if l.err == io.EOF {
				l.f.wait(l.ctx)
			}
			return nil, msgHead{}, l.err
		}
	}
	line, head := l.ready, l.head
	l.ready, l.head = nil, msgHead{}
	return line, head, nil
}

// scan moves what buf holds into the line being collected, up to the end
// of one line, which becomes ready.
func (l *lineReader) scan() {
	seg := l.buf
	i := bytes.IndexByte(seg, '\n')
	if i >= 0 {
		seg = seg[:i+1]
	}
	l.buf = l.buf[len(seg):]
	length := l.size + len(seg) // of the message, without its newline
	if i >= 0 {
		length--
	}
	switch {
	case l.skipping:
	case length > l.max:
		l.skipping = true
		l.cutHead = l.lineHead(bytes.TrimSuffix(seg, []byte("\n")))
		l.parts, l.size = nil, 0
	case i >= 0 && l.size == 0:
		// The whole line is in chunk, which the next read overwrites.
		l.ready = bytes.Clone(seg)
		l.ready, l.head = l.record(l.ready)
		return
	default:
		l.parts = append(l.parts, bytes.Clone(seg))
		l.size += len(seg)
	}
	switch {
	case i < 0:
	case l.skipping:
		head := l.cutHead
		l.skipping, l.cutHead = false, nil
		l.tooLarge(head)
	default:
		l.ready = l.join()
		l.ready, l.head = l.record(l.ready)
	}
}

// lineHead returns the first headKeep bytes of the line collected so far
// followed by seg, as a copy.
func (l *lineReader) lineHead(seg []byte) []byte {
	head := make([]byte, 0, headKeep)
	for _, p := range l.parts {
		head = append(head, p[:min(len(p), headKeep-len(head))]...)
	}
	return append(head, seg[:min(len(seg), headKeep-len(head))]...)
}

// join returns the pieces of the line as one slice and forgets them.
func (l *lineReader) join() []byte {
	dst := make([]byte, 0, l.size)
	for _, p := range l.parts {
		dst = append(dst, p...)
	}
	l.parts, l.size = nil, 0
	return dst
}

// msgHead is what the reader reads of a message: its method and id.
type msgHead struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	Method  string          `json:"method"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
	// badID is set for a request whose id is neither a string nor a
	// number (MCP allows no other, null included): it is answered with an
	// invalid-request error, and neither recorded nor served.
	badID bool
	// badShape is set for a request that also carries result or error,
	// which no JSON-RPC message may: mcp-go takes it for a response and
	// answers nothing (juju wrote "null" and waited for the answer at the
	// end of the input for ever). It is refused like a bad id.
	badShape bool
	// badVersion is set for a request whose jsonrpc member is not a
	// string: mcp-go answers it as unparsable, with a null id, so its id
	// would stay pending for ever (and juju would not end with its input).
	// It is refused like a bad id, with its id.
	badVersion bool
	// badMethod is set for a request whose method is not a string (a
	// number, an object): mcp-go answers it as unparsable, with a null
	// id, so it would stay pending for ever. It is refused with its id.
	badMethod bool
	// deep is set for a request nested past the depth Go's JSON reads
	// (10,000): mcp-go answered it as unparsable, with id null, and the
	// client waited for its answer for ever. It is answered with its id,
	// read from its first bytes (deepHead); tool is the tool a tools/call
	// names.
	deep bool
	tool string
	// strayParams is set for a notification whose params is not an
	// object (strayParams): it is dropped.
	strayParams bool
}

// strayParams reports whether m, with head, is a notification (a method,
// no id) whose params is there and not an object. mcp-go cannot read it
// and answered it with a parse error of id null, over HTTP as a 200: a
// notification is never answered (JSON-RPC), and no client can tie an
// error of id null to anything. Such a notification means nothing juju
// acts on, so it is dropped, as one of a method juju does not know is.
func strayParams(m []byte, head msgHead) bool {
	if head.Method == "" || len(head.ID) > 0 {
		return false
	}
	var p struct {
		Params json.RawMessage `json:"params"`
	}
	return json.Unmarshal(m, &p) == nil && notObject(p.Params)
}

// notObject reports whether raw, a params member as written, is there
// and neither an object nor null.
func notObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] != '{' && !bytes.Equal(raw, []byte("null"))
}

// deepHead is the head of line, a message json could not read because
// of err: when err is the nesting depth and the message's first bytes
// give a request's id and method, a head marked deep; otherwise none.
func deepHead(line []byte, err error) msgHead {
	var se *json.SyntaxError
	if !errors.As(err, &se) || !strings.HasSuffix(se.Error(), "exceeded max depth") {
		return msgHead{}
	}
	h := readDiscardedHead(line[:min(len(line), headKeep)])
	if h.method == "" || !validID(h.id) {
		return msgHead{}
	}
	return msgHead{Method: h.method, ID: h.id, deep: true, tool: h.tool}
}

// deepMessage refuses a request nested too deep to read.
const deepMessage = "the message is nested deeper than 10,000 arrays and objects, more than juju reads; send it flatter"

// badVersionMessage refuses a request whose jsonrpc member is not "2.0".
const badVersionMessage = `the request's jsonrpc member must be the string "2.0"`

// badMethodMessage refuses a request whose method is not a name.
const badMethodMessage = "the request's method must be the name of an MCP method, a string such as \"tools/call\""

// badShapeMessage refuses a request carrying result or error.
const badShapeMessage = "the message carries a method and also result or error; a request carries method and params, a response result or error, never both"

// badIDMessage refuses a request whose id is not a string or a number.
const badIDMessage = "the request's id is neither a string nor a number; MCP requests need one of those"

// badMethod reports whether err, json's refusal of a message read into
// head, refused only a request's method that is not a string: the rest of
// head is read, and its id is one to answer.
func badMethod(head msgHead, err error) bool {
	var te *json.UnmarshalTypeError
	return errors.As(err, &te) && te.Field == "method" && validID(head.ID) &&
		len(head.Result) == 0 && len(head.Error) == 0
}

// validID reports whether raw, an id as written, is a string or a number
// that mcp-go can read (1e400 is a number JSON allows and Go does not).
func validID(raw json.RawMessage) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 || !(raw[0] == '"' || raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
		return false
	}
	var v any
	return json.Unmarshal(raw, &v) == nil
}

// validVersion reports whether raw, a request's jsonrpc member as written,
// is absent or a string (mcp-go refuses a string other than "2.0" itself,
// with the request's id).
func validVersion(raw json.RawMessage) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) == 0 || raw[0] == '"'
}

// request reports whether the message is a request (it has an id and a
// method; a response has no method, a notification no id).
func (h msgHead) request() bool { return len(h.ID) > 0 && h.Method != "" }

// record reads a message's head and notes a request in the inflight set;
// after an initialize, the reader holds until it is answered. A request
// whose id mcp-go would not write back as it is gets one of juju's
// (idMap.substitute): record returns the message as it is to be served.
func (l *lineReader) record(line []byte) ([]byte, msgHead) {
	var head msgHead
	if err := json.Unmarshal(line, &head); err != nil {
		head.badMethod = badMethod(head, err)
		if head.badMethod {
			return line, head
		}
		return line, deepHead(line, err)
	}
	if !head.request() {
		// A response keeps its id, which the questions note (answered).
		return quietError(line, head), msgHead{Method: head.Method, ID: head.ID, strayParams: strayParams(line, head)}
	}
	if !validID(head.ID) {
		head.badID = true
		return line, head
	}
	if len(head.Result) > 0 || len(head.Error) > 0 {
		head.badShape = true
		return line, head
	}
	if !validVersion(head.JSONRPC) {
		head.badVersion = true
		return line, head
	}
	var id string
	line, head.ID, id = l.f.ids.substitute(line, head.ID, "")
	l.f.add(id)
	if head.Method == string(mcp.MethodInitialize) {
		l.hold = id
	}
	return line, head
}

// quietError returns line, a message of the client's, with a result
// member added after its own when it is an error response (an id and an
// error, no method and no result), so that mcp-go never answers it.
// mcp-go hands a response to the request of juju's that awaits its id,
// and there reads the error before any result; a response no request
// awaits (an elicitation's answer after its call was cancelled) it drops
// when it carries a result, but takes for a request when it carries an
// error alone, and answered it "method not found" with the id of juju's
// request, which the client read as the answer to its own request of the
// same number. JSON-RPC answers no response.
func quietError(line []byte, head msgHead) []byte {
	if head.Method != "" || len(head.ID) == 0 || !present(head.Error) || present(head.Result) {
		return line
	}
	end := bytes.LastIndexByte(line, '}')
	if end < 0 {
		return line
	}
	out := make([]byte, 0, len(line)+len(quietResult))
	out = append(out, line[:end]...)
	out = append(out, quietResult...)
	return append(out, line[end:]...)
}

// quietResult is the member quietError adds: last, so that it is the
// result json reads whatever the message held before.
const quietResult = `,"result":{}`

// present reports whether raw, a member as written, is there and not null.
func present(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && !bytes.Equal(raw, []byte("null"))
}

// waitAnswer waits for the answer to id, at most maxInitializeWait.
func (l *lineReader) waitAnswer(id string) {
	t := time.NewTimer(maxInitializeWait)
	defer t.Stop()
	select {
	case <-l.f.answer(id):
	case <-t.C:
	case <-l.ctx.Done():
	}
}

// sizeText writes a byte count in MiB when it is a whole number of them.
func sizeText(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.Itoa(n>>20) + " MiB"
	}
	return strconv.Itoa(n) + " bytes"
}
