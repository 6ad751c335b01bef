package test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestReadFileByBytesAgreesAtEveryOffset reads a line of 1-, 2-, 3- and
// 4-byte characters by bytes from every offset, inside characters too:
// the notice's range (inclusive), the structured content's byteOffset,
// bytes and nextByteOffset, and the text shown must all name the same
// bytes of the file, starting at the first character at or after the
// offset; and reading on from nextByteOffset, one small maxBytes at a
// time, must make the whole line again, no byte lost or repeated, even
// with a maxBytes smaller than a character (which is then shown whole, by
// lines too). byteOffset 0 is a read by bytes from the start, which was
// taken for the argument left out: read by lines, with maxBytes a cap on
// whole lines, and offset accepted beside it.
func TestReadFileByBytesAgreesAtEveryOffset(t *testing.T) {
	const line = "abéc€d😀eé€😀z"
	s := start(t, workspace(t, map[string]string{"m.txt": line, "end.txt": "ab😀", "wide.txt": "😀xyz\n",
		"lines.txt": "ab\ncd\nef\n", "bom.txt": "\ufeffab\ncd\n", "empty.txt": ""}))
	size := len(line)

	// read reads m.txt from offset and checks that every part of the
	// answer says the same; it returns where the text starts and ends.
	read := func(t *testing.T, offset, maxBytes int) (int, int) {
		t.Helper()
		args := map[string]any{"path": "m.txt", "byteOffset": offset}
		if maxBytes > 0 {
			args["maxBytes"] = maxBytes
		}
		res := s.with(t).call("read_file", args)
		body := text(res)
		if res.IsError {
			t.Fatalf("byteOffset %d, maxBytes %d: %s", offset, maxBytes, body)
		}
		sc := structured(t, res)
		from, n := 0, int(num(t, sc, "bytes"))
		if _, ok := sc["byteOffset"]; ok || offset > 0 { // left out when 0
			from = int(num(t, sc, "byteOffset"))
		}
		want := offset
		for !utf8.RuneStart(line[want]) {
			want++
		}
		shown, notice, ok := strings.Cut(body, "\n\n[")
		switch {
		case !ok:
			t.Fatalf("byteOffset %d: no notice: %q", offset, body)
		case from != want:
			t.Fatalf("byteOffset %d: the text starts at %d, want the next character's start, %d", offset, from, want)
		case n < 1 || from+n > size || shown != line[from:from+n]:
			t.Fatalf("byteOffset %d, maxBytes %d: byteOffset %d and bytes %d, but the text is %q", offset, maxBytes, from, n, shown)
		case maxBytes > 0 && n > maxBytes && n != len(string([]rune(line[from:])[0])):
			t.Fatalf("byteOffset %d, maxBytes %d: %d bytes shown", offset, maxBytes, n)
		case !strings.Contains(notice, fmt.Sprintf("bytes %d-%d of %d", from, from+n-1, size)):
			t.Fatalf("byteOffset %d: the text is bytes %d-%d, the notice says %q", offset, from, from+n-1, notice)
		}
		end := from + n
		if end == size {
			if sc["truncated"] != false || sc["nextByteOffset"] != nil {
				t.Fatalf("byteOffset %d: read to the end, yet truncated %v, nextByteOffset %v", offset, sc["truncated"], sc["nextByteOffset"])
			}
			return from, end
		}
		if sc["truncated"] != true || int(num(t, sc, "nextByteOffset")) != end || saysOffset(t, notice, "byteOffset") != end {
			t.Fatalf("byteOffset %d: the text ends at %d, but truncated %v, nextByteOffset %v, notice %q", offset, end, sc["truncated"], sc["nextByteOffset"], notice)
		}
		return from, end
	}

	for offset := 0; offset < size; offset++ {
		for _, maxBytes := range []int{0, 1, 5} {
			read(t, offset, maxBytes)
		}
	}
	for _, maxBytes := range []int{1, 2, 3} {
		var joined strings.Builder
		for at := 0; at < size; {
			from, end := read(t, at, maxBytes)
			joined.WriteString(line[from:end])
			if end <= at {
				t.Fatalf("maxBytes %d: reading on from %d goes back to %d", maxBytes, at, end)
			}
			at = end
		}
		if joined.String() != line {
			t.Fatalf("maxBytes %d: read on piece by piece, the line is %q, want %q", maxBytes, joined.String(), line)
		}
	}

	// By lines, a maxBytes below the size of the first character.
	res := s.call("read_file", map[string]any{"path": "wide.txt", "maxBytes": 2})
	if sc := structured(t, res); !strings.HasPrefix(text(res), "😀\n") || num(t, sc, "nextByteOffset") != 4 {
		t.Fatalf("maxBytes 2 before a 4-byte character, by lines: nextByteOffset %v, %q", sc["nextByteOffset"], text(res))
	}

	// From byte 0 across lines, as from any other byte; the byte-order
	// mark left out and said, as by lines; an empty file shown empty.
	if out := s.ok("read_file", map[string]any{"path": "lines.txt", "byteOffset": 0, "maxBytes": 5}); !strings.HasPrefix(out, "ab\ncd\n\n[") || !strings.Contains(out, "bytes 0-4 of 9") {
		t.Fatalf("byteOffset 0, maxBytes 5: %q", out)
	}
	if out := s.ok("read_file", map[string]any{"path": "bom.txt", "byteOffset": 0}); !strings.HasPrefix(out, "ab\ncd\n\n[") || !strings.Contains(out, "byte-order mark") || !strings.Contains(out, "bytes 3-8 of 9") {
		t.Fatalf("byteOffset 0 of a file with a byte-order mark: %q", out)
	}
	if out := s.ok("read_file", map[string]any{"path": "empty.txt", "byteOffset": 0}); !strings.Contains(out, "is empty") {
		t.Fatalf("byteOffset 0 of an empty file: %q", out)
	}
	s.fail("read_file", map[string]any{"path": "lines.txt", "byteOffset": 0, "offset": 2}, "INVALID_ARGUMENT")

	msg := s.fail("read_file", map[string]any{"path": "end.txt", "byteOffset": 3}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "inside its last character") {
		t.Fatalf("byteOffset inside the last character: %q", msg)
	}
}
