package wasmtest

import (
	"encoding/binary"
	"encoding/json"
	"time"
)

// Start says where a StartPlugin's module has start code, which loops for
// ever.
type Start int

const (
	NoStart         Start = iota // none
	StartSection                 // a start section (section 8) naming the loop
	StartInitialize              // an exported _initialize, the loop
)

// StartOptions shape a StartPlugin.
type StartOptions struct {
	Tool  string // its one tool, read-only and without arguments
	Start Start  // where its start code is
	// After, when set, makes it a time bomb: its start code, and its
	// juju_call too, loop only once the wall clock (WASI's clock_time_get)
	// is past After.
	After time.Time
	// Probe, when set, is a juju:channel host function that juju_call
	// calls first, with the request frame of {} (its answer unread).
	Probe string
	// ABI1 leaves out the juju:channel imports (Probe is ignored): the
	// module speaks ABI 1, and its juju_call returns 0 with no output.
	ABI1 bool
	// Locals is how many i64 locals its juju_call declares, in one group.
	Locals uint32
	// Answer, when set, is the result's header juju_call answers instead
	// of the text "ok".
	Answer []byte
	// Custom, when set, is the body of a custom section put last (a name
	// section, say).
	Custom []byte
	// Output, when set, is the output schema its tool declares.
	Output map[string]any
}

// StartPlugin is a plugin of one tool whose juju_call answers the text
// "ok" (ABI 2: it imports WASI's fd_write and clock_time_get and
// juju:channel's juju_output), with start code that loops for ever where
// o.Start says.
func StartPlugin(o StartOptions) []byte {
	const (
		i32, i64 = 0x7f, 0x7e
		descAt   = 1024 // the description, then the answer, then the probe's frame
	)
	type spec struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Tier        string         `json:"tier"`
		InputSchema map[string]any `json:"inputSchema"`
		Annotations map[string]any `json:"annotations"`
		Output      map[string]any `json:"outputSchema,omitempty"`
	}
	desc, _ := json.Marshal(map[string]any{"tools": []spec{{o.Tool, "answers ok", "R",
		map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false},
		map[string]any{"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}, o.Output}}})
	h, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}})
	if o.Answer != nil {
		h = o.Answer
	}
	answer := append(binary.LittleEndian.AppendUint32(nil, uint32(len(h))), h...)
	request := append(binary.LittleEndian.AppendUint32(nil, 2), "{}"...)
	answerAt := uint32(descAt + len(desc))
	requestAt := answerAt + uint32(len(answer))

	// send writes ln bytes at ptr to stdout (fd_write, its iovec at 0) and
	// calls the function of index fn with their length, its answer dropped.
	send := func(ptr, ln int32, fn byte) []byte {
		return cat(store(0, ptr), store(4, ln),
			s32(1), s32(0), s32(1), s32(8), []byte{0x10, 0x00, 0x1a}, // fd_write(1, iov 0, 1, nwritten at 8)
			[]byte{0x42}, sleb(int64(ln)), []byte{0x10, fn, 0x1a})
	}
	fn := func(params, results []byte) []byte {
		return cat([]byte{0x60}, u(uint32(len(params))), params, u(uint32(len(results))), results)
	}
	imp := func(mod, name string, typ byte) []byte { return cat(Name(mod), Name(name), []byte{0x00, typ}) }
	code := func(body []byte) []byte { return cat(u(uint32(len(body)+1)), []byte{0x00}, body) }

	// types: 0 (i32 i32 i32 i32) -> i32, 1 (i64) -> i64, 2 () -> i32,
	// 3 () -> (), 4 (i32 i64 i32) -> i32
	types := Vec(fn([]byte{i32, i32, i32, i32}, []byte{i32}), fn([]byte{i64}, []byte{i64}), fn(nil, []byte{i32}), fn(nil, nil),
		fn([]byte{i32, i64, i32}, []byte{i32}))
	imports := [][]byte{imp("wasi_snapshot_preview1", "fd_write", 0), imp("wasi_snapshot_preview1", "clock_time_get", 4)}
	describe, call := cat(s32(0), []byte{0x0b}), cat(s32(0), []byte{0x0b})
	if !o.ABI1 {
		imports = append(imports, imp("juju:channel", "juju_output", 1))
		describe = cat(send(descAt, int32(len(desc)), 2), describe)
		call = cat(send(int32(answerAt), int32(len(answer)), 2), call)
		if o.Probe != "" {
			imports = append(imports, imp("juju:channel", o.Probe, 1))
			call = cat(send(int32(requestAt), int32(len(request)), 3), call)
		}
	}
	own := uint32(len(imports))                  // the index of the module's first function
	spin := []byte{0x03, 0x40, 0x0c, 0x00, 0x0b} // loop br 0 end
	if !o.After.IsZero() {
		// clock_time_get(realtime, 1, at 64); if the time read > After: spin
		spin = cat(s32(0), []byte{0x42, 0x01}, s32(64), []byte{0x10, 0x01, 0x1a},
			s32(0), []byte{0x29, 0x03, 0x40, 0x42}, sleb(o.After.UnixNano()), []byte{0x55, 0x04, 0x40}, spin, []byte{0x0b})
		call = cat([]byte{0x10}, u(own+2), call)
	}
	spin = append(spin, 0x0b)
	exports := [][]byte{cat(Name("memory"), []byte{0x02, 0}),
		cat(Name("juju_describe"), []byte{0x00}, u(own)), cat(Name("juju_call"), []byte{0x00}, u(own+1))}
	if o.Start == StartInitialize {
		exports = append(exports, cat(Name("_initialize"), []byte{0x00}, u(own+2)))
	}
	sections := [][]byte{
		Section(1, types...),
		Section(2, Vec(imports...)...),
		Section(3, Vec([]byte{2}, []byte{2}, []byte{3})...),
		Section(5, Vec([]byte{0x00, 0x01})...),
		Section(7, Vec(exports...)...),
	}
	if o.Start == StartSection {
		sections = append(sections, Section(8, u(own+2)...))
	}
	data := func(at uint32, b []byte) []byte {
		return cat([]byte{0x00}, s32(int32(at)), []byte{0x0b}, u(uint32(len(b))), b)
	}
	callCode := code(call)
	if o.Locals > 0 {
		locals := cat([]byte{0x01}, u(o.Locals), []byte{i64})
		callCode = cat(u(uint32(len(locals)+len(call))), locals, call)
	}
	sections = append(sections,
		Section(10, Vec(code(describe), callCode, code(spin))...),
		Section(11, Vec(data(descAt, desc), data(answerAt, answer), data(requestAt, request))...))
	if o.Custom != nil {
		sections = append(sections, Section(0, o.Custom...))
	}
	return Binary(sections...)
}
