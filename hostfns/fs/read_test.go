package fs

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

func TestRead(t *testing.T) {
	f := newFixture(t, Options{})
	cases := []struct {
		name string
		req  abi.ReadRequest
		body string
		want abi.ReadResult // compared on the fields below
	}{
		{name: "whole", req: abi.ReadRequest{Path: "a.txt"}, body: "hello\nworld\n",
			want: abi.ReadResult{Path: "a.txt", Size: 12}},
		{name: "bytes", req: abi.ReadRequest{Path: "a.txt", Offset: 6, Length: 3}, body: "wor",
			want: abi.ReadResult{Path: "a.txt", Size: 12}},
		{name: "bytes to end", req: abi.ReadRequest{Path: "a.txt", Offset: 6}, body: "world\n",
			want: abi.ReadResult{Path: "a.txt", Size: 12}},
		{name: "bytes past end", req: abi.ReadRequest{Path: "a.txt", Offset: 100}, body: "",
			want: abi.ReadResult{Path: "a.txt", Size: 12}},
		{name: "bytes capped", req: abi.ReadRequest{Path: "a.txt", MaxBytes: 4}, body: "hell",
			want: abi.ReadResult{Path: "a.txt", Size: 12, Truncated: true}},
		{name: "bytes range under cap", req: abi.ReadRequest{Path: "a.txt", Length: 4, MaxBytes: 4}, body: "hell",
			want: abi.ReadResult{Path: "a.txt", Size: 12}},
		{name: "lines", req: abi.ReadRequest{Path: "lines.txt", Line: 3, Lines: 2}, body: "line 3\nline 4\n",
			want: abi.ReadResult{Path: "lines.txt", Size: 71, FirstLine: 3, LineCount: 2, TotalLines: 10, StartOffset: 14}},
		{name: "lines from", req: abi.ReadRequest{Path: "lines.txt", Line: 9}, body: "line 9\nline 10\n",
			want: abi.ReadResult{Path: "lines.txt", Size: 71, FirstLine: 9, LineCount: 2, TotalLines: 10, StartOffset: 56}},
		{name: "lines first n", req: abi.ReadRequest{Path: "lines.txt", Lines: 1}, body: "line 1\n",
			want: abi.ReadResult{Path: "lines.txt", Size: 71, FirstLine: 1, LineCount: 1, TotalLines: 10}},
		{name: "lines past end", req: abi.ReadRequest{Path: "lines.txt", Line: 20, Lines: 5}, body: "",
			want: abi.ReadResult{Path: "lines.txt", Size: 71, FirstLine: 20, TotalLines: 10}},
		{name: "lines capped whole lines", req: abi.ReadRequest{Path: "lines.txt", Line: 1, MaxBytes: 17}, body: "line 1\nline 2\n",
			want: abi.ReadResult{Path: "lines.txt", Size: 71, FirstLine: 1, LineCount: 2, TotalLines: 10, Truncated: true}},
		{name: "lines capped long first line", req: abi.ReadRequest{Path: "lines.txt", Line: 2, MaxBytes: 3}, body: "lin",
			want: abi.ReadResult{Path: "lines.txt", Size: 71, FirstLine: 2, LineCount: 1, TotalLines: 10, Truncated: true, StartOffset: 7}},
		{name: "lines exact cap", req: abi.ReadRequest{Path: "lines.txt", Line: 1, Lines: 2, MaxBytes: 14}, body: "line 1\nline 2\n",
			want: abi.ReadResult{Path: "lines.txt", Size: 71, FirstLine: 1, LineCount: 2, TotalLines: 10}},
		{name: "no final newline", req: abi.ReadRequest{Path: "nonl.txt", Line: 2}, body: "b",
			want: abi.ReadResult{Path: "nonl.txt", Size: 3, FirstLine: 2, LineCount: 1, TotalLines: 2, StartOffset: 2}},
		{name: "crlf kept", req: abi.ReadRequest{Path: "crlf.txt", Line: 1, Lines: 1}, body: "a\r\n",
			want: abi.ReadResult{Path: "crlf.txt", Size: 6, FirstLine: 1, LineCount: 1, TotalLines: 2}},
		{name: "empty lines", req: abi.ReadRequest{Path: "empty.txt", Line: 1}, body: "",
			want: abi.ReadResult{Path: "empty.txt", FirstLine: 1}},
		{name: "binary", req: abi.ReadRequest{Path: "bin.dat"}, body: "",
			want: abi.ReadResult{Path: "bin.dat", Size: 6, Binary: true}},
		{name: "binary asked", req: abi.ReadRequest{Path: "bin.dat", Binary: true}, body: "BIN\x00\x01\x02",
			want: abi.ReadResult{Path: "bin.dat", Size: 6, Binary: true}},
		{name: "through link", req: abi.ReadRequest{Path: "link-a"}, body: "hello\nworld\n",
			want: abi.ReadResult{Path: "a.txt", Size: 12}},
		{name: "absolute", req: abi.ReadRequest{Path: f.ws + "/sub/../a.txt", Length: 5}, body: "hello",
			want: abi.ReadResult{Path: "a.txt", Size: 12}},
		// The sha256 of the body, only when the body is the whole file.
		{name: "hash", req: abi.ReadRequest{Path: "a.txt", Hash: true}, body: "hello\nworld\n",
			want: abi.ReadResult{Path: "a.txt", Size: 12, SHA256: sha256Hex("hello\nworld\n")}},
		{name: "hash through link", req: abi.ReadRequest{Path: "link-a", Hash: true}, body: "hello\nworld\n",
			want: abi.ReadResult{Path: "a.txt", Size: 12, SHA256: sha256Hex("hello\nworld\n")}},
		{name: "hash empty", req: abi.ReadRequest{Path: "empty.txt", Hash: true}, body: "",
			want: abi.ReadResult{Path: "empty.txt", SHA256: sha256Hex("")}},
		{name: "hash binary asked", req: abi.ReadRequest{Path: "bin.dat", Binary: true, Hash: true}, body: "BIN\x00\x01\x02",
			want: abi.ReadResult{Path: "bin.dat", Size: 6, Binary: true, SHA256: sha256Hex("BIN\x00\x01\x02")}},
		{name: "hash binary not read", req: abi.ReadRequest{Path: "bin.dat", Hash: true}, body: "",
			want: abi.ReadResult{Path: "bin.dat", Size: 6, Binary: true}},
		{name: "hash of a cut body", req: abi.ReadRequest{Path: "a.txt", MaxBytes: 4, Hash: true}, body: "hell",
			want: abi.ReadResult{Path: "a.txt", Size: 12, Truncated: true}},
		{name: "hash of a range", req: abi.ReadRequest{Path: "a.txt", Offset: 6, Hash: true}, body: "world\n",
			want: abi.ReadResult{Path: "a.txt", Size: 12}},
		{name: "hash of a length", req: abi.ReadRequest{Path: "a.txt", Length: 5, Hash: true}, body: "hello",
			want: abi.ReadResult{Path: "a.txt", Size: 12}},
		{name: "hash of lines", req: abi.ReadRequest{Path: "lines.txt", Line: 1, Hash: true}, body: "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\nline 10\n",
			want: abi.ReadResult{Path: "lines.txt", Size: 71, FirstLine: 1, LineCount: 10, TotalLines: 10}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var res abi.ReadResult
			body := f.call(t, abi.FnFSRead, c.req, &res)
			noErr(t, "read", res.Status)
			if string(body) != c.body {
				t.Errorf("body %q, want %q", body, c.body)
			}
			if _, err := time.Parse(time.RFC3339, res.ModTime); err != nil {
				t.Errorf("modTime %q: %v", res.ModTime, err)
			}
			res.ModTime = ""
			if res != c.want {
				t.Errorf("result %+v, want %+v", res, c.want)
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	f := newFixture(t, Options{})
	for _, c := range []struct {
		req  any
		code abi.Code
	}{
		{abi.ReadRequest{Path: "sub"}, abi.InvalidArgument},
		{abi.ReadRequest{Path: "nope.txt"}, abi.NotFound},
		{abi.ReadRequest{Path: ".env"}, abi.SecretDenied},
		{abi.ReadRequest{Path: "link-secret"}, abi.SecretDenied},
		{abi.ReadRequest{Path: "keys/k.pem"}, abi.SecretDenied},
		{abi.ReadRequest{Path: "data/key-copy.txt"}, abi.SecretDenied},
		{abi.ReadRequest{Path: "link-out"}, abi.PathDenied},
		{abi.ReadRequest{Path: "../outside/x.txt"}, abi.PathDenied},
		{abi.ReadRequest{Path: "denied/x.txt"}, abi.PathDenied},
		{abi.ReadRequest{Path: "dangling"}, abi.NotFound},
		{abi.ReadRequest{Path: ""}, abi.InvalidArgument},
		{abi.ReadRequest{Path: "a.txt", Offset: -1}, abi.InvalidArgument},
		{abi.ReadRequest{Path: "a.txt", Line: -1}, abi.InvalidArgument},
		{abi.ReadRequest{Path: "a.txt", MaxBytes: -1}, abi.InvalidArgument},
		{abi.ReadRequest{Path: "a.txt", Offset: 1, Line: 1}, abi.InvalidArgument},
		{`{"path":"a.txt","bogus":true}`, abi.InvalidArgument},
		{`{"path":5}`, abi.InvalidArgument},
		{`{"path":"a.txt"} {}`, abi.InvalidArgument},
		{`{`, abi.InvalidArgument},
		{``, abi.InvalidArgument},
		{`[]`, abi.InvalidArgument},
		{"\x00\xff", abi.InvalidArgument},
		{`null`, abi.InvalidArgument},
	} {
		var res abi.ReadResult
		body := f.call(t, abi.FnFSRead, c.req, &res)
		f.wantErr(t, "read "+toString(c.req), res.Status, c.code)
		if len(body) != 0 {
			t.Errorf("read %v: body on error", c.req)
		}
	}
}

func TestReadHostCap(t *testing.T) {
	f := newFixture(t, Options{MaxReadBytes: 5})
	var res abi.ReadResult
	body := f.call(t, abi.FnFSRead, abi.ReadRequest{Path: "a.txt", MaxBytes: 100}, &res)
	noErr(t, "read", res.Status)
	if string(body) != "hello" || !res.Truncated {
		t.Fatalf("body %q truncated %v, want the host cap", body, res.Truncated)
	}
}

func TestReadLongLines(t *testing.T) {
	f := newFixture(t, Options{})
	// Lines longer than the reader's buffer, and many of them.
	long := strings.Repeat("x", 200<<10)
	content := long + "\n" + "short\n" + long + "\n" + strings.Repeat("y\n", 100000) + "tail"
	must(t, writeFile(f.ws, "long.txt", content))
	for _, c := range []struct {
		req       abi.ReadRequest
		body      string
		lines     int
		truncated bool
		start     int64 // the byte offset of the first line: where a cut line goes on
	}{
		{abi.ReadRequest{Path: "long.txt", Line: 2, Lines: 1}, "short\n", 1, false, int64(len(long) + 1)},
		{abi.ReadRequest{Path: "long.txt", Line: 1, Lines: 1}, long + "\n", 1, false, 0},
		{abi.ReadRequest{Path: "long.txt", Line: 2, Lines: 2, MaxBytes: 1000}, "short\n", 1, true, int64(len(long) + 1)},
		{abi.ReadRequest{Path: "long.txt", Line: 3, Lines: 1, MaxBytes: 1000}, long[:1000], 1, true, int64(len(long) + 7)},
		{abi.ReadRequest{Path: "long.txt", Line: 100004}, "tail", 1, false, int64(len(content) - 4)},
	} {
		var res abi.ReadResult
		body := f.call(t, abi.FnFSRead, c.req, &res)
		noErr(t, "read", res.Status)
		if string(body) != c.body || res.LineCount != c.lines || res.Truncated != c.truncated || res.TotalLines != 100004 || res.StartOffset != c.start {
			t.Errorf("%+v: body %d bytes (want %d), lines %d, truncated %v, total %d, start %d (want %d)", c.req, len(body), len(c.body), res.LineCount, res.Truncated, res.TotalLines, res.StartOffset, c.start)
		}
	}
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// A UTF-16 file (its byte-order mark first) is read as its UTF-8 text,
// without the mark, lines and bytes alike; asked for bytes, it comes as
// it is.
func TestReadUTF16(t *testing.T) {
	f := newFixture(t, Options{})
	le := "\xff\xfe" + "a\x00\n\x00b\x00\xe9\x00\n\x00c\x00" // "a\nbé\nc"
	be := "\xfe\xff" + "\x00a\x00\n\x00b\x00\xe9\x00\n\x00c"
	for name, content := range map[string]string{"le.txt": le, "be.txt": be} {
		if err := os.WriteFile(filepath.Join(f.ws, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const text = "a\nbé\nc" // 7 bytes of UTF-8
	for _, c := range []struct {
		name string
		req  abi.ReadRequest
		body string
		want abi.ReadResult
	}{
		{"whole", abi.ReadRequest{Path: "le.txt"}, text, abi.ReadResult{Path: "le.txt", Size: 7, Encoding: "utf-16le"}},
		{"big-endian", abi.ReadRequest{Path: "be.txt"}, text, abi.ReadResult{Path: "be.txt", Size: 7, Encoding: "utf-16be"}},
		{"lines", abi.ReadRequest{Path: "le.txt", Line: 2, Lines: 1}, "bé\n",
			abi.ReadResult{Path: "le.txt", Size: 7, Encoding: "utf-16le", FirstLine: 2, LineCount: 1, TotalLines: 3, StartOffset: 2}},
		{"bytes", abi.ReadRequest{Path: "le.txt", Offset: 2, Length: 3}, "bé",
			abi.ReadResult{Path: "le.txt", Size: 7, Encoding: "utf-16le"}},
		{"capped", abi.ReadRequest{Path: "le.txt", MaxBytes: 3}, "a\nb",
			abi.ReadResult{Path: "le.txt", Size: 7, Encoding: "utf-16le", Truncated: true}},
		{"hashed: the file's own bytes, binary", abi.ReadRequest{Path: "le.txt", Hash: true}, "",
			abi.ReadResult{Path: "le.txt", Size: int64(len(le)), Binary: true}},
		{"raw bytes asked", abi.ReadRequest{Path: "le.txt", Binary: true}, le,
			abi.ReadResult{Path: "le.txt", Size: int64(len(le)), Binary: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var res abi.ReadResult
			body := f.call(t, abi.FnFSRead, c.req, &res)
			noErr(t, "read", res.Status)
			res.ModTime = ""
			if string(body) != c.body || res != c.want {
				t.Errorf("got %q %+v\nwant %q %+v", body, res, c.body, c.want)
			}
		})
	}
}
