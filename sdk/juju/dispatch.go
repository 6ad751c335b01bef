package juju

import (
	"encoding/json"
	"reflect"
	"runtime/debug"

	"github.com/jujutools/juju/sdk/abi"
)

// serveCall answers one juju_call: a CallRequest in, a CallResult frame
// out. It never fails: every problem is an error inside the result.
func serveCall(input []byte) *frame {
	f := &frame{}
	res := dispatch(input, &f.body)
	// The structured content is already JSON: spliced in rather than
	// scanned again by encoding/json.
	structured := res.Structured
	res.Structured = nil
	encodeResult(f, res, structured)
	return f
}

// dispatch runs the tool input names; the strings its structured content
// leaves out go into b.
func dispatch(input []byte, b *body) *abi.CallResult {
	name, args, err := abi.DecodeFrame(input)
	if err != nil {
		return &abi.CallResult{Error: Errorf(abi.InvalidArgument, "the call request is not a valid frame")}
	}
	t := toolByName[string(name)]
	if t == nil {
		return &abi.CallResult{Error: Errorf(abi.InvalidArgument, "this plugin has no tool %q", name)}
	}
	res, err := t.invoke(args)
	if err != nil {
		return &abi.CallResult{Error: t.publicError(err)}
	}
	return t.encode(res, b)
}

// invoke runs the handler, turning a panic into an INTERNAL error.
func (t *tool) invoke(args json.RawMessage) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			Logf(LevelError, "tool %s panicked: %v\n%s", t.name, p, debug.Stack())
			res, err = nil, Errorf(abi.Internal, "the tool %s failed unexpectedly (a bug in the plugin); try different arguments or another tool, and tell the owner", t.name)
		}
	}()
	return t.run(&t.call, args)
}

// publicError keeps the code of an *Error and hides anything else.
func (t *tool) publicError(err error) *abi.Error {
	if e, ok := AsError(err); ok {
		return &abi.Error{Code: e.Code, Message: e.Message}
	}
	Logf(LevelError, "tool %s failed: %v", t.name, err)
	return Errorf(abi.Internal, "the tool %s failed unexpectedly; try again, and tell the owner if it persists", t.name)
}

func (t *tool) encode(r *Result, sp *body) *abi.CallResult {
	if r == nil {
		return &abi.CallResult{Content: []abi.Content{}}
	}
	out := &abi.CallResult{Content: r.content}
	if r.structured == nil {
		return out
	}
	if t.out != nil && deref(reflect.TypeOf(r.structured)) != t.out {
		Logf(LevelError, "tool %s returned structured content of type %T, not its Output type %s", t.name, r.structured, t.out)
		return &abi.CallResult{Error: Errorf(abi.Internal, "the tool %s returned a malformed result (a bug in the plugin); tell the owner", t.name)}
	}
	var b []byte
	ok := false
	if a, is := r.structured.(JSONAppender); is {
		b, ok = a.AppendJSON(structuredBuf[:0])
		if ok && cap(b) <= maxStructuredBuf {
			structuredBuf = b[:0]
		}
	}
	if !ok {
		b, ok = marshalSpill(r.structured, sp)
	}
	var err error
	if !ok {
		sp.reset()
		b, err = json.Marshal(r.structured)
	}
	if err != nil {
		Logf(LevelError, "tool %s: encoding structured content: %v", t.name, err)
		return &abi.CallResult{Error: Errorf(abi.Internal, "the tool %s could not encode its result (a bug in the plugin); tell the owner", t.name)}
	}
	out.Structured = b
	return out
}

// structuredBuf is where a JSONAppender writes a result's structured
// content, kept from call to call: a fresh 4 KiB buffer a call was most of
// what a small read_file allocated inside wasm (5.4 KB), and the guest's
// collector runs in proportion to that. The bytes are used only until the
// call's frame is written out (outputFrame copies them to the host), and a
// module serves one call at a time. A buffer grown past maxStructuredBuf
// is let go, so that one large result does not pin its memory.
var structuredBuf = make([]byte, 0, 1024)

const maxStructuredBuf = 64 << 10
