package abi

import (
	"encoding/binary"
	"errors"
)

// A frame is the payload of every host function call, in both directions:
//
//	u32 little-endian  length of the header
//	header             JSON (a request or a result struct)
//	body               raw bytes (file content, …), possibly empty
//
// Keeping bulk bytes out of the JSON avoids base64 and a second copy.

// MaxHeader bounds the JSON header of a frame.
const MaxHeader = 16 << 20

// MaxFrame bounds a frame the host takes from a plugin at once: a header
// of MaxHeader and a body of a journal change's new contents
// (MaxChangeBytes) or of a result's spans (MaxResolved). The host takes
// less when the plugin's memory cap, less what its memory holds, leaves
// less room.
const MaxFrame = 4 + MaxHeader + max(MaxChangeBytes, MaxResolved)

// ErrFrame reports a frame that cannot be decoded.
var ErrFrame = errors.New("abi: malformed frame")

// EncodeFrame joins a JSON header and a body into one frame.
func EncodeFrame(header, body []byte) []byte {
	out := make([]byte, 4+len(header)+len(body))
	binary.LittleEndian.PutUint32(out, uint32(len(header)))
	copy(out[4:], header)
	copy(out[4+len(header):], body)
	return out
}

// DecodeFrame splits a frame into its header and body. The returned slices
// alias b.
func DecodeFrame(b []byte) (header, body []byte, err error) {
	if len(b) < 4 {
		return nil, nil, ErrFrame
	}
	n := binary.LittleEndian.Uint32(b)
	if n > MaxHeader || uint64(n) > uint64(len(b)-4) {
		return nil, nil, ErrFrame
	}
	return b[4 : 4+n], b[4+n:], nil
}

// EncodeCall is the input of ExportCall in ABI 2: a frame whose header is
// the tool's name (its bytes, not JSON) and whose body is the arguments'
// JSON, so that a plugin finds both without decoding JSON.
func EncodeCall(tool string, args []byte) []byte {
	out := make([]byte, 4+len(tool)+len(args))
	binary.LittleEndian.PutUint32(out, uint32(len(tool)))
	copy(out[4:], tool)
	copy(out[4+len(tool):], args)
	return out
}

// DecodeCall splits ExportCall's ABI 2 input into the tool's name and the
// arguments, which alias b.
func DecodeCall(b []byte) (tool string, args []byte, err error) {
	h, body, err := DecodeFrame(b)
	return string(h), body, err
}

// AppendFramed appends a frame of header and body to b, behind the frame's
// length (u32 little-endian): the body of a ReadsResult is a run of them.
func AppendFramed(b, header, body []byte) []byte {
	n := 4 + len(header) + len(body)
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(header)))
	b = append(b, header...)
	return append(b, body...)
}

// NextFramed splits the first frame AppendFramed wrote off b: its header
// and body, and the bytes after it. The returned slices alias b.
func NextFramed(b []byte) (header, body, rest []byte, err error) {
	if len(b) < 4 {
		return nil, nil, nil, ErrFrame
	}
	n := binary.LittleEndian.Uint32(b)
	if uint64(n) > uint64(len(b)-4) {
		return nil, nil, nil, ErrFrame
	}
	header, body, err = DecodeFrame(b[4 : 4+n])
	if err != nil {
		return nil, nil, nil, err
	}
	return header, body, b[4+n:], nil
}
