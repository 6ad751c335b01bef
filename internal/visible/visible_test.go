package visible

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "hello world", "hello world"},
		{"empty", "", ""},
		{"two spaces stay", "a  b", "a  b"},
		{"three spaces", "a   b", "a⟨3 spaces⟩b"},
		{"padding", "echo hi" + strings.Repeat(" ", 200) + "; touch x", "echo hi⟨200 spaces⟩; touch x"},
		{"only spaces", "   ", "⟨3 spaces⟩"},
		{"leading and trailing runs", "    a    ", "⟨4 spaces⟩a⟨4 spaces⟩"},
		{"tab", "a\tb", `a\tb`},
		{"run of tabs", "\t\t\t", `\t\t\t`},
		{"newline", "new\nline.txt", `new\nline.txt`},
		{"carriage return", "ok\rFORGED", `ok\rFORGED`},
		{"crlf", "a\r\nb", `a\r\nb`},
		{"esc", "ctl\x01\x1b[31m.txt", `ctl\x01\x1b[31m.txt`},
		{"nul", "a\x00b", `a\x00b`},
		{"del", "a\x7fb", `a\x7fb`},
		{"bell and backspace", "\a\b", `\x07\x08`},
		{"c1 controls", "\u0085\u009b31m", `\u0085\u009b31m`},
		{"bidi override", "a\u202eexe.txt", `a\u202eexe.txt`},
		{"bidi embeddings", "\u202a\u202b\u202c\u202d", `\u202a\u202b\u202c\u202d`},
		{"bidi isolates", "\u2066\u2067\u2068\u2069", `\u2066\u2067\u2068\u2069`},
		{"bidi marks", "\u200e\u200f\u061c", `\u200e\u200f\u061c`},
		{"zero width", "r\u200bm\u200c-\u200d\u2060\ufeff", `r\u200bm\u200c-\u200d\u2060\ufeff`},
		{"soft hyphen", "a\u00adb", `a\u00adb`},
		{"unusual spaces", "a\u00a0b\u2003c\u3000d", `a\u00a0b\u2003c\u3000d`},
		{"line separators", "a\u2028b\u2029c", `a\u2028b\u2029c`},
		{"blank letters", "\u3164\u115f\uffa0\u2800", `\u3164\u115f\uffa0\u2800`},
		{"variation selector", "x\ufe0f", `x\ufe0f`},
		{"tags", "\U000e0001\U000e0041", `\U000e0001\U000e0041`},
		{"private use", "\ue000", `\ue000`},
		{"invalid utf-8", "a\xffb\xfe", `a\xffb\xfe`},
		{"truncated rune", "a\xe2\x80", `a\xe2\x80`},
		{"backslash", `C:\dir\x1b`, `C:\\dir\\x1b`},
		{"literal marker", "⟨3 spaces⟩", `\u27e83 spaces\u27e9`},
		{"quote stays", `say "hi"`, `say "hi"`},
		{"letters of every script", "héllo, 日本語, Ελληνικά, עברית 🎉", "héllo, 日本語, Ελληνικά, עברית 🎉"},
		{"combining mark", "e\u0301", `e\u0301`}, // not é: two spellings never look the same
		{"combining marks alone", "\u0301\u0302", "\u0301\u0302"},
		// Beside ASCII letters, a character that could pass for one is
		// escaped: two different commands never look the same.
		{"cyrillic in a host", "curl https://g\u0456thub.com/x", `curl https://g\u0456thub.com/x`},
		{"greek omicron", "go\u03bfgle", `go\u03bfgle`},
		{"en dash option", "rm \u2013rf /", `rm \u2013rf /`},
		{"dotless i", "g\u0131thub", `g\u0131thub`},
		{"fullwidth beside ascii", "a\uff41", `a\uff41`},
		{"accented latin stays", "café naïve Ærø", "café naïve Ærø"},
		{"a word of one script stays", "привет мир γεια", "привет мир γεια"},
		// Without ASCII beside it, a word that could pass for another is
		// escaped all the same: every letter an ASCII look-alike, an ASCII
		// letter in another form, a decomposed letter, or two scripts.
		{"cyrillic look-alikes only", "python3 \u0435\u0445\u0435\u0441.\u0440\u0443", `python3 \u0435\u0445\u0435\u0441.\u0440\u0443`},
		{"greek capitals only", "\u039f\u039a", `\u039f\u039a`},
		{"fullwidth alone", "\uff45\uff58\uff45\uff43", `\uff45\uff58\uff45\uff43`},
		{"decomposed letter", "\u043c\u043e\u0438\u0306", `\u043c\u043e\u0438\u0306`},
		{"two scripts", "\u043c\u03b9\u0440", `\u043c\u03b9\u0440`},
		{"fullwidth sign alone", "echo a \uff1b rm", `echo a \uff1b rm`},
		{"composed letter stays", "мой", "мой"},
		{"east asian scripts stay together", "日本語のテキスト", "日本語のテキスト"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in); got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if back, err := unrender(String(tt.in), false); err != nil || back != tt.in {
				t.Errorf("String(%q) does not read back: %q %v", tt.in, back, err)
			}
		})
	}
}

func TestQuote(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "make test", `"make test"`},
		{"quotes", `echo "hi"`, `"echo \"hi\""`},
		{"backslash quote", `\"`, `"\\\""`},
		{"controls", "a\x1b\n", `"a\x1b\n"`},
		{"spaces", "a" + strings.Repeat(" ", 10), `"a⟨10 spaces⟩"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Quote(tt.in); got != tt.want {
				t.Errorf("Quote(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// Nothing is cut, however long the text: the end shows.
func TestStringLong(t *testing.T) {
	long := strings.Repeat("harmless words ", 100_000) + "\x1b; PAYLOAD"
	got := String(long)
	if !strings.HasSuffix(got, `\x1b; PAYLOAD`) || len(got) != len(long)+3 {
		t.Errorf("a long text renders to %d bytes ending %q", len(got), got[len(got)-20:])
	}
}

func TestJoin(t *testing.T) {
	if got := Join([]string{"a\nb", "c"}, ", "); got != `a\nb, c` {
		t.Errorf("Join = %q", got)
	}
}

func TestShows(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{`{path: "a\x1b"}`, true},
		{"⟨200 spaces⟩ a  b", true},
		{"a\x1bb", false},
		{"a\u009bb", false},
		{"a\u202eb", false},
		{"a   b", false},
		{"a\xffb", false},
	} {
		if got := Shows(tt.in); got != tt.want {
			t.Errorf("Shows(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestJSONEscapesWhatDoesNotShow(t *testing.T) {
	for _, s := range []string{"plain", "c1\u009b31m", "rtl\u202etxt", "zw\u200b", "del\x7f", "tag\U000E0041", "é日本語⟨x⟩\ufffd", "ctl\x1b[2J"} {
		js, err := json.Marshal(map[string]string{"k": s})
		if err != nil {
			t.Fatal(err)
		}
		got := JSON(js)
		if strings.ContainsAny(string(got), "\u009b\u202e\u200b\x7f\U000E0041\x1b") {
			t.Errorf("JSON(%q) keeps a raw character: %s", s, got)
		}
		var back map[string]string
		if err := json.Unmarshal(got, &back); err != nil || back["k"] != s {
			t.Errorf("JSON(%q) = %s, decodes to %q (%v)", s, got, back["k"], err)
		}
	}
}
