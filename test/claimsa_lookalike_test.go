package test

import (
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// A word with no ASCII letter can still pass for one that has them:
// "ехес.ру" is Cyrillic from end to end and reads as exec.py. The model
// writes a script under that name beside the project's exec.py (a write
// runs unasked in edit mode) and asks to run it; the owner must not read
// `python3 exec.py` in the question, in `juju approvals`, in `juju
// approvals show` or in the audit. Nor may a fullwidth word or sign, a
// decomposed letter or a word of two scripts pass for another.
func TestClaimsALookalikeWordsNeverPassForOthers(t *testing.T) {
	words := map[string]string{
		"\u0435\u0445\u0435\u0441.\u0440\u0443": `\u0435\u0445\u0435\u0441.\u0440\u0443`, // exec.py in Cyrillic
		"\uff45\uff58\uff45\uff43":              `\uff45\uff58\uff45\uff43`,              // exec in fullwidth
		"\u043c\u043e\u0438\u0306":              `\u043c\u043e\u0438\u0306`,              // мой, decomposed
		"\u043c\u03b9\u0440":                    `\u043c\u03b9\u0440`,                    // мир with a Greek iota
		"\uff1b":                                `\uff1b`,                                // a fullwidth semicolon
	}
	root := workspace(t, map[string]string{"exec.py": "print('tests')\n"})
	home := gateHome(t, 200*time.Millisecond)
	e := &elicitor{action: mcp.ElicitationResponseActionDecline}
	s := startGate(t, home, root, "edit", "lookalike", e)
	var ids []string
	for raw := range words {
		s.fail("run_command", map[string]any{"command": "python3 " + raw}, "APPROVAL_DENIED")
	}
	qs := e.questions()
	if len(qs) != len(words) {
		t.Fatalf("asked %d questions, want %d", len(qs), len(words))
	}
	s.c.Close()
	s = startGate(t, home, root, "edit", "lookalike", nil)
	for raw := range words {
		ids = append(ids, pendingIn(t, s.fail("run_command", map[string]any{"command": "python3 " + raw}, "APPROVAL_PENDING")))
	}
	outs := map[string]string{
		"the question":   strings.Join(qs, "\n"),
		"juju approvals": juju(t, home, root, "approvals"),
		"juju audit":     juju(t, home, root, "audit"),
	}
	for _, id := range ids {
		outs["juju approvals show"] += juju(t, home, root, "approvals", "show", id)
	}
	for where, out := range outs {
		for raw, shown := range words {
			if strings.Contains(out, raw) {
				t.Errorf("%s shows %q as it is, where it reads as another word:\n%s", where, raw, out)
			}
			if !strings.Contains(out, shown) {
				t.Errorf("%s does not show %q as %s:\n%s", where, raw, shown, out)
			}
		}
	}
}
