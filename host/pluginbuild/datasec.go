package pluginbuild

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
)

// Go's wasm linker leaves runs of zero bytes out of the data section, and
// each run it leaves out starts a new data segment: the core module has
// about 58,000 segments for 1.6 MB of data. wazero decodes each into an
// object of its own, kept as long as the module is, and every instance
// allocates a slice per segment. packData joins them.

// maxDataGap is the longest run of zeros packData writes out to join two
// segments; longer gaps stay gaps.
const maxDataGap = 4096

// Section ids of the wasm binary format.
const (
	secData      = 11
	secDataCount = 12
)

// errNotPackable reports a module packData leaves as it is.
var errNotPackable = errors.New("data section not packable")

// segment is one active data segment of memory 0 at a constant offset.
type segment struct {
	off  uint64
	data []byte
}

// packData returns wasm with its data segments joined wherever they are at
// most maxDataGap bytes apart, the gaps written out as zeros: a new
// instance's memory starts zeroed, so it holds the same bytes either way.
// A module whose data section it does not fully understand (passive
// segments, offsets that are not constants, overlaps) is returned as it is,
// as is one that already has as few segments.
func packData(wasm []byte) []byte {
	out, err := repackData(wasm)
	if err != nil {
		return wasm
	}
	return out
}

// repackData is packData, failing with errNotPackable where packData
// returns the module unchanged.
func repackData(wasm []byte) ([]byte, error) {
	if len(wasm) < 8 || !bytes.Equal(wasm[:4], []byte("\x00asm")) {
		return nil, errNotPackable
	}
	type section struct {
		id   byte
		body []byte
	}
	var sections []section
	var data []byte
	found := false
	for rest := wasm[8:]; len(rest) > 0; {
		id := rest[0]
		size, n := binary.Uvarint(rest[1:])
		if n <= 0 || size > uint64(len(rest)-1-n) {
			return nil, errNotPackable
		}
		body := rest[1+n : 1+n+int(size)]
		rest = rest[1+n+int(size):]
		if id == secData {
			if found {
				return nil, errNotPackable
			}
			data, found = body, true
		}
		sections = append(sections, section{id, body})
	}
	if !found {
		return nil, errNotPackable
	}
	segs, err := readSegments(data)
	if err != nil {
		return nil, err
	}
	joined := joinSegments(segs)
	if len(joined) == len(segs) {
		return nil, errNotPackable
	}
	out := append([]byte(nil), wasm[:8]...)
	for _, s := range sections {
		switch s.id {
		case secData:
			s.body = writeSegments(joined)
		case secDataCount:
			s.body = binary.AppendUvarint(nil, uint64(len(joined)))
		}
		out = append(out, s.id)
		out = binary.AppendUvarint(out, uint64(len(s.body)))
		out = append(out, s.body...)
	}
	return out, nil
}

// readSegments decodes a data section whose segments are all active, in
// memory 0, at an i32.const offset, without overlaps; they are returned in
// address order.
func readSegments(body []byte) ([]segment, error) {
	count, n := binary.Uvarint(body)
	if n <= 0 || count > uint64(len(body)) {
		return nil, errNotPackable
	}
	body = body[n:]
	segs := make([]segment, 0, count)
	for range count {
		// flags 0: active, memory 0, offset expression, bytes.
		if len(body) < 2 || body[0] != 0x00 || body[1] != 0x41 {
			return nil, errNotPackable
		}
		off, n := readSleb(body[2:])
		if n <= 0 || off < -1<<31 || off >= 1<<31 || len(body) < 2+n+1 || body[2+n] != 0x0b {
			return nil, errNotPackable
		}
		body = body[2+n+1:]
		size, m := binary.Uvarint(body)
		if m <= 0 || size > uint64(len(body)-m) {
			return nil, errNotPackable
		}
		segs = append(segs, segment{off: uint64(uint32(int32(off))), data: body[m : m+int(size)]})
		body = body[m+int(size):]
	}
	if len(body) != 0 || len(segs) == 0 {
		return nil, errNotPackable
	}
	slices.SortStableFunc(segs, func(a, b segment) int {
		switch {
		case a.off < b.off:
			return -1
		case a.off > b.off:
			return 1
		}
		return 0
	})
	for i := 1; i < len(segs); i++ {
		if prev := segs[i-1]; prev.off+uint64(len(prev.data)) > segs[i].off {
			return nil, errNotPackable
		}
	}
	if last := segs[len(segs)-1]; last.off+uint64(len(last.data)) > 1<<32 {
		return nil, errNotPackable
	}
	return segs, nil
}

// joinSegments joins sorted, disjoint segments at most maxDataGap apart.
func joinSegments(segs []segment) []segment {
	var out []segment
	for _, s := range segs {
		if len(out) > 0 {
			last := &out[len(out)-1]
			end := last.off + uint64(len(last.data))
			if gap := s.off - end; gap <= maxDataGap {
				last.data = append(append(last.data, make([]byte, gap)...), s.data...)
				continue
			}
		}
		out = append(out, segment{off: s.off, data: slices.Clip(append([]byte(nil), s.data...))})
	}
	return out
}

// writeSegments encodes segments as a data section's body.
func writeSegments(segs []segment) []byte {
	out := binary.AppendUvarint(nil, uint64(len(segs)))
	for _, s := range segs {
		out = append(out, 0x00, 0x41)
		out = appendSleb(out, int64(int32(uint32(s.off))))
		out = append(out, 0x0b)
		out = binary.AppendUvarint(out, uint64(len(s.data)))
		out = append(out, s.data...)
	}
	return out
}

// readSleb decodes a signed LEB128 number of at most 64 bits from the start
// of b and returns it with its length; n is 0 when b does not hold one.
func readSleb(b []byte) (v int64, n int) {
	var shift uint
	for i, c := range b {
		if i == 10 {
			return 0, 0
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v, i + 1
		}
	}
	return 0, 0
}

// appendSleb appends v as signed LEB128.
func appendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
