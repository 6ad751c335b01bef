package visible

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	tests := []struct {
		name     string
		in       string // rendered
		n        int
		want     string
		wantLeft int
	}{
		{"fits", "abc", 3, "abc", 0},
		{"cut", "abcdef", 4, "abc…", 3},
		{"escape kept whole", `ab\x1bcd`, 5, `ab…`, 6},
		{"escape fits", `ab\x1bcd`, 7, `ab\x1b…`, 2},
		{"unicode escape whole", `a\u202eb`, 6, `a…`, 7},
		{"long escape whole", `a\U000e0041b`, 11, `a…`, 11},
		{"short escapes", `\\\"\n`, 4, `\\…`, 4},
		{"marker kept whole", "a⟨200 spaces⟩; rm", 10, "a…", 16},
		{"marker fits", "a⟨200 spaces⟩; rm", 15, "a⟨200 spaces⟩;…", 3},
		{"runes not bytes", "日本語日本語", 4, "日本語…", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, left := Clip(tt.in, tt.n)
			if got != tt.want || left != tt.wantLeft {
				t.Errorf("Clip(%q, %d) = %q, %d; want %q, %d", tt.in, tt.n, got, left, tt.want, tt.wantLeft)
			}
			if utf8.RuneCountInString(got) > tt.n {
				t.Errorf("Clip(%q, %d) is %d characters long", tt.in, tt.n, utf8.RuneCountInString(got))
			}
		})
	}
}

// What Clip keeps of a rendering is a rendering: it reads back.
func TestClipReadsBack(t *testing.T) {
	r := String("echo \x1b[2K" + strings.Repeat(" ", 50) + "\u202e; touch x")
	for n := 1; n <= utf8.RuneCountInString(r); n++ {
		got, _ := Clip(r, n)
		if _, err := unrender(strings.TrimSuffix(got, Ellipsis), false); err != nil {
			t.Errorf("Clip(%q, %d) = %q split an escape: %v", r, n, got, err)
		}
	}
}
