package sandbox

import "strings"

// Scrub returns env without the variables a child must not see: juju's own
// (JUJU_*), and every variable whose name looks like it holds a secret —
// it contains TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE, CREDENTIAL,
// PRIVATE_KEY, API_KEY, APIKEY, ACCESS_KEY or SESSION_KEY, ends in _KEY,
// _PASS, _PWD or _AUTH, starts with AWS_, AZURE_, GCP_, GOOGLE_APPLICATION_
// or VAULT_, or is one of the named ones (SSH_AUTH_SOCK, GPG_AGENT_INFO,
// NETRC, KUBECONFIG, DOCKER_AUTH_CONFIG, DATABASE_URL, …). Names are
// compared ignoring case. The list errs on the side of dropping: a build
// that needs one of them reads it from a file the owner controls.
func Scrub(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !Secret(name) {
			out = append(out, kv)
		}
	}
	return out
}

var (
	secretWords = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL",
		"PRIVATE_KEY", "PRIVATEKEY", "API_KEY", "APIKEY", "ACCESS_KEY", "SESSION_KEY"}
	secretSuffixes = []string{"_KEY", "_PASS", "_PWD", "_AUTH"}
	secretPrefixes = []string{"JUJU_", "AWS_", "AZURE_", "GCP_", "GOOGLE_APPLICATION_", "VAULT_"}
	secretNames    = map[string]bool{
		"JUJU": true, "SSH_AUTH_SOCK": true, "GPG_AGENT_INFO": true, "NETRC": true,
		"KUBECONFIG": true, "DOCKER_AUTH_CONFIG": true, "DATABASE_URL": true,
		"PGPASSFILE": true, "GIT_ASKPASS": true, "SSH_ASKPASS": true,
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
