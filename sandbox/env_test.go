package sandbox

import (
	"strings"
	"testing"
)

func TestSecret(t *testing.T) {
	for name, want := range map[string]bool{
		"GITHUB_TOKEN": true, "gh_token": true, "NPM_TOKEN": true, "AWS_ACCESS_KEY_ID": true, "AWS_REGION": true,
		"MY_SECRET": true, "DB_PASSWORD": true, "PGPASSWORD": true, "MYSQL_PWD": true, "OPENAI_API_KEY": true,
		"SIGNING_KEY": true, "JUJU_HOME": true, "JUJU_APPROVAL_TOKEN": true, "SSH_AUTH_SOCK": true,
		"GOOGLE_APPLICATION_CREDENTIALS": true, "DATABASE_URL": true, "VAULT_ADDR": true, "HTTP_AUTH": true,
		"PATH": false, "HOME": false, "PWD": false, "GOPATH": false, "LANG": false, "TERM": false,
		"KEYBOARD": false, "GOFLAGS": false, "CI": false, "MONKEY": false,
	} {
		if got := Secret(name); got != want {
			t.Errorf("Secret(%q) = %v, want %v", name, got, want)
		}
	}
	got := Scrub([]string{"PATH=/bin", "GITHUB_TOKEN=x", "A=1=2", "JUJU_HOME=/h"})
	if strings.Join(got, " ") != "PATH=/bin A=1=2" {
		t.Errorf("Scrub = %q", got)
	}
}
