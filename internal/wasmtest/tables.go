package wasmtest

import (
	"encoding/binary"
	"encoding/json"
)

// Grower is a tool of TablePlugin: called, it grows the table by Delta.
type Grower struct {
	Name  string
	Delta uint32
}

// TablePlugin is an ABI 2 plugin (it imports WASI's fd_read and fd_write
// and juju:channel's juju_output) with one funcref table that starts with
// min entries and declares no maximum. Its juju_describe describes the
// tools, read-only and without arguments; its juju_call, called for a
// tool (told apart by the length of its name: give each a name of its own
// length), runs table.grow by the tool's Delta and answers the text
// "grown", or "refused" when table.grow gave -1.
func TablePlugin(min uint32, tools ...Grower) []byte {
	const (
		i32, i64, funcref = 0x7f, 0x7e, 0x70
		inBuf             = 1024 // the input: u32 length, u32 name length, name
		descAt            = 4096 // the description, then the two answers
	)
	type spec struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Tier        string         `json:"tier"`
		InputSchema map[string]any `json:"inputSchema"`
		Annotations map[string]any `json:"annotations"`
	}
	var d struct {
		Tools []spec `json:"tools"`
	}
	for _, g := range tools {
		d.Tools = append(d.Tools, spec{g.Name, "grows a table", "R",
			map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false},
			map[string]any{"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}})
	}
	desc, _ := json.Marshal(d)
	frame := func(text string) []byte {
		h, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
		return append(binary.LittleEndian.AppendUint32(nil, uint32(len(h))), h...)
	}
	grown, refused := frame("grown"), frame("refused")
	grownAt := uint32(descAt + len(desc))
	refusedAt := grownAt + uint32(len(grown))

	// write sends ln bytes at ptr to stdout (fd_write, its iovec at 0) and
	// calls juju_output with their length.
	write := func(ptr, ln int32) []byte {
		return cat(store(0, ptr), store(4, ln),
			s32(1), s32(0), s32(1), s32(8), []byte{0x10, 0x00, 0x1a}, // fd_write(1, iov 0, 1, nwritten at 8)
			[]byte{0x42}, sleb(int64(ln)), []byte{0x10, 0x02, 0x1a}) // juju_output(ln)
	}

	call := cat(store(16, inBuf), store(20, 2048), // an iovec at 16 over the input buffer
		s32(0), s32(16), s32(1), s32(24), []byte{0x10, 0x01, 0x1a}) // fd_read(0, iov 16, 1, nread at 24)
	for _, g := range tools {
		// if name length == len(g.Name): if table.grow(ref.null, Delta) == -1
		// answer refused, else grown; return 0
		call = cat(call, s32(inBuf+4), []byte{0x28, 0x02, 0x00}, s32(int32(len(g.Name))), []byte{0x46, 0x04, 0x40},
			[]byte{0xd0, funcref}, s32(int32(g.Delta)), []byte{0xfc, 0x0f, 0x00}, s32(-1), []byte{0x46, 0x04, 0x40},
			write(int32(refusedAt), int32(len(refused))),
			[]byte{0x05}, write(int32(grownAt), int32(len(grown))),
			[]byte{0x0b}, s32(0), []byte{0x0f, 0x0b})
	}
	call = cat(call, s32(0), []byte{0x0b})
	describe := cat(write(descAt, int32(len(desc))), s32(0), []byte{0x0b})

	code := func(body []byte) []byte { return cat(u(uint32(len(body)+1)), []byte{0x00}, body) }
	data := func(at uint32, b []byte) []byte {
		return cat([]byte{0x00}, s32(int32(at)), []byte{0x0b}, u(uint32(len(b))), b)
	}
	fn := func(params, results []byte) []byte {
		return cat([]byte{0x60}, u(uint32(len(params))), params, u(uint32(len(results))), results)
	}
	return Binary(
		// types: 0 (i32 i32 i32 i32) -> i32, 1 (i64) -> i64, 2 () -> i32
		Section(1, Vec(fn([]byte{i32, i32, i32, i32}, []byte{i32}), fn([]byte{i64}, []byte{i64}), fn(nil, []byte{i32}))...),
		Section(2, Vec(
			cat(Name("wasi_snapshot_preview1"), Name("fd_write"), []byte{0x00, 0}),
			cat(Name("wasi_snapshot_preview1"), Name("fd_read"), []byte{0x00, 0}),
			cat(Name("juju:channel"), Name("juju_output"), []byte{0x00, 1}))...),
		Section(3, Vec([]byte{2}, []byte{2})...),
		Section(4, Vec(cat([]byte{funcref, 0x00}, u(min)))...),
		Section(5, Vec([]byte{0x00, 0x01})...),
		Section(7, Vec(cat(Name("memory"), []byte{0x02, 0}), cat(Name("juju_describe"), []byte{0x00, 3}),
			cat(Name("juju_call"), []byte{0x00, 4}))...),
		Section(10, Vec(code(describe), code(call))...),
		Section(11, Vec(data(descAt, desc), data(grownAt, grown), data(refusedAt, refused))...),
	)
}

// sleb is v in signed LEB128.
// u is v as an unsigned LEB128, the encoding of wasm's sizes and indexes.
func u(v uint32) []byte { return binary.AppendUvarint(nil, uint64(v)) }

// s32 is the instruction i32.const v.
func s32(v int32) []byte { return append([]byte{0x41}, sleb(int64(v))...) }

// cat joins byte runs.
func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// store is the instructions that store the i32 v at the address at.
func store(at, v int32) []byte { return cat(s32(at), s32(v), []byte{0x36, 0x02, 0x00}) }

func sleb(v int64) []byte {
	var b []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
