package visible

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestArgs(t *testing.T) {
	padded := `echo "running the unit tests for the parser module, please wait a moment"` + strings.Repeat(" ", 200) + "; touch HIDDEN_PAYLOAD_RAN"
	long := strings.Repeat("x", 5000)
	tests := []struct {
		name, args string
		lim        Limits
		want       string
	}{
		{"empty", ``, Limits{}, `{}`},
		{"sorted keys", `{"b":1,"a":"x"}`, Limits{}, `{a: "x", b: 1}`},
		{"nested", `{"edits":[{"old":"a","new":"b"}]}`, Limits{}, `{edits: [{new: "b", old: "a"}]}`},
		{"literals", `{"a":true,"b":false,"c":null,"d":1.50,"e":12345678901234567890}`, Limits{},
			`{a: true, b: false, c: null, d: 1.50, e: 12345678901234567890}`},
		{"hidden payload", mustJSON(map[string]string{"command": padded}), Limits{},
			`{command: "echo \"running the unit tests for the parser module, please wait a moment\"⟨200 spaces⟩; touch HIDDEN_PAYLOAD_RAN"}`},
		{"controls", `{"path":"ctl\u0001\u001b[31m.txt\nx"}`, Limits{}, `{path: "ctl\x01\x1b[31m.txt\nx"}`},
		{"odd keys quoted", `{"a: \"x\", b":1,"ok_1":2}`, Limits{}, `{"a: \"x\", b": 1, ok_1: 2}`},
		{"key with escape", `{"k\u001b":1}`, Limits{}, `{"k\x1b": 1}`},
		{"long string whole", `{"content":"` + long + `"}`, Limits{}, `{content: "` + long + `"}`},
		{"long list whole", `{"paths":[1,2,3,4,5,6,7,8,9,10]}`, Limits{}, `{paths: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}`},
		{"long string cut", `{"content":"` + long + `"}`, Limits{String: 80}, `{content: "` + strings.Repeat("x", 79) + `…" (5000 bytes)}`},
		{"long list cut", `{"paths":[1,2,3,4,5,6,7,8,9,10]}`, Limits{List: 8}, `{paths: [1, 2, 3, 4, 5, 6, 7, 8, … 2 more]}`},
		{"total cut", `{"a":"0123456789"}`, Limits{Total: 10}, `{a: "0123…`},
		{"not JSON", `{`, Limits{}, `(arguments that are not JSON) "{"`},
		{"trailing data", `{} {}`, Limits{}, `(arguments that are not JSON) "{} {}"`},
		{"not JSON with controls", "\x1b[2J", Limits{}, `(arguments that are not JSON) "\x1b[2J"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Args([]byte(tt.args), tt.lim); got != tt.want {
				t.Errorf("Args(%.60q, %+v) = %q, want %q", tt.args, tt.lim, got, tt.want)
			}
		})
	}
}

// Whatever the arguments, a bounded rendering stays bounded.
func TestArgsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{`)
	for i := range 2000 {
		fmt.Fprintf(&b, `"k%04d":"%s",`, i, strings.Repeat("\\u001b", 100))
	}
	b.WriteString(`"z":1}`)
	got := Args([]byte(b.String()), Limits{String: 80, List: 8, Total: 400})
	if n := utf8.RuneCountInString(got); n > 400 {
		t.Errorf("rendering of %d characters, want at most 400", n)
	}
	if !strings.HasSuffix(got, Ellipsis) {
		t.Errorf("a cut rendering must end with %s: %q", Ellipsis, got)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// A URL's password in any string argument shows as PasswordMark, in the
// audit's short rendering as in the owner's whole one; the user, the host
// and the rest stay, and a literal mark cannot pass for one.
func TestArgsURLPassword(t *testing.T) {
	for raw, want := range map[string]string{
		`{"url":"https://alice:hunter2secret@example.invalid/x"}`:                `{url: "https://alice:⟨password⟩@example.invalid/x"}`,
		`{"command":"git clone https://u:tok@github.com/a b; curl ftp://x:y@h"}`: `{command: "git clone https://u:⟨password⟩@github.com/a b; curl ftp://x:⟨password⟩@h"}`,
		`{"url":"https://alice@example.com/a:b@c"}`:                              `{url: "https://alice@example.com/a:b@c"}`,
		`{"url":"https://a:p@ss@example.com/"}`:                                  `{url: "https://a:⟨password⟩@example.com/"}`,
		`{"url":"https://a:@example.com/","x":"⟨password⟩"}`:                     `{url: "https://a:@example.com/", x: "\u27e8password\u27e9"}`,
		`{"urls":["https://a:b@h/","no url"]}`:                                   `{urls: ["https://a:⟨password⟩@h/", "no url"]}`,
	} {
		if got := Args([]byte(raw), Limits{}); got != want {
			t.Errorf("Args(%s)\n got %s\nwant %s", raw, got, want)
		}
	}
	long := `{"url":"https://alice:` + strings.Repeat("s", 200) + `@example.com/"}`
	if got := Args([]byte(long), Limits{String: 30}); strings.Contains(got, "sss") || !strings.Contains(got, "alice:⟨password⟩…") {
		t.Errorf("cut inside the password: %s", got)
	}
}
