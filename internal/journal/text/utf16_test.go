package text

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDecodeUTF16(t *testing.T) {
	for _, c := range []struct {
		name, in, text, enc string
		ok                  bool
	}{
		{"only a mark", "\xff\xfe", "", UTF16LE, true},
		{"little-endian", "\xff\xfea\x00\n\x00", "a\n", UTF16LE, true},
		{"big-endian", "\xfe\xff\x00a\x00\n", "a\n", UTF16BE, true},
		{"a pair", "\xff\xfe\x3d\xd8\x00\xde", "😀", UTF16LE, true},
		{"a NUL", "\xff\xfe\x00\x00", "\x00", UTF16LE, true},
		{"U+FFFD itself", "\xff\xfe\xfd\xff", "\ufffd", UTF16LE, true},
		{"no mark", "a\x00b\x00", "", "", false},
		{"a UTF-8 mark", "\xef\xbb\xbfab", "", "", false},
		{"an odd length", "\xff\xfea\x00b", "", "", false},
		{"a high surrogate last", "\xff\xfea\x00\x3d\xd8", "", "", false},
		{"a high surrogate before a letter", "\xff\xfe\x3d\xd8a\x00", "", "", false},
		{"a low surrogate first", "\xff\xfe\x00\xdea\x00", "", "", false},
		{"two high surrogates", "\xff\xfe\x3d\xd8\x3d\xd8", "", "", false},
		{"one byte", "\xff", "", "", false},
	} {
		text, enc, ok := DecodeUTF16([]byte(c.in))
		if text != c.text || enc != c.enc || ok != c.ok {
			t.Errorf("%s: DecodeUTF16(%q) = %q, %q, %v; want %q, %q, %v", c.name, c.in, text, enc, ok, c.text, c.enc, c.ok)
		}
		if ok {
			if back := EncodeUTF16(text, enc); string(back) != c.in {
				t.Errorf("%s: encoded back as %q, not %q", c.name, back, c.in)
			}
		}
	}
	if _, _, ok := DecodeUTF16(append([]byte("\xff\xfe"), make([]byte, maxUTF16)...)); ok {
		t.Error("a UTF-16 file over 16 MiB was taken for text")
	}
}

// FuzzDecodeUTF16 checks that whatever DecodeUTF16 accepts encodes back
// to the very same bytes, so an edit rewrites nothing it did not read,
// and that any UTF-8 text, encoded, is accepted and decoded as it was.
func FuzzDecodeUTF16(f *testing.F) {
	for _, s := range []string{"\xff\xfe", "\xff\xfea\x00", "\xfe\xff\x00a", "\xff\xfe\x3d\xd8\x00\xde", "\xff\xfe\x3d\xd8", "héllo\r\n😀"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if text, enc, ok := DecodeUTF16(b); ok {
			if !utf8.ValidString(text) {
				t.Fatalf("DecodeUTF16(%q) gave invalid UTF-8 %q", b, text)
			}
			if back := EncodeUTF16(text, enc); !bytes.Equal(back, b) {
				t.Fatalf("DecodeUTF16(%q) = %q, which encodes as %q", b, text, back)
			}
		}
		s := strings.ToValidUTF8(string(b), "\ufffd")
		for _, enc := range []string{UTF16LE, UTF16BE} {
			text, got, ok := DecodeUTF16(EncodeUTF16(s, enc))
			if !ok || text != s || got != enc {
				t.Fatalf("%q in %s decoded as %q, %q, %v", s, enc, text, got, ok)
			}
		}
	})
}

// TestEditKeepsUTF16 checks that an edit of a UTF-16 file matches its
// text and writes it back in its encoding and line ends.
func TestEditKeepsUTF16(t *testing.T) {
	file := EncodeUTF16("one\r\ntwo 😀\r\n", UTF16BE)
	out, n, e := Edit("f", file, "two 😀\nthree", "x", false)
	if e == nil || e.Code != "NO_MATCH" || !strings.Contains(e.Message, `"three", is not in the file`) {
		t.Fatalf("a missing text: %v", e)
	}
	out, n, e = Edit("f", file, "two 😀\n", "2\n3\n", false)
	if e != nil || n != 1 {
		t.Fatal(e, n)
	}
	if want := EncodeUTF16("one\r\n2\r\n3\r\n", UTF16BE); !bytes.Equal(out, want) {
		t.Fatalf("got %q, want %q", out, want)
	}
	if text, st := SplitStyle(out); text != "one\n2\n3\n" || st != (Style{CRLF: true, UTF16: UTF16BE}) {
		t.Fatalf("SplitStyle = %q, %+v", text, st)
	}
}
