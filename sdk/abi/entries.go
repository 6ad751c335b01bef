package abi

import (
	"encoding/binary"
	"errors"
)

// Entries can travel packed in a frame's body instead of as JSON in its
// header (ListRequest.Packed). Inside wasm every byte a plugin looks at
// costs a call out of the guest, and decoding a listing's JSON took longer
// than the host took to read the folder; a packed entry is decoded with a
// few length prefixes and no scan of its strings.
//
// The packed form is a flags byte (PackedPlain), the number of entries as a
// uvarint, then per entry:
//
//	type    one byte: 0 file, 1 dir, 2 symlink, 3 other
//	size    a signed varint (encoding/binary's AppendVarint)
//	name, path, modTime, target: each a uvarint length and that many bytes
//
// Names are UTF-8 as the host has them; the host sets PackedPlain only when
// no string of any entry holds a byte that JSON escapes (below 0x20, '"',
// '\\', '<', '>', '&', or any byte from 0x7f up), so that a plugin may
// copy the strings into JSON between quotes as they are.

// PackedPlain is the flags bit of a packed listing whose strings need no
// JSON escaping.
const PackedPlain = 1

// ErrPacked reports packed entries that do not decode.
var ErrPacked = errors.New("abi: malformed packed entries")

var packedTypes = [...]string{TypeFile, TypeDir, TypeSymlink, TypeOther}

// AppendEntries appends the packed form of ents to b.
func AppendEntries(b []byte, ents []Entry) []byte {
	var flags byte = PackedPlain
	for i := range ents {
		e := &ents[i]
		if !JSONPlain(e.Name) || !JSONPlain(e.Path) || !JSONPlain(e.ModTime) || !JSONPlain(e.Target) {
			flags = 0
			break
		}
	}
	b = append(b, flags)
	b = binary.AppendUvarint(b, uint64(len(ents)))
	for i := range ents {
		e := &ents[i]
		t := byte(3)
		for j, name := range packedTypes {
			if e.Type == name {
				t = byte(j)
			}
		}
		b = append(b, t)
		b = binary.AppendVarint(b, e.Size)
		for _, s := range [...]string{e.Name, e.Path, e.ModTime, e.Target} {
			b = binary.AppendUvarint(b, uint64(len(s)))
			b = append(b, s...)
		}
	}
	return b
}

// DecodeEntries decodes packed entries. plain reports PackedPlain. The
// strings share one copy of body.
func DecodeEntries(body []byte) (ents []Entry, plain bool, err error) {
	if len(body) == 0 {
		return nil, false, ErrPacked
	}
	plain = body[0]&PackedPlain != 0
	count, w := binary.Uvarint(body[1:])
	// An entry takes six bytes at least: no count says more than fit.
	if w <= 0 || count > uint64(len(body)-1-w)/6 {
		return nil, false, ErrPacked
	}
	d := entryDecoder{b: body[1+w:], s: string(body[1+w:])}
	ents = make([]Entry, count)
	for k := range ents {
		e := &ents[k]
		t, ok := d.byte()
		if !ok || int(t) >= len(packedTypes) {
			return nil, false, ErrPacked
		}
		e.Type = packedTypes[t]
		size, w := binary.Varint(d.b[d.i:])
		if w <= 0 {
			return nil, false, ErrPacked
		}
		d.i += w
		e.Size = size
		if e.Name, ok = d.str(); !ok {
			return nil, false, ErrPacked
		}
		if e.Path, ok = d.str(); !ok {
			return nil, false, ErrPacked
		}
		if e.ModTime, ok = d.str(); !ok {
			return nil, false, ErrPacked
		}
		if e.Target, ok = d.str(); !ok {
			return nil, false, ErrPacked
		}
	}
	if d.i != len(d.b) {
		return nil, false, ErrPacked
	}
	return ents, plain, nil
}

// entryDecoder reads packed entries from b; s is b as one string, whose
// substrings the entries' strings are (one copy for them all).
type entryDecoder struct {
	b []byte
	s string
	i int
}

func (d *entryDecoder) byte() (byte, bool) {
	if d.i >= len(d.b) {
		return 0, false
	}
	d.i++
	return d.b[d.i-1], true
}

// str reads a uvarint length and that many bytes; a length under 128, one
// byte, is read without a call (inside wasm each call costs).
func (d *entryDecoder) str() (string, bool) {
	var n uint64
	if d.i < len(d.b) && d.b[d.i] < 0x80 {
		n = uint64(d.b[d.i])
		d.i++
	} else {
		v, w := binary.Uvarint(d.b[d.i:])
		if w <= 0 {
			return "", false
		}
		n = v
		d.i += w
	}
	if n > uint64(len(d.b)-d.i) {
		return "", false
	}
	v := d.s[d.i : d.i+int(n)]
	d.i += int(n)
	return v, true
}

// JSONPlain reports whether s goes into JSON between quotes unchanged, as
// encoding/json writes strings (HTML characters escaped).
func JSONPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}
