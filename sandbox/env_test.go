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
		"CI_JOB_JWT": true, "SLACK_WEBHOOK_URL": true, "SENTRY_DSN": true, "DSN": true, "STRIPE_SK": true,
		"GITHUB_PAT": true, "SESSION_COOKIE": true, "AZURE_STORAGE_CONNECTION_STRING": true, "OAUTH_CLIENT_ID": true,
		"MY_TASK": false, "CLASSPATH": false, "DSN_HOST_LIST": false, "HTTP_PROXY": false,
		// Every name and form SECURITY.md lists.
		"MY_PASSWD": true, "GPG_PASSPHRASE": true, "AZURE_CREDENTIALS": true, "TLS_PRIVATE_KEY": true, "MAPS_APIKEY": true,
		"S3_ACCESS_KEY": true, "REDIS_SESSION_KEY": true, "AUTH_BEARER": true, "SMTP_PASS": true, "DB_PWD": true,
		"REGISTRY_AUTH": true, "GCP_PROJECT": true, "GOOGLE_APPLICATION_NAME": true, "VAULT_TOKEN_PATH": true,
		"GPG_AGENT_INFO": true, "NETRC": true, "KUBECONFIG": true, "DOCKER_AUTH_CONFIG": true, "PGPASSFILE": true,
		"GIT_ASKPASS": true, "SSH_ASKPASS": true, "AZURE_TENANT": true, "JUJU_ANYTHING": true, "juju_home": true,
		"PASSPORT": false, "KEYS_DIR": false, "SKIP": false, "PATHEXT": false,
	} {
		if got := Secret(name); got != want {
			t.Errorf("Secret(%q) = %v, want %v", name, got, want)
		}
	}
	got := Scrub([]string{"PATH=/bin", "GITHUB_TOKEN=x", "A=1=2", "JUJU_HOME=/h"})
	if strings.Join(got, " ") != "PATH=/bin A=1=2" {
		t.Errorf("Scrub = %q", got)
	}
	// Values that carry credentials go whatever their name.
	for v, want := range map[string]bool{
		"https://user:pass@proxy:8080":           true,
		"postgres://u:p@db.internal/app":         true,
		"https://key@o1.ingest.sentry.io/42":     true,
		"http://proxy:3128,https://t@x.io":       true,
		"-----BEGIN OPENSSH PRIVATE KEY-----\nx": true,
		"https://proxy.golang.org,direct":        false,
		"git@github.com:owner/repo.git":          false,
		"http://example.com/a@b":                 false,
		"user@example.com":                       false,
		"/usr/bin:/bin":                          false,
		"ssh://me@build-host":                    false,
		"ssh://me:pw@build-host":                 true,
		"HTTPS://tok@github.com/o/r.git":         true,
	} {
		if got := SecretValue(v); got != want {
			t.Errorf("SecretValue(%q) = %v, want %v", v, got, want)
		}
	}
	if got := Scrub([]string{"HTTP_PROXY=http://u:p@proxy:8080", "GOPROXY=https://proxy.golang.org"}); strings.Join(got, " ") != "GOPROXY=https://proxy.golang.org" {
		t.Errorf("Scrub by value = %q", got)
	}
}
