package sandbox

import (
	"strings"
	"testing"
)

// TestSecretSpans: the credential in a command line is marked, the rest of
// it kept; a text the value rules pass has no span.
func TestSecretSpans(t *testing.T) {
	mark := func(s string) string {
		var b strings.Builder
		at := 0
		for _, p := range SecretSpans(s) {
			b.WriteString(s[at:p[0]] + "***")
			at = p[1]
		}
		return b.String() + s[at:]
	}
	for in, want := range map[string]string{
		`curl -H "Authorization: Bearer abc123tok" https://api.example.com`: `curl -H "Authorization: Bearer ***" https://api.example.com`,
		`curl -H 'X-Api-Key: k3y-value' https://x`:                          `curl -H 'X-Api-Key: ***' https://x`,
		`mysql --password=hunter2 -h db`:                                    `mysql --password=*** -h db`,
		`deploy --api-key abc123 --verbose`:                                 `deploy --api-key *** --verbose`,
		`git clone https://ghtoken123@github.com/me/repo`:                   `git clone https://***@github.com/me/repo`,
		`psql postgres://app:hunter2@db/app`:                                `psql postgres://app:***@db/app`,
		`export GH=ghp_abcdefghijklmnopqrstuvwxyz0123456789`:                `export GH=***`,
		`echo ghp_abcdefghijklmnopqrstuvwxyz0123456789 done`:                `echo *** done`,
		`proxy u:pw@proxy:3128`:                                             `proxy u:***@proxy:3128`,
		`machine h login me password netrcpw`:                               `machine h login me password ***`,
		`Bearer abc123`:                                                     `Bearer ***`,
		// Still a secret without its spans: the whole text goes.
		"echo '-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXk' > id": "***",
	} {
		if got := mark(in); got != want {
			t.Errorf("%s\n got %s\nwant %s", in, got, want)
		}
	}
	for _, plain := range []string{"go test ./...", "make build", "git commit -m 'fix the password prompt'",
		"curl https://example.com/a?b=c", "echo Authorization: none"} {
		if s := SecretSpans(plain); s != nil {
			t.Errorf("SecretSpans(%q) = %v, want none", plain, s)
		}
	}
}
