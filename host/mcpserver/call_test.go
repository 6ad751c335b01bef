package mcpserver

import "testing"

// No declared name makes another principal's identity: a local client
// declaring an OAuth client's name, an OAuth client declaring a local
// client's or another OAuth client's, are each someone else.
func TestIdentityKeepsPrincipalsApart(t *testing.T) {
	names := []string{"claude", "claude [oauth:c_1]", "claude [oauth:c_2]", "claude (oauth:c_1)", "[", "] [oauth:c_1", ""}
	principals := []string{"", localPrincipal, "oauth:c_1", "oauth:c_2"}
	who := map[string]string{} // identity → the principal that made it
	same := func(a, b string) bool {
		return a == b || a == "" && b == localPrincipal || a == localPrincipal && b == ""
	}
	for _, p := range principals {
		for _, n := range names {
			id := identity(n, p)
			if prev, ok := who[id]; ok && !same(prev, p) {
				t.Errorf("%q declared by principal %q is %q, as is a client of principal %q", n, p, id, prev)
			}
			who[id] = p
		}
	}
	if got := identity("claude", "oauth:c_1"); got != "claude [oauth:c_1]" {
		t.Errorf("an OAuth client is %q, want it named with its principal", got)
	}
	if got := identity("claude [oauth:c_1]", ""); got != "claude (oauth:c_1)" {
		t.Errorf("a local client declaring an OAuth client's name is %q", got)
	}
}
