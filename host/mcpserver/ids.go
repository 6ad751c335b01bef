package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/server"
)

// A JSON-RPC response names its request's id as the request wrote it.
// mcp-go decodes an id into a float64 and writes that back, so over stdio
// 9007199254740993 came back as 9007199254740992, 1e3 as 1000, 2.50 as
// 2.5 and "\u0061" as "a", and a client matching answers by id waited for
// ever; two ids that read as one float64 also shared mcp-go's entry for
// cancellation, so cancelling one stopped the other. A request whose id
// does not come back as written (idKey differs from it) is therefore
// handed to mcp-go under an id of juju's own, a string no client id can
// equal (idMap.substitute), and its answer, written or juju's own, gets
// the client's id back, byte for byte (idMap.restore); a cancellation
// naming it is handed on naming juju's id. Other requests pass untouched,
// their bytes unread beyond the head.

// privatePrefix starts every id juju gives a request; a client id that
// starts with it is replaced too, so none reaches mcp-go as one of juju's.
const privatePrefix = "\x1fjuju:"

// idMap holds the ids juju gave requests in place of the client's.
type idMap struct {
	mu      sync.Mutex
	n       uint64
	raw     map[string]json.RawMessage // juju's id (idKey) → the client's, as written
	scope   map[string]string          // juju's id → the scope of the client's
	private map[string]string          // scope, NUL, the client's id as written → the latest juju's id for it
}

func newIDMap() *idMap {
	return &idMap{raw: map[string]json.RawMessage{}, scope: map[string]string{}, private: map[string]string{}}
}

// keeps reports whether raw, a valid id whose canonical form is key,
// comes back from mcp-go as written, and names to mcp-go no request but
// its own.
func keeps(raw json.RawMessage, key string) bool {
	return key == string(raw) && !bytes.HasPrefix(raw, []byte(`"\u001fjuju:`)) && !bytes.HasPrefix(raw, []byte(`"`+privatePrefix)) && !numeric(raw)
}

// numeric reports whether raw is a string id that reads as a number, as
// "5" does. mcp-go finds the request a cancellation names by the id's
// text (fmt's %v of what it decoded), so "5" and 5 were one request to it:
// a client cancelling its request "5" stopped its request 5, whose answer
// then came all the same. Such an id gets one of juju's, and a
// cancellation naming one that is not in flight names nothing.
func numeric(raw json.RawMessage) bool {
	if len(raw) < 3 || len(raw) > 512 || raw[0] != '"' {
		return false
	}
	text := string(raw[1 : len(raw)-1])
	if bytes.IndexByte(raw, '\\') >= 0 && json.Unmarshal(raw, &text) != nil {
		return false
	}
	_, err := strconv.ParseFloat(text, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// nobody is an id no request of mcp-go's holds: juju's ids start at 1.
var nobody = mustJSON(privatePrefix + "0")

// substitute returns the message msg with its id, raw, replaced by one of
// juju's when mcp-go would not write raw back as it is, and the id's
// canonical form (idKey); msg, raw and its form otherwise.
//
// scope is where the client's ids are its own (an HTTP session, a
// principal; "" over stdio): a cancellation finds the request by its id
// within its scope.
func (m *idMap) substitute(msg []byte, raw json.RawMessage, scope string) ([]byte, json.RawMessage, string) {
	raw = bytes.TrimSpace(raw)
	key := idKey(raw)
	if keeps(raw, key) {
		return msg, raw, key
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(msg, &obj) != nil {
		return msg, raw, key
	}
	m.mu.Lock()
	m.n++
	id := mustJSON(privatePrefix + strconv.FormatUint(m.n, 10))
	m.raw[string(id)] = bytes.Clone(raw)
	m.scope[string(id)] = scope
	m.private[scope+"\x00"+string(raw)] = string(id)
	m.mu.Unlock()
	obj["id"] = id
	out, err := json.Marshal(obj)
	if err != nil {
		m.forget(id)
		return msg, raw, key
	}
	return out, id, string(id)
}

// restore returns b, a response as mcp-go or juju writes it, with the
// client's id in place of juju's, and forgets juju's id.
func (m *idMap) restore(b []byte) []byte {
	start, end, ok := responseIDSpan(b)
	if !ok || !bytes.HasPrefix(b[start:end], []byte(`"\u001fjuju:`)) {
		return b
	}
	key := string(b[start:end])
	m.mu.Lock()
	raw, found := m.raw[key]
	m.dropLocked(key)
	m.mu.Unlock()
	if !found {
		return b
	}
	out := make([]byte, 0, len(b)-(end-start)+len(raw))
	out = append(append(append(out, b[:start]...), raw...), b[end:]...)
	return out
}

// forget drops juju's id for a request answered without a response (one
// the client cancelled).
func (m *idMap) forget(id json.RawMessage) {
	if !bytes.HasPrefix(id, []byte(`"\u001fjuju:`)) {
		return
	}
	m.mu.Lock()
	m.dropLocked(string(id))
	m.mu.Unlock()
}

func (m *idMap) dropLocked(key string) {
	raw, ok := m.raw[key]
	if !ok {
		return
	}
	scoped := m.scope[key] + "\x00" + string(raw)
	delete(m.raw, key)
	delete(m.scope, key)
	if m.private[scoped] == key {
		delete(m.private, scoped)
	}
}

// cancelled returns a notifications/cancelled message, line, naming the
// request by juju's id when juju gave it one, with that id; line and the
// id as the client wrote it otherwise.
func (m *idMap) cancelled(line []byte, requestID json.RawMessage, scope string) ([]byte, json.RawMessage) {
	requestID = bytes.TrimSpace(requestID)
	m.mu.Lock()
	id, ok := m.private[scope+"\x00"+string(requestID)]
	m.mu.Unlock()
	switch {
	case !ok && (numeric(requestID) || !validID(requestID)):
		// Not the number it reads as; and null, true, [1] or {"a":1}, no
		// request's id, not the string mcp-go prints them as ("<nil>",
		// "true", "[1]", "map[a:1]"), which a request's may be.
		id = string(nobody)
	case !ok:
		return line, requestID
	}
	var obj map[string]json.RawMessage
	var params map[string]json.RawMessage
	if json.Unmarshal(line, &obj) != nil || json.Unmarshal(obj["params"], &params) != nil {
		return line, requestID
	}
	params["requestId"] = json.RawMessage(id)
	obj["params"] = mustJSON(params)
	out, err := json.Marshal(obj)
	if err != nil {
		return line, requestID
	}
	if !strings.HasSuffix(string(line), "\n") {
		return out, json.RawMessage(id)
	}
	return append(out, '\n'), json.RawMessage(id)
}

// idSwap puts a client's id back in place of juju's in the answer to one
// HTTP request, written by mcp-go as a JSON body or as an SSE event.
type idSwap struct {
	private, raw json.RawMessage // nil: nothing to swap
}

// apply returns p with the response naming private made to name raw: the
// message that starts p, or one that follows "data: ".
func (s idSwap) apply(p []byte) []byte {
	if s.private == nil {
		return p
	}
	const head = `{"jsonrpc":"2.0","id":`
	old := append([]byte(head), s.private...)
	i := bytes.Index(p, old)
	if i < 0 || i > 0 && !bytes.HasSuffix(p[:i], []byte("data: ")) {
		return p
	}
	out := make([]byte, 0, len(p)-len(s.private)+len(s.raw))
	out = append(append(append(append(out, p[:i]...), head...), s.raw...), p[i+len(old):]...)
	return out
}

// swapIDs returns an HTTP message, body, to be handed on under juju's id
// when mcp-go would not write its id back as it is (a request), or naming
// the request by juju's id (a cancellation); with it, the swap its answer
// needs and what to call once the request is served. scope is the
// session, or the principal of a request without one.
func (f *front) swapIDs(body []byte, msg request, scope string) ([]byte, idSwap, func()) {
	switch {
	case msg.id != nil:
		out, id, _ := f.ids.substitute(body, msg.id, scope)
		raw := bytes.TrimSpace(msg.id)
		if bytes.Equal(id, raw) {
			return body, idSwap{}, func() {}
		}
		return out, idSwap{private: id, raw: raw}, func() { f.ids.forget(id) }
	case msg.cancelID != nil:
		out, _ := f.ids.cancelled(body, msg.cancelID, scope)
		return out, idSwap{}, func() {}
	}
	return body, idSwap{}, func() {}
}

// idScope is where the ids of r's client are its own: its session, or,
// without one, its principal.
func idScope(r *http.Request, principal string) string {
	if id := r.Header.Get(server.HeaderKeySessionID); id != "" {
		return "session " + id
	}
	return "principal " + principal
}
