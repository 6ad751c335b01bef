package visible

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzString checks that any text renders to valid UTF-8 with no control,
// invisible or raw-space-run character, and reads back to itself: the
// rendering hides nothing and two texts never render the same.
func FuzzString(f *testing.F) {
	for _, s := range []string{"", "a   b", "\x1b[31m", "new\nline", "\u202e", "\xff", `\x1b`, "⟨3 spaces⟩", `"q"`, "\U000e0041"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, quoted := range []bool{false, true} {
			var got string
			if quoted {
				q := Quote(s)
				got = q[1 : len(q)-1]
			} else {
				got = String(s)
			}
			if !utf8.ValidString(got) {
				t.Fatalf("render(%q) = %q is not UTF-8", s, got)
			}
			if strings.Contains(got, "   ") {
				t.Fatalf("render(%q) = %q keeps a run of spaces", s, got)
			}
			for _, r := range got {
				if r < 0x20 || r == 0x7f || hidden(r) && r != ' ' {
					t.Fatalf("render(%q) = %q keeps %U", s, got, r)
				}
			}
			back, err := unrender(got, quoted)
			if err != nil || back != s {
				t.Fatalf("render(%q) = %q reads back as %q (%v)", s, got, back, err)
			}
		}
	})
}

// unrender reads a rendering back: the proof that it is one to one.
func unrender(r string, quoted bool) (string, error) {
	var b strings.Builder
	for i := 0; i < len(r); {
		switch {
		case r[i] == '\\':
			if i+1 >= len(r) {
				return "", errors.New("a lone backslash")
			}
			n, base := 2, 0
			switch c := r[i+1]; c {
			case '\\':
				b.WriteByte('\\')
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case '"':
				if !quoted {
					return "", errors.New(`\" outside quotes`)
				}
				b.WriteByte('"')
			case 'x':
				n, base = 4, 2
			case 'u':
				n, base = 6, 4
			case 'U':
				n, base = 10, 8
			default:
				return "", errors.New("unknown escape")
			}
			if base > 0 {
				if i+n > len(r) {
					return "", errors.New("a short escape")
				}
				v, err := strconv.ParseUint(r[i+2:i+n], 16, 32)
				if err != nil {
					return "", err
				}
				if base == 2 {
					b.WriteByte(byte(v))
				} else {
					b.WriteRune(rune(v))
				}
			}
			i += n
		case strings.HasPrefix(r[i:], string(markOpen)):
			end := strings.IndexRune(r[i:], markClose)
			if end < 0 {
				return "", errors.New("an open marker")
			}
			inner := r[i+len(string(markOpen)) : i+end]
			num, ok := strings.CutSuffix(inner, " spaces")
			n, err := strconv.Atoi(num)
			if !ok || err != nil || n < minRun {
				return "", errors.New("a bad marker")
			}
			b.WriteString(strings.Repeat(" ", n))
			i += end + len(string(markClose))
		case quoted && r[i] == '"':
			return "", errors.New(`a raw " between quotes`)
		default:
			_, size := utf8.DecodeRuneInString(r[i:])
			b.WriteString(r[i : i+size])
			i += size
		}
	}
	return b.String(), nil
}
