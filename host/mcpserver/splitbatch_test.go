package mcpserver

import (
	"strings"
	"testing"
)

// splitBatch splits a batch too deep for encoding/json into its messages
// as written, and refuses what is not an array of JSON values.
func TestSplitBatch(t *testing.T) {
	deep := strings.Repeat("[", 10_001) + strings.Repeat("]", 10_001)
	good := []struct {
		line string
		want []string
	}{
		{`[{"a":"],[\"{"}, ` + deep + ` ]`, []string{`{"a":"],[\"{"}`, deep}},
		{` [ {"s":"\\"} ,` + deep + `,1]` + "\n", []string{`{"s":"\\"}`, deep, `1`}},
	}
	for _, c := range good {
		got := splitBatch([]byte(c.line))
		if len(got) != len(c.want) {
			t.Fatalf("%.60q: %d messages, want %d", c.line, len(got), len(c.want))
		}
		for i := range got {
			if string(got[i]) != c.want[i] {
				t.Errorf("%.60q: message %d = %.60q, want %.60q", c.line, i, got[i], c.want[i])
			}
		}
	}
	for _, bad := range []string{
		`{"a":1}`, `[`, `[,` + deep + `]`, `[` + deep + `,]`, `[` + deep + `] x`, `[` + deep + `,{]`,
		`[` + deep + `,{"a":}]`, `[` + deep + `]]`, `[` + deep + `,"open]`, `[` + deep[1:] + `]`,
	} {
		if got := splitBatch([]byte(bad)); got != nil {
			t.Errorf("%.60q: split into %d messages, want refused", bad, len(got))
		}
	}
}
