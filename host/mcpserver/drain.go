package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
)

// inflight counts the client's requests that have not been answered yet, so
// that the end of the input does not cut them off: mcp-go cancels every
// running call when its input ends, which would make `juju stdio < calls`
// answer nothing. The reader records requests as they are read; the writer
// strikes them off as their responses are written.
//
// Ids are kept in one canonical form (see idKey), as mcp-go writes them.
type inflight struct {
	mu       sync.Mutex
	pending  map[string]int
	total    int                      // the requests pending, duplicates counted
	zero     chan struct{}            // closed while nothing is pending
	freed    chan struct{}            // closed and replaced when one is answered
	answered map[string]chan struct{} // closed when that id is answered
	ids      *idMap                   // the ids juju gave requests in place of the client's
}

func newInflight() *inflight {
	z := make(chan struct{})
	close(z)
	return &inflight{pending: map[string]int{}, zero: z, freed: make(chan struct{}), answered: map[string]chan struct{}{}, ids: newIDMap()}
}

func (f *inflight) add(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.pending) == 0 {
		f.zero = make(chan struct{})
	}
	f.pending[id]++
	f.total++
}

// waitBelow returns once fewer than n requests are pending, or ctx ends.
func (f *inflight) waitBelow(ctx context.Context, n int) {
	for {
		f.mu.Lock()
		if f.total < n {
			f.mu.Unlock()
			return
		}
		freed := f.freed
		f.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return
		}
	}
}

func (f *inflight) done(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, ok := f.pending[id]
	if !ok {
		return
	}
	f.total--
	close(f.freed)
	f.freed = make(chan struct{})
	if n > 1 {
		f.pending[id] = n - 1
		return
	}
	delete(f.pending, id)
	if c, ok := f.answered[id]; ok {
		close(c)
		delete(f.answered, id)
	}
	if len(f.pending) == 0 {
		close(f.zero)
	}
}

// answer returns a channel closed once every request with id has been
// answered (at once if none is pending).
func (f *inflight) answer(id string) <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c, ok := f.answered[id]; ok {
		return c
	}
	c := make(chan struct{})
	if f.pending[id] == 0 {
		close(c)
		return c
	}
	f.answered[id] = c
	return c
}

// wait returns when nothing is pending or ctx ends.
func (f *inflight) wait(ctx context.Context) {
	f.mu.Lock()
	z := f.zero
	f.mu.Unlock()
	select {
	case <-z:
	case <-ctx.Done():
	}
}

// responseID returns the id of a JSON-RPC response as mcp-go writes it
// ({"jsonrpc":"2.0","id":…,"result"|"error":…}), or false for anything else.
func responseID(b []byte) (string, bool) {
	start, end, ok := responseIDSpan(b)
	if !ok {
		return "", false
	}
	return idKey(b[start:end]), true
}

// responseIDSpan returns where the id of a JSON-RPC response, as
// responseID reads it, starts and ends in b.
func responseIDSpan(b []byte) (start, end int, ok bool) {
	const prefix = `{"jsonrpc":"2.0","id":`
	if !bytes.HasPrefix(b, []byte(prefix)) {
		return 0, 0, false
	}
	rest := b[len(prefix):]
	var n int
	if len(rest) > 0 && rest[0] == '"' {
		n = stringEnd(rest)
		if n < 0 {
			return 0, 0, false
		}
	} else {
		n = bytes.IndexByte(rest, ',')
		if n < 0 {
			return 0, 0, false
		}
	}
	after := rest[n:]
	if !bytes.HasPrefix(after, []byte(`,"result"`)) && !bytes.HasPrefix(after, []byte(`,"error"`)) {
		return 0, 0, false
	}
	return len(prefix), len(prefix) + n, true
}

// stringEnd is the length of the JSON string b starts with, its quotes
// included, or -1: a quote after a backslash is inside it ("a\"b").
func stringEnd(b []byte) int {
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++ // the escaped character, whatever it is
		case '"':
			return i + 1
		}
	}
	return -1
}

// idKey is the canonical form of a JSON-RPC id: as mcp-go writes it back,
// having decoded it into an any (so 1.0 and 1 are one id, as are "\u0061"
// and "a").
func idKey(raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}
