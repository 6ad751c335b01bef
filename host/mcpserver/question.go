package mcpserver

import (
	"bytes"
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
type questions struct {
	sem  chan struct{}
	mu   sync.Mutex
	next chan int64
}

func newQuestions() *questions { return &questions{sem: make(chan struct{}, 1)} }

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
