package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
)

// questions learns, over stdio, the id mcp-go gives each elicitation/create
// juju sends, so that a question juju gives up (its call cancelled, or the
// owner's time over) is withdrawn with notifications/cancelled, as MCP has
// the side that sent a request do: the client's form closes, where it
// stayed open and a yes given in it later went nowhere. mcp-go neither
// says the id nor withdraws the request.
//
// One question is sent at a time: sending takes sem, the writer hands the
// id of the elicitation/create it writes to next, and the sender frees sem.
//
// When the client's input ends it can answer nothing more: a question
// whose answer had not come by then is given up (gone), and its call waits
// for juju approvals in a terminal instead, where the owner can still say
// yes. It waited for the owner's whole time before, with nothing recorded
// for the terminal meanwhile. An answer read before the end is taken: the
// reader notes each answer as it hands it on (answered), and mcp-go reads
// them in order.
type questions struct {
	sem  chan struct{}
	mu   sync.Mutex
	next chan int64
	open map[int64]bool // the questions sent and not settled: their answer read?
	gone chan struct{}  // closed when the client's input has ended
	end  sync.Once
}

func newQuestions() *questions {
	return &questions{sem: make(chan struct{}, 1), open: map[int64]bool{}, gone: make(chan struct{})}
}

// errHungUp is a question given up because the client's input ended.
var errHungUp = errors.New("the client's input ended before it answered")

// inputEnded notes that the client can send nothing more.
func (q *questions) inputEnded() { q.end.Do(func() { close(q.gone) }) }

// answered notes that the client answered the message of id (a
// response's id, as it wrote it), when it is an open question's.
func (q *questions) answered(id json.RawMessage) {
	n, err := strconv.ParseInt(string(bytes.TrimSpace(id)), 10, 64)
	if err != nil {
		return
	}
	q.mu.Lock()
	if _, ok := q.open[n]; ok {
		q.open[n] = true
	}
	q.mu.Unlock()
}

// settle forgets question id, and reports whether its answer was read.
func (q *questions) settle(id int64) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	seen := q.open[id]
	delete(q.open, id)
	return seen
}

// answerRead reports whether question id's answer was read.
func (q *questions) answerRead(id int64) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.open[id]
}

// expect readies the writer to hand on the id of the next question, for
// the sender holding sem.
func (q *questions) expect(ch chan int64) {
	q.mu.Lock()
	q.next = ch
	q.mu.Unlock()
}

// elicitationPrefix starts the requests mcp-go's stdio session sends, its
// id next.
var elicitationPrefix = []byte(`{"jsonrpc":"2.0","id":`)

// wrote notes b, a message juju writes: when it is the elicitation/create
// awaited, its id goes to the sender.
func (q *questions) wrote(b []byte) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.next == nil || !bytes.HasPrefix(b, elicitationPrefix) {
		return
	}
	rest := b[len(elicitationPrefix):]
	end := bytes.IndexByte(rest, ',')
	if end < 0 || !bytes.HasPrefix(rest[end:], []byte(`,"method":"elicitation/create"`)) {
		return
	}
	id, err := strconv.ParseInt(string(rest[:end]), 10, 64)
	if err != nil {
		return
	}
	q.open[id] = false // before it is written: its answer cannot come first
	q.next <- id
	q.next = nil
}

// cancelled is the notification withdrawing question id.
func cancelled(id int64, reason string) []byte {
	return append(mustJSON(map[string]any{
		"jsonrpc": "2.0",
		"method":  "notifications/cancelled",
		"params":  map[string]any{"requestId": id, "reason": reason},
	}), '\n')
}
