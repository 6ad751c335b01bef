package exec

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// window cuts long text under maxText, at a line when it can, never inside
// a UTF-8 sequence, and its offsets read the whole text back.
func TestWindow(t *testing.T) {
	line := strings.Repeat("é", 30) + "\n" // 61 bytes
	text := []byte(strings.Repeat(line, 5000))
	var got bytes.Buffer
	var off int64
	for i := 0; ; i++ {
		shown, next := window(text, off)
		if len(shown) > maxText || !utf8.Valid(shown) {
			t.Fatalf("window at %d: %d bytes, valid %v", off, len(shown), utf8.Valid(shown))
		}
		if next > 0 && shown[len(shown)-1] != '\n' {
			t.Errorf("window at %d not cut at a line end", off)
		}
		got.Write(shown)
		if next == 0 {
			break
		}
		off = next
	}
	if !bytes.Equal(got.Bytes(), text) {
		t.Fatal("the windows do not add up to the text")
	}
	// One long line is cut at a rune boundary; an offset inside a rune
	// moves to the next one.
	long := []byte(strings.Repeat("é", maxText))
	shown, next := window(long, 0)
	if !utf8.Valid(shown) || next != int64(len(shown)) || len(shown) > maxText {
		t.Fatalf("long line: %d bytes, next %d", len(shown), next)
	}
	if shown, _ := window(long, 1); !utf8.Valid(shown) {
		t.Fatal("an offset inside a rune gave invalid text")
	}
}
