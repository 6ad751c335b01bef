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

// TestScrubNames checks the name rules in both directions: every form
// SECURITY.md lists is dropped, and the variables builds, shells and
// editors need are kept, so the rules do not over-drop.
func TestScrubNames(t *testing.T) {
	for _, name := range []string{
		// Ending in _PW, or PW alone.
		"DB_PW", "MYSQL_ROOT_PW", "LOGIN_PW", "PW", "db_pw",
		// Containing CREDS.
		"GITHUB_CREDS", "CREDS", "DOCKER_CREDS_FILE", "MYCREDS",
		// Containing AUTHORIZATION, or AUTH as a word.
		"AUTHORIZATION", "PROXY_AUTHORIZATION", "HTTP_AUTHORIZATION_HEADER", "X_AUTH_HEADER",
		"AUTH", "auth", "AUTH_HEADER", "X-AUTH-TOKEN", "NPM_CONFIG_AUTH_TYPE", "SSH_AUTH_SOCK",
		// KEY and PASS alone.
		"KEY", "key", "PASS", "Pass",
		// A secret name with a number after it.
		"OPENAI_KEY_1", "OPENAI_KEY1", "OPENAI_KEY_1_2", "KEY_2", "KEY2", "PASS_3", "SMTP_PASS2",
		"DB_PW_1", "MY_PWD_01", "STRIPE_SK_2", "SENTRY_DSN_1", "DSN2", "REGISTRY_AUTH_1",
		"GITHUB_TOKEN_3", "DB_PASSWORD_2",
		// PASSWD_FILE names a file of passwords, as PGPASSFILE does: dropped.
		"PASSWD_FILE",
	} {
		if !Secret(name) {
			t.Errorf("Secret(%q) = false, want true", name)
		}
	}
	for _, name := range []string{
		// The shell and the session.
		"PATH", "HOME", "USER", "LOGNAME", "SHELL", "PWD", "OLDPWD", "SHLVL", "HOSTNAME",
		"TMPDIR", "TZ", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TERM", "COLORTERM",
		"EDITOR", "VISUAL", "PAGER", "LESS", "HISTFILE", "MANPATH", "LD_LIBRARY_PATH",
		"DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "DBUS_SESSION_BUS_ADDRESS",
		"SSH_CONNECTION", "SSH_TTY", "GPG_TTY", "CI", "GITHUB_ACTIONS", "GITHUB_WORKSPACE",
		// Builds and toolchains.
		"GOPATH", "GOROOT", "GOFLAGS", "GOPROXY", "GOPRIVATE", "GONOSUMDB", "GOAMD64", "GO111MODULE",
		"CGO_ENABLED", "CC", "CXX", "NODE_ENV", "NODE_OPTIONS", "NPM_CONFIG_PREFIX", "PYTHONPATH",
		"PYTHON3", "VIRTUAL_ENV", "JAVA_HOME", "CLASSPATH", "CARGO_HOME", "RUSTUP_HOME", "PATHEXT",
		// KEY and PASS inside a longer word, or KEY not as the last word.
		"KEYMAP", "KEYBOARD", "KEYS_DIR", "MONKEY", "TURNKEY_1", "XKB_DEFAULT_LAYOUT",
		"PASSPORT", "BYPASS", "COMPASS_HOME", "SKIP", "PWDX",
		// AUTHOR is no AUTH: juju sets these for commits.
		"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME",
		"GIT_COMMITTER_EMAIL", "AUTHOR", "AUTHORS_FILE",
		// A proxy's name says nothing; its value is judged apart.
		"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "PROXY", "PROXY_HOST",
		"DISCORD_URL", "SLACK_HOOK_URL",
	} {
		if Secret(name) {
			t.Errorf("Secret(%q) = true, want false", name)
		}
	}
}

// TestScrubValues checks the value rules in both directions.
func TestScrubValues(t *testing.T) {
	for _, v := range []string{
		// An HTTP Authorization value, alone or after its header name.
		"Bearer abc", "bearer abc", "Basic dXNlcjpwYXNz", "token ghp_abc", "Token abc",
		"Authorization: Bearer abc", "AUTHORIZATION: basic dXNlcjpwYXNz", "Proxy-Authorization: Basic eDp5",
		// A login without a scheme.
		"u:p@proxy:3128", "user:pw@10.0.0.1:3128", "admin:s3cret@db.internal/app", "u:p@proxy",
		"localhost,u:p@proxy:3128", "u:p@w@proxy:3128",
		// Webhooks, whose path is the credential.
		"https://discord.com/api/webhooks/123/TOKEN",
		"https://discordapp.com/api/webhooks/123/TOKEN",
		"https://ptb.discord.com/api/webhooks/123/TOKEN",
		"https://discord.com/api/v10/webhooks/123/TOKEN",
		"https://hooks.slack.com/services/T/B/X",
		"https://hooks.slack.com/workflows/T/A/1/X",
		"HTTPS://Hooks.Slack.com:443/services/T/B/X",
		"https://outlook.office.com/webhook/A@B/IncomingWebhook/C/D",
		"https://contoso.webhook.office.com/webhookb2/A@B/IncomingWebhook/C/D",
		"http://a.example,https://hooks.slack.com/services/T/B/X",
		// A query parameter named like a credential.
		"https://api.example.com/v1?token=abc",
		"https://maps.example.com/?q=x&key=abc",
		"https://example.com/?secret=abc",
		"https://acct.blob.core.windows.net/c/b?sv=2022&sig=abc",
		"https://example.com/?signature=abc",
		"https://example.com/?access_token=abc",
		"https://example.com/?api_key=abc",
		"https://example.com/?apikey=abc",
		"https://bucket.s3.amazonaws.com/o?X-Amz-Signature=abc",
		"https://example.com/?client_secret=abc",
		"https://gitlab.example.com/api?private_token=abc#top",
		"https://example.com/?TOKEN=abc",
		"wss://example.com/socket?token=abc",
	} {
		if !SecretValue(v) {
			t.Errorf("SecretValue(%q) = false, want true", v)
		}
	}
	for _, v := range []string{
		"", "vim", "production", "1.2.3", "en_US.UTF-8", "xterm-256color", ":0", "12:30",
		"/usr/local/bin:/usr/bin:/bin", "/run/user/1000", "-mod=mod -trimpath", "--max-old-space-size=4096",
		"unix:path=/run/user/1000/bus,guid=abc",
		// Proxies without credentials.
		"http://proxy:3128", "proxy:3128", "proxy.internal:3128", "localhost,127.0.0.1,.internal",
		"https://proxy.golang.org,direct",
		// Addresses, remotes and images that hold an @ but no password.
		"me@example.com", "mailto:me@example.com", "git@github.com:owner/repo.git", "ssh://me@build-host",
		"nginx:1.25@sha256:abcdef0123", "registry:5000/app:1@sha256:abc", `C:\x:y@z`, "/a:b@c",
		// A scheme word without one credential after it is text.
		"Bearer", "Basic", "token", "basic auth is off", "Authorization: none",
		// The same hosts, but no webhook.
		"https://hooks.slack.com", "https://hooks.slack.com/", "https://slack.com/services/T/B/X",
		"https://discord.com/channels/1/2", "https://discord.com/api/guilds/1", "https://discord.com/webhooks/1/2",
		"https://notdiscord.com/api/webhooks/1/2", "https://outlook.office.com/mail/",
		// Queries without a credential.
		"https://example.com/?page=2&sort=asc", "https://example.com/?token=", "https://example.com/tokens?id=1",
		"https://example.com/?tokens=3", "https://example.com/?keyword=go", "https://example.com/#token=abc",
	} {
		if SecretValue(v) {
			t.Errorf("SecretValue(%q) = true, want false", v)
		}
	}
}

// TestScrubEnv runs Scrub on a whole environment: the cases the security
// review found go, whatever their name, and the rest stays in order.
func TestScrubEnv(t *testing.T) {
	env := []string{
		"PATH=/usr/bin:/bin", "DB_PW=x", "HOME=/home/me", "MYSQL_ROOT_PW=x", "LOGIN_PW=x",
		"GITHUB_CREDS=x", "CREDS=x", "AUTHORIZATION=Bearer abc", "PROXY=u:p@proxy:3128",
		"DISCORD_URL=https://discord.com/api/webhooks/ID/TOKEN",
		"SLACK_HOOK_URL=https://hooks.slack.com/services/T/B/X",
		"STATUS_URL=https://example.com/ping?sig=abc",
		"OPENAI_KEY_1=x", "KEY=x", "PASS=x", "X_AUTH_HEADER=x", "HEADER=token abc",
		"GIT_AUTHOR_NAME=juju", "GIT_AUTHOR_EMAIL=juju@example.com", "AUTHOR=me",
		"HTTP_PROXY=http://proxy:3128", "PROXY_HOST=proxy", "KEYMAP=us", "XKB_DEFAULT_LAYOUT=us",
		"LANG=C.UTF-8", "TERM=xterm", "GOPATH=/go",
	}
	want := "PATH=/usr/bin:/bin HOME=/home/me GIT_AUTHOR_NAME=juju GIT_AUTHOR_EMAIL=juju@example.com " +
		"AUTHOR=me HTTP_PROXY=http://proxy:3128 PROXY_HOST=proxy KEYMAP=us XKB_DEFAULT_LAYOUT=us " +
		"LANG=C.UTF-8 TERM=xterm GOPATH=/go"
	if got := strings.Join(Scrub(env), " "); got != want {
		t.Errorf("Scrub =\n%s\nwant\n%s", got, want)
	}
}
