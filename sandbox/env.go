package sandbox

import (
	"strings"
	"sync"
)

// Scrub returns env without the variables a child must not see: juju's own
// (JUJU_*), every variable whose name looks like it holds a secret (see
// Secret) and every variable whose value does (see SecretValue). Names are
// compared ignoring case. The list errs on the side of dropping: a build
// that needs one of them reads it from a file the owner controls.
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
// a secret whatever its name: a URL that carries one (see secretURL), a
// login without a scheme (user:pass@host, see bareLogin), an HTTP
// Authorization value or header (see authorization), a password in a
// connection string (see secretPair), a credential flag and its value
// (see secretFlag), a JWT (see jwt), a token of a well-known service (see
// knownToken), a netrc line with a password (see netrcLine) or a PEM
// block, as it is or in base64 (a kubeconfig's client-key-data, a CI
// variable holding a key).
func SecretValue(v string) bool {
	if strings.Contains(v, "-----BEGIN ") || strings.Contains(v, pemBase64) || authorization(v) || bareLogin(v) ||
		secretPair(v) || secretFlag(v) || jwt(v) || netrcLine(v) || knownToken(v) {
		return true
	}
	for rest := v; ; {
		i := strings.Index(rest, "://")
		if i < 0 {
			return false
		}
		scheme := strings.ToLower(rest[max(0, strings.LastIndexAny(rest[:i], listSeps)+1):i])
		rest = rest[i+3:]
		if secretURL(scheme, rest) {
			return true
		}
	}
}

// pemBase64 is "-----BEGIN " in base64, as a PEM block encoded whole
// starts.
const pemBase64 = "LS0tLS1CRUdJTi"

// netrcLine reports whether v holds a netrc entry with a password: the
// word machine or default, then the word login, then the word password
// (or passwd) followed by another word ("machine h login me password x").
func netrcLine(v string) bool {
	f := strings.Fields(v)
	entry, login := false, false
	for i, w := range f {
		switch strings.ToLower(w) {
		case "machine", "default":
			entry = true
		case "login":
			login = entry
		case "password", "passwd":
			if login && i+1 < len(f) {
				return true
			}
		}
	}
	return false
}

// listSeps end one item of a list value (GOPROXY, NO_PROXY, a PATH of
// URLs): what follows is another item, not part of the URL.
const listSeps = ",; \t\r\n"

// secretURL reports whether the URL whose text follows "scheme://" (s
// runs to the end of the value) carries a secret. Credentials in its
// authority: a password (scheme://user:pass@host), or any user of an
// http(s) URL, where the user part is a token (https://TOKEN@host, a
// Sentry DSN's key); an ssh user (DOCKER_HOST=ssh://me@host) is no
// secret. A webhook, whose path is the credential (see webhook). A query
// parameter named like a credential (see secretQuery).
func secretURL(scheme, s string) bool {
	// The authority ends at the path only, not at a list separator: a
	// password may hold a comma or a semicolon.
	authority := s
	if j := strings.IndexAny(authority, "/?#"); j >= 0 {
		authority = authority[:j]
	}
	if user, _, ok := strings.Cut(authority, "@"); ok && (strings.Contains(user, ":") || scheme == "http" || scheme == "https") {
		return true
	}
	if j := strings.IndexAny(s, listSeps); j >= 0 {
		s = s[:j]
	}
	s, _, _ = strings.Cut(s, "#")
	s, query, _ := strings.Cut(s, "?")
	host, path, _ := strings.Cut(s, "/")
	return webhook(hostname(host), "/"+path) || secretQuery(query)
}

// hostname returns the lower-cased host of a URL's authority, without its
// user and port.
func hostname(authority string) string {
	h := authority[strings.LastIndex(authority, "@")+1:]
	if j := strings.LastIndex(h, ":"); j >= 0 && !strings.HasSuffix(h, "]") {
		h = h[:j]
	}
	return strings.ToLower(h)
}

// webhook reports whether a URL is a chat webhook: whoever has it posts
// in the channel, and its path is the only credential. Slack
// (hooks.slack.com/…), Discord (discord.com or discordapp.com, and their
// ptb. and canary. hosts, /api/webhooks/… or /api/vN/webhooks/…) and
// Microsoft Teams (outlook.office.com/webhook…, *.webhook.office.com/…).
func webhook(host, path string) bool {
	switch {
	case host == "hooks.slack.com", strings.HasSuffix(host, ".webhook.office.com"):
		return path != "/"
	case host == "outlook.office.com":
		return strings.HasPrefix(path, "/webhook")
	case host == "discord.com", host == "discordapp.com", strings.HasSuffix(host, ".discord.com"), strings.HasSuffix(host, ".discordapp.com"):
		rest, ok := strings.CutPrefix(path, "/api/")
		if v, after, versioned := strings.Cut(rest, "/"); versioned && len(v) > 1 && v[0] == 'v' && digits(v[1:]) {
			rest = after
		}
		return ok && strings.HasPrefix(rest, "webhooks/")
	}
	return false
}

// queryWords are the last word of a query parameter's name that makes its
// value a credential: token, access_token, private_token, key, api_key,
// secret, client_secret, sig (an Azure SAS), signature, X-Amz-Signature,
// password, passwd, pwd, pass, auth (Firebase's REST ?auth=), jwt.
var queryWords = map[string]bool{"TOKEN": true, "KEY": true, "APIKEY": true, "SECRET": true,
	"SIG": true, "SIGNATURE": true, "PASSWORD": true, "PASSWD": true, "PWD": true, "PASS": true, "AUTH": true,
	"JWT": true}

// secretQuery reports whether a URL's query has a non-empty parameter whose
// name ends in one of the queryWords (words split at _, - and .).
func secretQuery(query string) bool {
	for _, param := range strings.Split(query, "&") {
		name, value, _ := strings.Cut(param, "=")
		if value == "" {
			continue
		}
		if w := words(strings.ToUpper(name)); len(w) > 0 && queryWords[w[len(w)-1]] {
			return true
		}
	}
	return false
}

// bareLogin reports whether an item of v is a login without a URL scheme,
// user:password@host[:port][/…], as proxies and databases are often
// written (u:p@proxy:3128), or Go's MySQL DSN, user:password@tcp(host:port)/db
// or user:password@/db. A user or password holding a slash or a
// backslash is a path, "mailto:me@host" an address, and a "port" that is
// not a number no port: nginx:1.25@sha256:… is an image, git@host:repo a
// remote.
func bareLogin(v string) bool {
	for _, item := range strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune(listSeps, r) }) {
		at := strings.LastIndex(item, "@")
		if at < 0 {
			continue
		}
		user, pass, ok := strings.Cut(item[:at], ":")
		if !ok || user == "" || pass == "" || strings.ContainsAny(item[:at], `/\`) || strings.EqualFold(user, "mailto") {
			continue
		}
		rest := item[at+1:]
		if strings.HasPrefix(rest, "/") || dsnAddress(rest) {
			return true
		}
		host, _, _ := strings.Cut(rest, "/")
		if isHostPort(host) {
			return true
		}
	}
	return false
}

// dsnAddress reports whether s starts with the address of a Go SQL DSN:
// a protocol word and its address in brackets, tcp(db:3306) or
// unix(/run/mysqld.sock).
func dsnAddress(s string) bool {
	proto, addr, ok := strings.Cut(s, "(")
	return ok && proto != "" && strings.Trim(strings.ToLower(proto), "abcdefghijklmnopqrstuvwxyz0123456789") == "" &&
		strings.Contains(addr, ")")
}

// isHostPort reports whether s is host or host:port, host being a name or
// an IPv4 address (letters, digits, dots, dashes).
func isHostPort(s string) bool {
	host, port, hasPort := strings.Cut(s, ":")
	if host == "" || (hasPort && !digits(port)) {
		return false
	}
	for _, r := range host {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-') {
			return false
		}
	}
	return true
}

// digits reports whether s is a non-empty run of ASCII digits.
func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

var (
	// secretWords are held anywhere in a name; one of two words is also
	// held with its separator dropped or changed (APIKEY, CONNECTIONSTRINGS__DEFAULT,
	// KUBE-CONFIG-DATA), as the name is compared without its separators.
	secretWords = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "CREDS",
		"PRIVATE_KEY", "API_KEY", "ACCESS_KEY", "SESSION_KEY", "AUTH_KEY", "WRITE_KEY",
		"JWT", "WEBHOOK", "COOKIE", "BEARER", "OAUTH", "AUTHORIZATION", "CONNECTION_STRING", "CONNSTR",
		"KUBE_CONFIG", "NETRC", "MNEMONIC", "SEED_PHRASE"}
	// secretSegments are words a name holds as a whole word only: AUTH is
	// in X_AUTH_HEADER but not in GIT_AUTHOR_NAME, which juju sets for
	// commits.
	secretSegments = map[string]bool{"AUTH": true}
	// passWords are the English words that end in PASS: any other word
	// that does (SSHPASS, DBPASS, SMTP_PASS) names a password.
	passWords      = map[string]bool{"BYPASS": true, "COMPASS": true, "ENCOMPASS": true, "OVERPASS": true, "UNDERPASS": true, "SURPASS": true, "TRESPASS": true}
	secretSuffixes = []string{"_KEY", "_PWD", "_PW", "_AUTH", "_SK", "_PAT", "_DSN", "_SESSION"}
	secretPrefixes = []string{"JUJU_", "AWS_", "AZURE_", "GCP_", "GOOGLE_APPLICATION_", "VAULT_", "OP_SESSION_"}
	secretNames    = map[string]bool{
		"JUJU": true, "SSH_AUTH_SOCK": true, "GPG_AGENT_INFO": true, "NETRC": true,
		"DOCKER_AUTH_CONFIG": true, "DATABASE_URL": true, "PGPASSFILE": true, "DSN": true,
		"KEY": true, "PW": true, "SONAR_LOGIN": true,
	}
	// bundlerSettings are the words after BUNDLE_ and before "__" that
	// name a setting of bundler's, not a gem server whose login the
	// variable holds (BUNDLE_GEMS__CONTRIBSYS__COM=user:pass, bundler's
	// credentials for gems.contribsys.com): a gem's build flags, a gem's
	// local checkout, a source's mirror.
	bundlerSettings = map[string]bool{"BUILD": true, "LOCAL": true, "MIRROR": true}
	// headerPrefixes start the names of variables that hold HTTP headers
	// to send, when they also end in HEADERS: an OTLP exporter's
	// (OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TRACES_HEADERS …) is
	// how it authenticates, its vendor's key under a header of the
	// vendor's (x-honeycomb-team=…).
	headerPrefixes = []string{"OTEL_EXPORTER_OTLP_"}
	// keptNames look like secrets' names but hold none: two end in
	// _SESSION but name a desktop session, not a login one (the desktop's
	// name, Konsole's D-Bus path); Go's GOAUTH (off, netrc, git DIR or a
	// command) and npm's npm_config_auth_type (web or legacy) name how a
	// tool authenticates, not with what. Their values are still judged.
	keptNames = map[string]bool{"DESKTOP_SESSION": true, "KONSOLE_DBUS_SESSION": true, "GOAUTH": true,
		"NPM_CONFIG_AUTH_TYPE": true}
)

// Secret reports whether an environment variable named name is withheld
// from children (see Scrub): a name that contains TOKEN, SECRET, PASSWORD,
// PASSWD, PASSPHRASE, CREDENTIAL, CREDS, PRIVATE_KEY, API_KEY, ACCESS_KEY,
// SESSION_KEY, AUTH_KEY, WRITE_KEY, JWT, WEBHOOK, COOKIE, BEARER, OAUTH,
// AUTHORIZATION, CONNECTION_STRING, CONNSTR, KUBE_CONFIG, NETRC,
// MNEMONIC or SEED_PHRASE, a wallet's recovery words (the ones of two
// words also with another separator or none: APIKEY,
// TS_AUTHKEY, ConnectionStrings__Default, KUBECONFIG), has AUTH as a word
// (X_AUTH_HEADER, not GIT_AUTHOR_NAME), has a word ending in PASS that is
// no English word (SSHPASS, DBPASS, SMTP_PASS, GIT_ASKPASS; not BYPASS or
// COMPASS), ends in _KEY, _PWD, _PW, _AUTH, _SK, _PAT, _DSN or _SESSION
// (BW_SESSION; not DESKTOP_SESSION), starts with AWS_, AZURE_, GCP_,
// GOOGLE_APPLICATION_, VAULT_ or OP_SESSION_, holds an OTLP exporter's
// headers (OTEL_EXPORTER_OTLP_…HEADERS), or is one of the named ones
// (KEY, PW, DSN, SSH_AUTH_SOCK, GPG_AGENT_INFO, NETRC, DOCKER_AUTH_CONFIG,
// DATABASE_URL, PGPASSFILE, SONAR_LOGIN, SonarQube's token), names a gem
// server's login for bundler (BUNDLE_ and a host with its dots as "__":
// BUNDLE_GEMS__CONTRIBSYS__COM; not BUNDLE_BUILD__…, BUNDLE_LOCAL__… or
// BUNDLE_MIRROR__…), also with a number after it. A numbered
// copy of a secret name is one too: OPENAI_KEY_1 and SMTP_PASS2 are judged
// as OPENAI_KEY and SMTP_PASS. Case is ignored, but a name in camel case
// is also judged by its words (encryptionKey as ENCRYPTION_KEY). Kept
// are the names that only look like one (see keptNames): GOAUTH,
// npm_config_auth_type, DESKTOP_SESSION, KONSOLE_DBUS_SESSION.
func Secret(name string) bool {
	n := strings.ToUpper(name)
	if keptNames[n] {
		return false
	}
	if secretName(n) || secretName(strings.TrimRight(n, "0123456789_")) {
		return true
	}
	if snake := camelWords(name); snake != n && !keptNames[snake] {
		return secretName(snake) || secretName(strings.TrimRight(snake, "0123456789_"))
	}
	return false
}

// camelWords is name upper-cased with "_" between the words of camel
// case (encryptionKey: ENCRYPTION_KEY, githubAuth: GITHUB_AUTH), so that
// the rules on words and endings see them; a capital that follows a small
// letter or a digit starts a word.
func camelWords(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if i > 0 && c >= 'A' && c <= 'Z' {
			if p := name[i-1]; p >= 'a' && p <= 'z' || p >= '0' && p <= '9' {
				b.WriteByte('_')
			}
		}
		b.WriteByte(c)
	}
	return strings.ToUpper(b.String())
}

// secretName is Secret for an upper-cased name, as it is.
func secretName(n string) bool {
	if n == "" {
		return false
	}
	if secretNames[n] {
		return true
	}
	w := words(n)
	squashed := strings.Join(w, "")
	for _, s := range secretWords {
		if strings.Contains(n, s) {
			return true
		}
	}
	for _, s := range squashedWords() {
		if strings.Contains(squashed, s) {
			return true
		}
	}
	for _, s := range w {
		if secretSegments[s] || strings.HasSuffix(s, "PASS") && !passWords[s] {
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
	if rest, ok := strings.CutPrefix(n, "BUNDLE_"); ok {
		if first, _, ok := strings.Cut(rest, "__"); ok && !bundlerSettings[first] {
			return true
		}
	}
	for _, p := range headerPrefixes {
		if strings.HasPrefix(n, p) && strings.HasSuffix(n, "HEADERS") {
			return true
		}
	}
	return false
}

// squashedWords are the secretWords of two words without their separator
// (API_KEY: APIKEY), made once: every name juju's children may see is
// judged at start, three times over (RATIONALE).
var squashedWords = sync.OnceValue(func() []string {
	var out []string
	for _, s := range secretWords {
		if strings.Contains(s, "_") {
			out = append(out, strings.ReplaceAll(s, "_", ""))
		}
	}
	return out
})

// words splits a name at _, - and . into its words (X_AUTH_HEADER is X,
// AUTH, HEADER), dropping empty ones.
func words(n string) []string {
	return strings.FieldsFunc(n, func(r rune) bool { return r == '_' || r == '-' || r == '.' })
}
