package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/jujutools/juju/sdk/abi"
)

// discardedHead is what the first bytes of a message too large to read
// say: its id and method, and the tool a tools/call names. Clients write
// them before the params (the official SDKs, mcp-go), so a client whose
// write_file of 20 MB is refused gets the refusal as that call's answer,
// not as an error of id null that it cannot match and waits past.
type discardedHead struct {
	id     json.RawMessage // the id as written; nil when not read
	method string
	tool   string // params.name, for a tools/call
}

// readDiscardedHead reads head, the start of a JSON object cut anywhere,
// as far as it goes: each member of the top level is taken once, and what
// the cut leaves unread stays unknown.
func readDiscardedHead(head []byte) discardedHead {
	var h discardedHead
	dec := json.NewDecoder(bytes.NewReader(head))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return h
	}
	seen := map[string]bool{}
	for dec.More() {
		k, err := dec.Token()
		key, ok := k.(string)
		if err != nil || !ok {
			return h
		}
		first := !seen[key]
		seen[key] = true
		switch {
		case key == "id" && first:
			t, err := dec.Token()
			if err != nil {
				return h
			}
			switch v := t.(type) {
			case string:
				h.id, _ = json.Marshal(v)
			case json.Number:
				if dec.InputOffset() >= int64(len(head)) {
					return h // the cut may have shortened it
				}
				h.id = json.RawMessage(v)
			case json.Delim: // an object or array: no valid id
				return discardedHead{}
			}
		case key == "method" && first:
			t, err := dec.Token()
			if err != nil {
				return h
			}
			h.method, _ = t.(string)
		case key == "params" && first:
			if !readParamsName(dec, &h.tool) {
				return h
			}
		default:
			if !skipValue(dec) {
				return h
			}
		}
	}
	return h
}

// readParamsName reads the params value, noting a top-level "name" string
// in *name; it reports whether the value was read to its end.
func readParamsName(dec *json.Decoder, name *string) bool {
	t, err := dec.Token()
	if err != nil {
		return false
	}
	if t != json.Delim('{') {
		return skipRest(dec, t)
	}
	found := false
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return false
		}
		if k == "name" && !found {
			t, err := dec.Token()
			if err != nil {
				return false
			}
			*name, _ = t.(string)
			found = true
			continue
		}
		if !skipValue(dec) {
			return false
		}
	}
	_, err = dec.Token() // the closing brace
	return err == nil
}

// skipValue reads one value and reports whether it was read whole.
func skipValue(dec *json.Decoder) bool {
	t, err := dec.Token()
	return err == nil && skipRest(dec, t)
}

// skipRest reads what follows t, the first token of a value, up to the
// value's end.
func skipRest(dec *json.Decoder, t json.Token) bool {
	if d, ok := t.(json.Delim); !ok || (d != '{' && d != '[') {
		return true
	}
	for depth := 1; depth > 0; {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return true
}

// tooLargeAnswer answers a message discarded for its size, from what its
// first bytes say: a tools/call gets a tool result with TOO_LARGE, which
// the model reads and acts on; another request an invalid-request error
// with its id; anything else (a notification, an id after the cut) that
// error with id null.
func tooLargeAnswer(h discardedHead, max int) []byte {
	limit := "larger than " + sizeText(max) + ", the most juju reads in one message; it was discarded unread."
	var id any
	if h.method == "" || json.Unmarshal(h.id, &id) != nil {
		id = nil
	} else {
		id = asWritten(h.id) // as the client wrote it (ids.go)
	}
	var msg any
	switch {
	case id != nil && h.method == string(mcp.MethodToolsCall):
		tool := "the tool"
		if h.tool != "" {
			tool = h.tool
		}
		msg = mcp.JSONRPCResponse{
			JSONRPC: mcp.JSONRPC_VERSION,
			ID:      mcp.NewRequestId(id),
			Result: toMCP(&abi.CallResult{Error: abi.Errorf(abi.TooLarge,
				"this call to %s was %s Send less at once: write a large file in parts (write_file with the first part, then edit_file or apply_patch to add the rest), or have a command produce it", tool, limit)}),
		}
	default:
		msg = mcp.JSONRPCError{
			JSONRPC: mcp.JSONRPC_VERSION,
			ID:      mcp.NewRequestId(id),
			Error: mcp.NewJSONRPCErrorDetails(mcp.INVALID_REQUEST,
				fmt.Sprintf("the message is %s Send less at once (write a large file in parts, or with a command)", limit), nil),
		}
	}
	b, err := json.Marshal(msg)
	if err != nil { // not expected: every part is plain
		b = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"the message is too large"}}`)
	}
	return append(b, '\n')
}
