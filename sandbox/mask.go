package sandbox

import "strings"

// SecretSpans returns where the credentials in s lie, in order and apart,
// as the value rules judge them (see SecretValue): the audit log shows the
// rest of an argument and a mark for each span, so a command line the AI
// typed with a token in it (curl -H "Authorization: Bearer …", mysql
// --password=…, https://TOKEN@host) is on record without the token. A
// text the rules pass has none. The word after an authentication scheme
// (Bearer, Basic, token), a credential header's colon, a credential flag
// (--api-key) or a netrc password is one; so is, in a word the rules
// judge a secret, the value after its first '=' (--password=…), the user
// information of a URL (what follows the user's ':', or the whole of an
// http(s) user), the password of a login (u:p@host), or else the word. A
// text still judged a secret once the words that hold or introduce its
// spans are taken out is one whole.
func SecretSpans(s string) [][2]int {
	if !SecretValue(s) {
		return nil
	}
	var spans [][2]int
	type word struct{ start, end int }
	var ws []word
	for i := 0; i < len(s); {
		for i < len(s) && isBlank(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !isBlank(s[j]) {
			j++
		}
		if j > i {
			ws = append(ws, word{i, j})
		}
		i = j
	}
	// core is a word without the quotes and the punctuation around it.
	core := func(w word) (int, int) {
		a, b := w.start, w.end
		for a < b && strings.IndexByte(`"'(`, s[a]) >= 0 {
			a++
		}
		for b > a && strings.IndexByte(`"'),;`, s[b-1]) >= 0 {
			b--
		}
		return a, b
	}
	// removed are the words that hold a span, and those that introduce
	// one, without their quotes: what is left must pass the rules.
	var removed []word
	for i := 0; i < len(ws); i++ {
		a, b := core(ws[i])
		if a == b {
			continue
		}
		w := s[a:b]
		lower := strings.ToLower(w)
		if i+1 < len(ws) && introducesCredential(w, lower) {
			na, nb := core(ws[i+1])
			next := strings.ToLower(s[na:nb])
			if authSchemes[next] && i+2 < len(ws) {
				continue // the scheme's word is the credential
			}
			if na < nb && !strings.HasPrefix(s[na:nb], "-") {
				spans = append(spans, [2]int{na, nb})
				removed = append(removed, word{a, b}, word{na, nb})
				i++
			}
			continue
		}
		if SecretValue(w) {
			spans = append(spans, wordSpan(w, a))
			removed = append(removed, word{a, b})
		}
	}
	var rest strings.Builder
	at := 0
	for _, w := range removed {
		rest.WriteString(s[at:w.start])
		at = w.end
	}
	rest.WriteString(s[at:])
	if SecretValue(rest.String()) {
		return [][2]int{{0, len(s)}}
	}
	return spans
}

// introducesCredential reports whether the word w (lower: lower-cased)
// says the next word is a credential: an authentication scheme, a
// credential header ending in ':', a flag named like a credential, or a
// netrc password keyword.
func introducesCredential(w, lower string) bool {
	if authSchemes[lower] || lower == "password" || lower == "passwd" {
		return true
	}
	if h, ok := strings.CutSuffix(w, ":"); ok && h != "" && credentialKey(h) {
		return true
	}
	name, ok := strings.CutPrefix(w, "-")
	return ok && !strings.Contains(name, "=") && pairKey(strings.TrimLeft(name, "-"))
}

// wordSpan is the credential's span in w, a word the value rules judge a
// secret that starts at off.
func wordSpan(w string, off int) [2]int {
	if i := strings.Index(w, "://"); i >= 0 {
		authority := w[i+3:]
		if j := strings.IndexAny(authority, "/?#"); j >= 0 {
			authority = authority[:j]
		}
		if at := strings.LastIndexByte(authority, '@'); at > 0 {
			start := i + 3
			if c := strings.IndexByte(authority[:at], ':'); c >= 0 {
				start += c + 1
			}
			return [2]int{off + start, off + i + 3 + at}
		}
	}
	if i := strings.IndexByte(w, '='); i >= 0 && i+1 < len(w) {
		return [2]int{off + i + 1, off + len(w)}
	}
	if at := strings.LastIndexByte(w, '@'); at > 0 && bareLogin(w) {
		if c := strings.IndexByte(w[:at], ':'); c >= 0 {
			return [2]int{off + c + 1, off + at}
		}
	}
	return [2]int{off, off + len(w)}
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
