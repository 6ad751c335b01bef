package sandbox

import "strings"

// Scrub returns env without the variables a child must not see: juju's own
// (JUJU_*), every variable whose name looks like it holds a secret — it
// contains TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE, CREDENTIAL,
// PRIVATE_KEY, API_KEY, APIKEY, ACCESS_KEY, SESSION_KEY, JWT, WEBHOOK,
// COOKIE, BEARER, OAUTH or CONNECTION_STRING, ends in _KEY, _PASS, _PWD,
// _AUTH, _SK, _PAT or _DSN, starts with AWS_, AZURE_, GCP_,
// GOOGLE_APPLICATION_ or VAULT_, or is one of the named ones
// (SSH_AUTH_SOCK, GPG_AGENT_INFO, NETRC, KUBECONFIG, DOCKER_AUTH_CONFIG,
// DATABASE_URL, DSN, …) — and every variable whose value does: a URL
// carrying credentials before its host (https://user:pass@host, a Sentry
// DSN's key@host, a proxy's login) or a PEM block. Names are compared
// ignoring case. The list errs on the side of dropping: a build that needs
// one of them reads it from a file the owner controls.
func Scrub(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		if !Secret(name) && !SecretValue(value) {
			out = append(out, kv)
		}
	}
	return out
}

// SecretValue reports whether an environment variable's value looks like
// a secret whatever its name: a URL with credentials in its authority — a
// password (scheme://user:pass@host), or any user of an http(s) URL, where
// the user part is a token (https://TOKEN@host, a Sentry DSN's key) — or a
// PEM block. An ssh user (DOCKER_HOST=ssh://me@host) is no secret.
func SecretValue(v string) bool {
	if strings.Contains(v, "-----BEGIN ") {
		return true
	}
	for rest := v; ; {
		i := strings.Index(rest, "://")
		if i < 0 {
			return false
		}
		scheme := strings.ToLower(rest[max(0, strings.LastIndexAny(rest[:i], ",; \t")+1):i])
		rest = rest[i+3:]
		authority := rest
		if j := strings.IndexAny(authority, "/?#"); j >= 0 {
			authority = authority[:j]
		}
		if user, _, ok := strings.Cut(authority, "@"); ok && (strings.Contains(user, ":") || scheme == "http" || scheme == "https") {
			return true
		}
	}
}

var (
	secretWords = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL",
		"PRIVATE_KEY", "PRIVATEKEY", "API_KEY", "APIKEY", "ACCESS_KEY", "SESSION_KEY",
		"JWT", "WEBHOOK", "COOKIE", "BEARER", "OAUTH", "CONNECTION_STRING", "CONNSTR"}
	secretSuffixes = []string{"_KEY", "_PASS", "_PWD", "_AUTH", "_SK", "_PAT", "_DSN"}
	secretPrefixes = []string{"JUJU_", "AWS_", "AZURE_", "GCP_", "GOOGLE_APPLICATION_", "VAULT_"}
	secretNames    = map[string]bool{
		"JUJU": true, "SSH_AUTH_SOCK": true, "GPG_AGENT_INFO": true, "NETRC": true,
		"KUBECONFIG": true, "DOCKER_AUTH_CONFIG": true, "DATABASE_URL": true,
		"PGPASSFILE": true, "GIT_ASKPASS": true, "SSH_ASKPASS": true, "DSN": true,
	}
)

// Secret reports whether an environment variable named name is withheld
// from children (see Scrub).
func Secret(name string) bool {
	n := strings.ToUpper(name)
	if secretNames[n] {
		return true
	}
	for _, w := range secretWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	for _, s := range secretSuffixes {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	for _, p := range secretPrefixes {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}
