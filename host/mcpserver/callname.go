package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/sdk/abi"
)

// A tools/call names its tool with a string. One whose params.name is a
// number, an object, an array or a boolean, or whose params is not an
// object, mcp-go cannot decode: it answered a JSON-RPC invalid-request
// error naming a Go struct field, and no handler of juju's ran, so the
// call was in no audit record. Such a call names no tool, as a call to an
// unknown tool names none juju has: it is answered as that one is, with a
// JSON-RPC invalid-params error, whose message says what params.name must
// be, and audited as INVALID_ARGUMENT with the name as written (its JSON
// text, cut; juju audit shows it escaped, as any name a client chooses).
// Over stdio juju rewrites mcp-go's answer (clearerRefusal: nothing is
// looked at unless mcp-go refused the call); over HTTP the front answers
// before mcp-go, from the params it reads anyway (peekMessage). A
// tools/call mcp-go cannot decode for another reason (a _meta that is not
// an object) keeps mcp-go's answer and is audited all the same
// (auditUnparsableCalls). A null or absent name mcp-go reads as "", an
// unknown tool, answered and audited as such.

// maxNameShown bounds the JSON text of a name that is not a string, as
// the answer and the audit show it.
const maxNameShown = 200

// badCallName reads the params of a tools/call as the client wrote them.
// When mcp-go cannot read a tool's name from them, it returns what the
// audit records as the tool (the name's JSON text, cut; "" when params is
// not an object), the arguments to record, and the message refusing the
// call; bad is false when the name is a string, null or absent.
func badCallName(params json.RawMessage) (tool string, args json.RawMessage, msg string, bad bool) {
	params = bytes.TrimSpace(params)
	if len(params) == 0 || string(params) == "null" {
		return "", nil, "", false
	}
	if params[0] != '{' {
		return "", nil, "the params of a tools/call must be an object holding the tool's name and its arguments ({\"name\": \"read_file\", \"arguments\": {…}}), not " + jsonKind(params), true
	}
	var p struct {
		Name      json.RawMessage `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(params, &p) != nil {
		return "", nil, "", false // not JSON: mcp-go answers its parse error
	}
	name := bytes.TrimSpace(p.Name)
	if len(name) == 0 || name[0] == '"' || string(name) == "null" {
		return "", nil, "", false
	}
	tool = abi.Cut(string(name), maxNameShown)
	return tool, p.Arguments, "params.name must be a string, the name of a tool that tools/list gives; this call's is " + jsonKind(name) + " (" + tool + ")", true
}

// jsonKind names the kind of the JSON value v, with its article.
func jsonKind(v []byte) string {
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// invalidParams is the JSON-RPC invalid-params error answering id, as
// written.
func invalidParams(id json.RawMessage, msg string) mcp.JSONRPCError {
	return mcp.JSONRPCError{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(asWritten(id)),
		Error:   mcp.NewJSONRPCErrorDetails(mcp.INVALID_PARAMS, msg, nil),
	}
}

// clearerRefusal is the answer to the tools/call line: resp, mcp-go's,
// unless mcp-go refused the call because its params name no tool as a
// string, which gets badCallName's message instead.
func clearerRefusal(resp mcp.JSONRPCMessage, line []byte, head msgHead) mcp.JSONRPCMessage {
	e, ok := resp.(mcp.JSONRPCError)
	if !ok || e.Error.Code != mcp.INVALID_REQUEST {
		return resp
	}
	var m struct {
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil {
		return resp
	}
	if _, _, msg, bad := badCallName(m.Params); bad {
		return invalidParams(head.ID, msg)
	}
	return resp
}

// auditUnparsableCalls records the tools/call requests mcp-go could not
// decode, which it answers itself before any handler of juju's runs.
func (s *Server) auditUnparsableCalls(hk *server.Hooks) {
	hk.AddOnError(func(ctx context.Context, _ any, method mcp.MCPMethod, message any, err error) {
		var ue *server.UnparsableMessageError
		if method != mcp.MethodToolsCall || !errors.As(err, &ue) {
			return
		}
		var m struct {
			Params json.RawMessage `json:"params"`
		}
		json.Unmarshal(ue.GetMessage(), &m)
		tool, args, _, bad := badCallName(m.Params)
		if !bad {
			if req, ok := message.(*mcp.CallToolRequest); ok {
				tool = req.Params.Name // read before what mcp-go could not
			}
		}
		var a any
		if args != nil {
			a = args
		}
		s.refused(ctx, tool, a, abi.InvalidArgument)
	})
}

// refusedCall is a tools/call the HTTP front refuses for its params
// (badCallName): what the audit records, and the answer.
type refusedCall struct {
	tool   string
	args   json.RawMessage
	answer mcp.JSONRPCError
}

// namelessCall is the refusal of the tools/call with id and params, or
// nil when mcp-go can read its tool's name.
func namelessCall(id, params json.RawMessage) *refusedCall {
	tool, args, msg, bad := badCallName(params)
	if !bad {
		return nil
	}
	return &refusedCall{tool: tool, args: args, answer: invalidParams(id, msg)}
}

// refusedCall audits a call the front refuses for its params.
func (f *front) refusedCall(ctx context.Context, c *refusedCall) {
	if f.refused == nil {
		return
	}
	var args any
	if c.args != nil {
		args = c.args
	}
	f.refused(ctx, c.tool, args, abi.InvalidArgument)
}
