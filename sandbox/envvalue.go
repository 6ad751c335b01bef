package sandbox

import "strings"

// authSchemes are the HTTP authentication schemes whose one word after
// them, in a value of two words, is a credential ("Bearer abc").
var authSchemes = map[string]bool{"bearer": true, "basic": true, "token": true}

// authHeaders are HTTP headers whose value is a credential, lower-cased.
// Proxy-Authorization holds authorization, and X-Api-Key api-key.
var authHeaders = []string{"authorization", "api-key", "apikey", "private-token", "job-token", "auth-token", "access-token", "cookie"}

// authorization reports whether v is an HTTP Authorization value — a
// Bearer, Basic or token scheme followed by one word, its credentials — or
// holds, anywhere, a credential header (see authHeaders) followed by ':'
// and its value, as a git http.extraHeader in GIT_CONFIG_PARAMETERS does. A
// scheme word alone, a sentence, or a header whose value is one plain word
// ("Authorization: none") is text.
func authorization(v string) bool {
	if f := strings.Fields(v); len(f) == 2 && authSchemes[strings.ToLower(f[0])] {
		return true
	}
	lower := asciiLower(v)
	for _, h := range authHeaders {
		for i := 0; ; {
			j := strings.Index(lower[i:], h)
			if j < 0 {
				break
			}
			i += j + len(h)
			if rest := strings.TrimLeft(v[i:], " \t"); strings.HasPrefix(rest, ":") && headerCredential(rest[1:]) {
				return true
			}
		}
	}
	return false
}

// headerCredential reports whether s, what follows a credential header's
// colon, holds a credential: anything up to the end of its line or quote
// but nothing, or one word of letters only.
func headerCredential(s string) bool {
	if i := strings.IndexAny(s, "\r\n'\""); i >= 0 {
		s = s[:i]
	}
	f := strings.Fields(s)
	return len(f) > 1 || len(f) == 1 && strings.Trim(asciiLower(f[0]), "abcdefghijklmnopqrstuvwxyz") != ""
}

// pairWords are the last words (split at _, - and .) of a key whose value
// is a credential in a key=value list: a connection string's Password or
// Pwd, libpq's password, a JDBC URL's ;password=, a JSON "secret". The
// words of five letters or more also end a word written in camel case
// (a Java property's keyStorePassword, Gradle's repoPassword).
var pairWords = map[string]bool{"PASSWORD": true, "PASSWD": true, "PWD": true, "PASS": true, "PASSPHRASE": true,
	"SECRET": true, "TOKEN": true}

// pairKeys are whole keys, their separators dropped, whose value is a
// credential though their last word alone says nothing: Azure's
// AccountKey and SharedAccessKey, an ApiKey, npm's _auth (an .npmrc's
// line, //registry/:_auth=…, and a Docker config's "auth"), a
// kubeconfig's client-key-data. Those of six letters or more also end a
// longer key (aws_secret_access_key).
var pairKeys = map[string]bool{"APIKEY": true, "ACCOUNTKEY": true, "SHAREDACCESSKEY": true, "ACCESSKEY": true,
	"SECRETKEY": true, "PRIVATEKEY": true, "AUTH": true, "CLIENTKEYDATA": true}

// pairStarts are the bytes a key may follow: it starts a key=value item
// of a list (";", space, ",", "&", "?", ":" as in an .npmrc's
// //registry/:_authToken=…) or an object ("{", "(", "["). After "#", a
// URL's fragment, it is no parameter.
const pairStarts = " \t\r\n;,&?:{(["

// secretPair reports whether v holds a key=value pair whose key is named
// like a credential (see pairWords, pairKeys) and whose value is not
// empty, whatever separates the pairs: "Server=db;Password=x;",
// "host=db password=x", "jdbc:…;password=x", "--password=x",
// `{"password": "x"}`, YAML's "password: x". Case is ignored, and blanks
// may stand around the "="; a quoted key may be followed by ":", and so
// may an unquoted one with a blank after the ":" (YAML), unless it is a
// credential header, which authorization judges.
func secretPair(v string) bool {
	for e := 0; e < len(v); e++ {
		if v[e] != '=' && v[e] != ':' {
			continue
		}
		k := e
		for k > 0 && (v[k-1] == ' ' || v[k-1] == '\t') {
			k--
		}
		quoted := k > 0 && (v[k-1] == '"' || v[k-1] == '\'')
		yaml := false
		if quoted {
			k--
		} else if v[e] == ':' {
			if k != e || e+1 >= len(v) || v[e+1] != ' ' && v[e+1] != '\t' {
				continue
			}
			yaml = true
		}
		end := k
		for k > 0 && keyByte(v[k-1]) {
			k--
		}
		key := strings.TrimLeft(v[k:end], "-")
		if quoted && k > 0 && (v[k-1] == '"' || v[k-1] == '\'') {
			k--
		}
		if key == "" || k > 0 && !strings.ContainsRune(pairStarts, rune(v[k-1])) || !credentialKey(key) ||
			yaml && !pairKey(key) {
			continue
		}
		if val := strings.TrimLeft(v[e+1:], " \t\"'"); val != "" && !strings.ContainsRune(";,&})]\r\n\"'", rune(val[0])) {
			return true
		}
	}
	return false
}

// keyByte reports whether c may be part of a key: letters, digits, _, -
// and . (spring.datasource.password).
func keyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// credentialKey reports whether a key names a credential (see pairWords
// and pairKeys), or is a credential header (see authHeaders), alone or
// after a prefix (X-Api-Key, DD-API-KEY, Proxy-Authorization): OTLP
// exporters take their headers as a list of such pairs,
// OTEL_EXPORTER_OTLP_HEADERS=Authorization=Basic%20….
func credentialKey(key string) bool {
	if pairKey(key) {
		return true
	}
	lower := asciiLower(key)
	for _, h := range authHeaders {
		if lower == h || strings.HasSuffix(lower, "-"+h) || strings.HasSuffix(lower, "_"+h) {
			return true
		}
	}
	return false
}

// pairKey reports whether a key is named like a credential by its words
// (see pairWords and pairKeys), a credential header aside.
func pairKey(key string) bool {
	w := words(strings.ToUpper(key))
	if len(w) == 0 {
		return false
	}
	joined := strings.Join(w, "")
	if pairWords[w[len(w)-1]] || pairKeys[joined] {
		return true
	}
	for word := range pairWords {
		if len(word) >= 5 && strings.HasSuffix(joined, word) {
			return true
		}
	}
	for k := range pairKeys {
		if len(k) >= 6 && strings.HasSuffix(joined, k) {
			return true
		}
	}
	return false
}

// secretFlag reports whether v holds a command-line flag named like a
// credential (see pairKey) followed, after a blank, by its value: a word
// that is no other flag ("--db-password hunter2", "-token abc",
// "--api-key abc"). The flag with "=" is a pair (see secretPair).
func secretFlag(v string) bool {
	f := strings.Fields(v)
	for i := 0; i+1 < len(f); i++ {
		name, ok := strings.CutPrefix(f[i], "-")
		if ok && !strings.HasPrefix(f[i+1], "-") && pairKey(strings.TrimLeft(name, "-")) {
			return true
		}
	}
	return false
}

// jwt reports whether v holds, at the start of a word, a JSON Web Token:
// three base64url parts joined by dots, the first a JSON object's
// encoding ("eyJ", as its payload's is). Whoever holds one is its subject
// until it expires.
func jwt(v string) bool {
	for i := 0; ; {
		j := strings.Index(v[i:], "eyJ")
		if j < 0 {
			return false
		}
		i += j
		start := i
		i += 3
		if start > 0 && (bodyByte(dashed, v[start-1]) || v[start-1] == '.') {
			continue
		}
		parts, n := 1, 3
		for ; i < len(v) && (bodyByte(dashed, v[i]) || v[i] == '.'); i++ {
			if v[i] == '.' {
				if n < 10 {
					break
				}
				parts, n = parts+1, 0
				continue
			}
			n++
		}
		if parts >= 3 {
			return true
		}
	}
}

// A token body's characters.
const (
	alnum   = iota // letters and digits
	wordish        // and _
	dashed         // and _ and -
	capital        // capitals and digits
)

// knownTokens are the prefixes of well-known services' tokens, each with
// its body's characters and the fewest of them a real token has (most
// have more): GitHub's ghp_/gho_/ghu_/ghs_/ghr_ (36) and github_pat_ (82),
// GitLab's glpat- (20), Slack's xox?- and xapp-, OpenAI's and Anthropic's
// sk- (48 and more), Stripe's sk_/rk_ live and test keys, AWS access key
// ids (AKIA, ASIA: 16), Google API keys (AIza: 35), npm_ (36), pypi-
// (a long macaroon), Hugging Face's hf_ (34), xAI's xai-, Groq's gsk_,
// Replicate's r8_, SonarQube's squ_/sqp_/sqa_, GitLab runners' glrt-,
// DigitalOcean's dop_v1_/doo_v1_, Shopify's shpat_/shpss_, Sentry's
// sntrys_, Linear's lin_api_, New Relic's NRAK-, Databricks' dapi (32
// hex), SendGrid's SG., Google's OAuth access tokens ya29., Stripe's
// webhook secrets whsec_, Docker Hub's dckr_pat_, Atlassian's ATATT and
// Bitbucket's ATBB, Vault's hvs./hvb., Tailscale's tskey-, age's
// AGE-SECRET-KEY-1, Square's sq0atp-/sq0csp-, Figma's figd_, RubyGems'
// rubygems_, NuGet's oy2, Grafana's glsa_, Postman's PMAK-, Doppler's
// dp.st. (its config's name after it) and dp.pt., and Sentry's user
// tokens sntryu_. The minimum keeps short
// words that only start the same way ("sk-SK") as text.
var knownTokens = []struct {
	prefix string
	body   int
	min    int
}{
	{"ghp_", alnum, 30}, {"gho_", alnum, 30}, {"ghu_", alnum, 30}, {"ghs_", alnum, 30}, {"ghr_", alnum, 30},
	{"github_pat_", wordish, 30}, {"glpat-", dashed, 20},
	{"xoxa-", dashed, 10}, {"xoxb-", dashed, 10}, {"xoxe-", dashed, 10}, {"xoxp-", dashed, 10}, {"xoxr-", dashed, 10},
	{"xoxs-", dashed, 10}, {"xapp-", dashed, 10},
	{"sk-", dashed, 20}, {"sk_live_", alnum, 16}, {"sk_test_", alnum, 16}, {"rk_live_", alnum, 16}, {"rk_test_", alnum, 16},
	{"AKIA", capital, 16}, {"ASIA", capital, 16}, {"AIza", dashed, 30},
	{"npm_", alnum, 30}, {"pypi-", dashed, 20}, {"hf_", alnum, 30},
	{"xai-", alnum, 40}, {"gsk_", alnum, 40}, {"r8_", alnum, 30}, {"squ_", alnum, 30}, {"sqp_", alnum, 30}, {"sqa_", alnum, 30},
	{"glrt-", dashed, 20}, {"dop_v1_", alnum, 40}, {"doo_v1_", alnum, 40}, {"shpat_", alnum, 30}, {"shpss_", alnum, 30},
	{"sntrys_", dashed, 30}, {"lin_api_", alnum, 30}, {"NRAK-", capital, 20}, {"dapi", alnum, 32},
	{"SG.", dashed, 20}, {"ya29.", dashed, 20}, {"whsec_", alnum, 24}, {"dckr_pat_", dashed, 20},
	{"ATATT", dashed, 30}, {"ATBB", alnum, 30}, {"hvs.", dashed, 20}, {"hvb.", dashed, 20},
	{"tskey-", dashed, 15}, {"AGE-SECRET-KEY-1", capital, 50}, {"sq0atp-", dashed, 20}, {"sq0csp-", dashed, 30},
	{"figd_", dashed, 30}, {"rubygems_", alnum, 40}, {"oy2", alnum, 40}, {"glsa_", wordish, 30},
	{"PMAK-", dashed, 40}, {"dp.st.", dashed, 2}, {"dp.pt.", alnum, 40}, {"sntryu_", alnum, 30},
}

// knownToken reports whether v holds, at the start of a word, a token of
// a well-known service (see knownTokens).
func knownToken(v string) bool {
	for i := 0; i < len(v); i++ {
		if i > 0 && bodyByte(alnum, v[i-1]) {
			continue
		}
		for _, t := range knownTokens {
			if !strings.HasPrefix(v[i:], t.prefix) {
				continue
			}
			n := 0
			for j := i + len(t.prefix); j < len(v) && bodyByte(t.body, v[j]); j++ {
				n++
			}
			if n >= t.min {
				return true
			}
		}
	}
	return false
}

// bodyByte reports whether c is one of a token body's characters.
func bodyByte(body int, c byte) bool {
	upper, digit := c >= 'A' && c <= 'Z', c >= '0' && c <= '9'
	switch body {
	case capital:
		return upper || digit
	case dashed:
		if c == '-' {
			return true
		}
		fallthrough
	case wordish:
		if c == '_' {
			return true
		}
	}
	return upper || digit || c >= 'a' && c <= 'z'
}

// asciiLower is s with its ASCII capitals lower-cased, byte for byte, so
// that an index into it is one into s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
