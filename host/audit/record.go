package audit

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Record is one tool call in the audit log.
type Record struct {
	Time       time.Time `json:"time"`
	CallID     string    `json:"callId"`
	Client     string    `json:"client,omitempty"`
	Plugin     string    `json:"plugin"`
	Tool       string    `json:"tool"`
	Tier       string    `json:"tier"`
	Args       string    `json:"args"`               // ShortArgs of the arguments
	Outcome    string    `json:"outcome"`            // "ok" or the error code
	DurationMs float64   `json:"durationMs"`         // wall time of the call, approval included
	Approval   *Approval `json:"approval,omitempty"` // nil: none was needed
	Fetches    []Fetch   `json:"fetches,omitempty"`  // the web fetches the call made
}

// Approval says how a call that needed the owner's approval was decided.
type Approval struct {
	// Via is how the owner was asked: "elicitation" (the MCP client asked
	// them), "cli" (`juju approvals`).
	Via string `json:"via"`
	// Decision is "approved", "denied", "pending" (no answer in time) or
	// "unavailable" (the owner could not be asked).
	Decision string `json:"decision"`
	ID       string `json:"id,omitempty"` // the approval id, for "cli"
}

// Outcome "ok": the call succeeded.
const OutcomeOK = "ok"

// Bounds of ShortArgs.
const (
	maxString = 80  // runes of one string value
	maxArgs   = 400 // bytes of the whole summary
)

// ShortArgs renders a call's JSON arguments on one line for the audit and
// the approval prompts: keys sorted, each string cut to 80 characters, the
// whole to about 400 bytes. Content arguments (a file's new text) are thus
// never written out in full.
func ShortArgs(args []byte) string {
	var v any
	if len(args) == 0 {
		return "{}"
	}
	if err := json.Unmarshal(args, &v); err != nil {
		return "(arguments that are not JSON)"
	}
	var b strings.Builder
	short(&b, v)
	s := b.String()
	if len(s) > maxArgs {
		cut := maxArgs - len("…")
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func short(b *strings.Builder, v any) {
	if b.Len() > maxArgs {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(cutString(k, maxString))
			b.WriteString(": ")
			short(b, x[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			if i == 8 {
				b.WriteString("… " + strconv.Itoa(len(x)-8) + " more")
				break
			}
			short(b, e)
		}
		b.WriteByte(']')
	case string:
		q, _ := json.Marshal(cutString(x, maxString))
		b.Write(q)
		if utf8.RuneCountInString(x) > maxString {
			b.WriteString(" (" + strconv.Itoa(len(x)) + " bytes)")
		}
	default:
		q, _ := json.Marshal(x)
		b.Write(q)
	}
}

// cutString keeps at most n runes of s, marking the cut with "…".
func cutString(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
