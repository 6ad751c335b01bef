package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/jujutools/juju/sdk/abi"
)

// A tool call's arguments may hold a number JSON allows and Go cannot
// read: 1e400 is past the largest float64. mcp-go decodes the whole call
// before any handler of juju's runs and answers such a call with a
// JSON-RPC invalid-request error, which a client reports as a failed
// request, not as a mistake the model can correct. The front therefore
// looks for such numbers before mcp-go does: it replaces the arguments of
// such a call with {} and notes the refusal in the call's context, and
// the handler answers it as a tool result, INVALID_ARGUMENT naming the
// number, audited as any refused call.

// unreadableKey carries the refusal of a call whose arguments were
// replaced.
type unreadableKey struct{}

// unreadableArguments is the refusal readableCall noted for this call.
func unreadableArguments(ctx context.Context) *abi.Error {
	e, _ := ctx.Value(unreadableKey{}).(*abi.Error)
	return e
}

// readableCall returns msg, a tools/call, as mcp-go can read it: when its
// arguments hold a number past float64's range, the message with {} as its
// arguments and a context carrying the refusal; otherwise msg and ctx as
// they are. The common case costs one pass over msg's bytes.
func readableCall(ctx context.Context, msg []byte) (context.Context, []byte) {
	if !mayOverflow(msg) {
		return ctx, msg
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil {
		return ctx, msg // mcp-go answers its parse error
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(m["params"], &p) != nil {
		return ctx, msg
	}
	var name string
	if json.Unmarshal(p["name"], &name) != nil {
		return ctx, msg
	}
	var args any
	err := json.Unmarshal(p["arguments"], &args)
	var te *json.UnmarshalTypeError
	if p["arguments"] == nil || !errors.As(err, &te) || !strings.HasPrefix(te.Value, "number ") {
		return ctx, msg
	}
	p["arguments"] = json.RawMessage("{}")
	params, err := json.Marshal(p)
	if err != nil {
		return ctx, msg
	}
	m["params"] = params
	fixed, err := json.Marshal(m)
	if err != nil {
		return ctx, msg
	}
	number := abi.Cut(strings.TrimPrefix(te.Value, "number "), maxNumberShown)
	e := abi.Errorf(abi.InvalidArgument, "the arguments of %s hold the number %s, past the largest number juju reads (about 1.8e308); send a number within the range the tool's input schema gives", name, number)
	return context.WithValue(ctx, unreadableKey{}, e), fixed
}

// mayOverflow reports whether msg may hold a JSON number past float64's
// range, about 1.8e308: a run of 300 or more digits (and points), or a
// number with an exponent whose digits are three or more or follow ten or
// more digits. It may report numbers inside strings too; readableCall
// then decodes the arguments to be sure. It never misses one: a number
// reaches 1e308 only with 309 digits before its point, or an exponent
// that, with two digits, leaves at least 210 for the mantissa.
func mayOverflow(msg []byte) bool {
	run := 0 // digits and points in a row
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		switch {
		case c >= '0' && c <= '9' || c == '.':
			if run++; run >= 300 {
				return true
			}
			continue
		case (c == 'e' || c == 'E') && run > 0:
			j := i + 1
			if j < len(msg) && (msg[j] == '+' || msg[j] == '-') {
				j++
			}
			k := j
			for k < len(msg) && msg[k] >= '0' && msg[k] <= '9' {
				k++
			}
			if k-j >= 3 || k > j && run >= 10 {
				return true
			}
		}
		run = 0
	}
	return false
}

// maxNumberShown is as much of such a number as the refusal shows: enough
// to find it among the arguments.
const maxNumberShown = 40

// isToolsCall reports whether head is that of a tools/call request.
func isToolsCall(head msgHead) bool {
	return head.Method == string(mcp.MethodToolsCall) && head.request()
}
