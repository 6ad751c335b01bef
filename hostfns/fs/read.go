package fs

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash/maphash"
	"io"
	"math"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// sniffLen is how much of a file is searched for a NUL byte.
const sniffLen = 8 << 10

func (s *server) read(ctx context.Context, req *abi.ReadRequest, _ []byte) (*abi.ReadResult, []byte, *abi.Error) {
	if e := checkRead(req); e != nil {
		return nil, nil, e
	}
	r, f, fi, ok := s.pol.ResolveRegular(req.Path)
	if !ok {
		var e *abi.Error
		if r, e = s.pol.Resolve(req.Path); e != nil {
			return nil, nil, e
		}
		if r.Info.IsDir() {
			return nil, nil, abi.Errorf(abi.InvalidArgument, "%q is a folder; use list_directory to see what it holds", r.Display)
		}
		if f, fi, e = s.pol.OpenRead(r); e != nil {
			return nil, nil, e
		}
	}
	defer f.Close()
	res := &abi.ReadResult{Path: r.Display, Size: fi.Size(), ModTime: modTime(fi.ModTime())}
	var seen digest // of the content, when the read passes over it whole
	if s.opts.Observe != nil {
		defer func() { s.opts.Observe(ctx, r, fi, seen.sum, seen.whole) }()
	}

	head := make([]byte, headLen(fi.Size()))
	n, err := readHead(f, head, fi.Size())
	if err != nil {
		return nil, nil, s.internal("read", r.Display, err)
	}
	head = head[:n]
	if n < cap(head) { // the head holds the whole file
		s.saw(&seen, head)
	}
	// A read that asks for the hash wants the file's own bytes (an edit's
	// base): it is served as before, a UTF-16 file as binary.
	if enc := utf16Encoding(head); enc != "" && !req.Binary && !req.Hash {
		return s.readUTF16(f, fi.Size(), req, res, enc, &seen)
	}
	if bytes.IndexByte(head, 0) >= 0 {
		res.Binary = true
		if !req.Binary {
			return res, nil, nil
		}
	}
	limit := s.readLimit(req)
	var body []byte
	if req.Line > 0 || req.Lines > 0 {
		if n < cap(head) {
			// The head holds the file whole (it read short of its
			// buffer): its lines are cut from it, without a copy.
			body = linesIn(head, req, limit, res)
		} else {
			body, err = readLines(ctx, s.tee(io.NewSectionReader(f, 0, math.MaxInt64), &seen), bufLen(int64(n), fi.Size()), req, limit, res)
		}
	} else {
		body, err = readBytes(f, req, fi.Size(), limit, res)
		if err == nil && !seen.whole && req.Offset == 0 && !res.Truncated && int64(len(body)) == fi.Size() {
			s.saw(&seen, body)
		}
	}
	if err != nil {
		if e := canceled(ctx); e != nil {
			return nil, nil, e
		}
		return nil, nil, s.internal("read", r.Display, err)
	}
	seen.done()
	if req.Hash && req.Line == 0 && req.Lines == 0 && req.Offset == 0 && req.Length == 0 && !res.Truncated {
		sum := sha256.Sum256(body) // the whole file: what a change's ExpectedSHA256 names
		res.SHA256 = hex.EncodeToString(sum[:])
	}
	return res, body, nil
}

// digest is what a read tells Observe of the content it passed over.
type digest struct {
	sum    uint64
	whole  bool          // sum is the digest of the whole content
	stream *maphash.Hash // hashing the bytes a read by lines passes over
}

// saw makes d the digest of b, the whole content of the file read.
func (s *server) saw(d *digest, b []byte) {
	if s.opts.Observe != nil {
		d.sum, d.whole = maphash.Bytes(s.opts.Seed, b), true
	}
}

// tee hashes into d what a read by lines reads of src, which passes over
// the whole file when it succeeds (see done).
func (s *server) tee(src io.Reader, d *digest) io.Reader {
	if s.opts.Observe == nil || d.whole {
		return src
	}
	d.stream = new(maphash.Hash)
	d.stream.SetSeed(s.opts.Seed)
	return io.TeeReader(src, d.stream)
}

// done takes the digest of a read by lines that succeeded: it read the
// file to its end.
func (d *digest) done() {
	if d.stream != nil {
		d.sum, d.whole = d.stream.Sum64(), true
	}
}

// maxUTF16 bounds a UTF-16 file read as text: it is converted whole. A
// larger one is answered as binary.
const maxUTF16 = 16 << 20

// utf16Encoding names the UTF-16 encoding whose byte-order mark starts
// head, or returns "".
func utf16Encoding(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\xff\xfe")):
		return "utf-16le"
	case bytes.HasPrefix(head, []byte("\xfe\xff")):
		return "utf-16be"
	}
	return ""
}

// readUTF16 serves req from the UTF-8 text of f, a UTF-16 file of size
// bytes (as its stat says): converted whole, without its byte-order mark,
// as search reads it, so that a line is numbered and spelled alike by both.
func (s *server) readUTF16(f io.ReaderAt, size int64, req *abi.ReadRequest, res *abi.ReadResult, enc string, seen *digest) (*abi.ReadResult, []byte, *abi.Error) {
	if size > maxUTF16 {
		res.Binary = true
		return res, nil, nil
	}
	raw := make([]byte, size)
	n, err := f.ReadAt(raw, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, nil, s.internal("read", res.Path, err)
	}
	s.saw(seen, raw[:n])
	text, _, err := transform.Bytes(unicode.BOMOverride(transform.Nop), raw[:n])
	if err != nil {
		return nil, nil, s.internal("read", res.Path, err)
	}
	res.Encoding, res.Size = enc, int64(len(text))
	limit := s.readLimit(req)
	if req.Line > 0 || req.Lines > 0 {
		return res, linesIn(text, req, limit, res), nil
	}
	body, err := readBytes(bytes.NewReader(text), req, int64(len(text)), limit, res)
	if err != nil {
		return nil, nil, s.internal("read", res.Path, err)
	}
	return res, body, nil
}

// readLimit is the most bytes a read returns: the host's cap, or the
// request's when lower.
func (s *server) readLimit(req *abi.ReadRequest) int64 {
	if req.MaxBytes > 0 && req.MaxBytes < s.opts.MaxReadBytes {
		return req.MaxBytes
	}
	return s.opts.MaxReadBytes
}

// readHead fills head from the start of f, a file of size bytes as its
// stat says, and returns how many bytes it read. A read that comes back
// short having given the whole size is the file's end: a small file is
// read in one system call, where ReadAt would make a second to see the
// end. Short of the size, or when the stat says 0 (as special files do
// whatever they hold), it reads on to the end or a full head.
func readHead(f policy.Reader, head []byte, size int64) (int, error) {
	n, err := f.Read(head)
	if errors.Is(err, io.EOF) {
		return n, nil
	}
	if err != nil || n == len(head) || size > 0 && int64(n) >= size {
		return n, err
	}
	m, err := f.ReadAt(head[n:], int64(n))
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return n + m, err
}

// headLen is how many bytes to read first from a file of size bytes (as
// its stat says): sniffLen, or the whole file and one byte more when it is
// smaller, so that a small read allocates what the file needs, not 8 KiB.
// A file that says it is empty (some special files do) gets sniffLen.
func headLen(size int64) int {
	if size > 0 && size < sniffLen {
		return int(size) + 1
	}
	return sniffLen
}

// maxLineBuf is the largest buffer readLines reads through.
const maxLineBuf = 64 << 10

// bufLen is readLines' buffer for a file of size bytes of which the head
// read held: the file whole when it is small (one byte more, to see its
// end), else maxLineBuf. held counts when the stat says less than the file
// has (special files say 0).
func bufLen(held, size int64) int {
	n := max(held, size) + 1
	if n > maxLineBuf {
		return maxLineBuf
	}
	return int(max(n, 16)) // bufio's least

}

func checkRead(req *abi.ReadRequest) *abi.Error {
	switch {
	case req.Offset < 0 || req.Length < 0:
		return abi.Errorf(abi.InvalidArgument, "offset and length must not be negative")
	case req.Line < 0 || req.Lines < 0:
		return abi.Errorf(abi.InvalidArgument, "line and lines must not be negative (lines count from 1)")
	case req.MaxBytes < 0:
		return abi.Errorf(abi.InvalidArgument, "maxBytes must not be negative")
	case (req.Line > 0 || req.Lines > 0) && (req.Offset > 0 || req.Length > 0):
		return abi.Errorf(abi.InvalidArgument, "ask for a byte range (offset, length) or a line range (line, lines), not both")
	}
	return nil
}

// readBytes reads the byte range of req, at most limit bytes.
func readBytes(f io.ReaderAt, req *abi.ReadRequest, size, limit int64, res *abi.ReadResult) ([]byte, error) {
	if req.Offset >= size {
		return nil, nil
	}
	want := size - req.Offset
	if req.Length > 0 && req.Length < want {
		want = req.Length
	}
	if want > limit {
		want, res.Truncated = limit, true
	}
	body := make([]byte, want)
	n, err := f.ReadAt(body, req.Offset)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return body[:n], nil
}

// readLines returns lines [Line, Line+Lines) of f (all from Line when Lines
// is 0): whole lines only, unless the first line alone exceeds limit. It
// counts every line of the file; a last line without a newline counts.
func readLines(ctx context.Context, src io.Reader, bufSize int, req *abi.ReadRequest, limit int64, res *abi.ReadResult) ([]byte, error) {
	first := max(req.Line, 1)
	end := math.MaxInt // the first line not wanted
	if req.Lines > 0 && first <= math.MaxInt-req.Lines {
		end = first + req.Lines
	}
	res.FirstLine = first
	br := bufio.NewReaderSize(src, bufSize)
	var body []byte
	line := 1        // the line the next byte belongs to
	lineStart := 0   // where that line starts in body
	midLine := false // the bytes read so far end inside a line
	var pos int64    // bytes of the file before the next chunk
	for n := 0; line < end; n++ {
		if n%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			if line == first && len(body) == 0 && !midLine {
				res.StartOffset = pos
			}
			pos += int64(len(chunk))
			midLine = chunk[len(chunk)-1] != '\n'
			if line >= first {
				if int64(len(body)+len(chunk)) > limit {
					res.Truncated = true
					if lineStart == 0 { // the first line alone is over the cap: cut it
						body = append(body, chunk[:limit-int64(len(body))]...)
						res.LineCount = 1
					} else {
						body = body[:lineStart]
					}
					if !midLine {
						line++
					}
					break
				}
				body = append(body, chunk...)
			}
			if !midLine {
				if line >= first {
					res.LineCount++
				}
				line++
				lineStart = len(body)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if errors.Is(err, io.EOF) {
			if midLine && line >= first && line < end {
				res.LineCount++
			}
			res.TotalLines = line - 1
			if midLine {
				res.TotalLines++
			}
			return body, nil
		}
		if err != nil {
			return nil, err
		}
	}
	newlines, endsMid, err := countRest(ctx, br, midLine)
	if err != nil {
		return nil, err
	}
	res.TotalLines = line - 1 + newlines
	if endsMid {
		res.TotalLines++
	}
	return body, nil
}

// linesIn is readLines for a file held whole in data, with the same
// answer: the body it returns is a part of data. It looks at each line
// once, with bytes.IndexByte, where readLines copies each through a
// buffered reader and appends it to a growing body; read_files of small
// files spent a third of its allocations there.
func linesIn(data []byte, req *abi.ReadRequest, limit int64, res *abi.ReadResult) []byte {
	first := max(req.Line, 1)
	end := math.MaxInt // the first line not wanted
	if req.Lines > 0 && first <= math.MaxInt-req.Lines {
		end = first + req.Lines
	}
	res.FirstLine = first
	line := 1             // the line that starts at pos
	pos := 0              // where the next line starts
	start, stop := -1, -1 // the body, once the first line wanted is reached
	for pos < len(data) && line < end {
		next, whole := len(data), false // where this line ends, newline included
		if i := bytes.IndexByte(data[pos:], '\n'); i >= 0 {
			next, whole = pos+i+1, true
		}
		if line >= first {
			if start < 0 {
				start, stop = pos, pos
				res.StartOffset = int64(pos)
			}
			if int64(next-start) > limit {
				res.Truncated = true
				if stop == start { // the first line alone is over the cap: cut it
					stop = start + int(limit)
					res.LineCount = 1
				}
				if whole {
					line++
				}
				res.TotalLines = line - 1 + linesAfter(data[next:], !whole)
				return data[start:stop]
			}
			stop = next
			res.LineCount++ // a last line without a newline counts too
		}
		if !whole {
			res.TotalLines = line
			return window(data, start, stop)
		}
		line++
		pos = next
	}
	res.TotalLines = line - 1 + linesAfter(data[pos:], false)
	return window(data, start, stop)
}

// linesAfter counts the lines of rest, the bytes after a line that ended
// (midLine: without its newline, at the data's end).
func linesAfter(rest []byte, midLine bool) int {
	if len(rest) == 0 {
		if midLine {
			return 1
		}
		return 0
	}
	n := bytes.Count(rest, []byte{'\n'})
	if rest[len(rest)-1] != '\n' {
		n++
	}
	return n
}

// window is data[start:stop], or nil when no line was wanted.
func window(data []byte, start, stop int) []byte {
	if start < 0 {
		return nil
	}
	return data[start:stop]
}

// countRest counts the newlines left in br and says whether the data ends
// inside a line (midLine when nothing is left).
func countRest(ctx context.Context, br *bufio.Reader, midLine bool) (int, bool, error) {
	buf := make([]byte, 64<<10)
	newlines := 0
	for n := 0; ; n++ {
		if n%64 == 0 && ctx.Err() != nil {
			return 0, false, ctx.Err()
		}
		k, err := br.Read(buf)
		if k > 0 {
			newlines += bytes.Count(buf[:k], []byte{'\n'})
			midLine = buf[k-1] != '\n'
		}
		if errors.Is(err, io.EOF) {
			return newlines, midLine, nil
		}
		if err != nil {
			return 0, false, err
		}
	}
}
