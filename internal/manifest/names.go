package manifest

import "strings"

// The name rules, as the patterns messages quote. They are checked by hand
// rather than by regexp: a counted repetition such as {0,63} compiles to
// one instruction per count, and the three patterns cost every juju start
// 2.2 ms and 1,900 allocations (GODEBUG=inittrace=1). FuzzNameRules holds
// the checks to the patterns.
const (
	namePattern     = `^[a-z0-9][a-z0-9-]{0,63}$`
	toolNamePattern = `^[a-z0-9_]{1,64}$`
	filePattern     = `^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\.wasm$`
)

// validName reports whether s matches namePattern: a plugin's or a
// discoverer's name.
func validName(s string) bool {
	if len(s) == 0 || len(s) > 64 || !lowerOrDigit(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !lowerOrDigit(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

// validToolName reports whether s matches toolNamePattern.
func validToolName(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !lowerOrDigit(s[i]) && s[i] != '_' {
			return false
		}
	}
	return true
}

// validFile reports whether s matches filePattern: a plain file name
// ending in .wasm.
func validFile(s string) bool {
	stem, ok := strings.CutSuffix(s, ".wasm")
	if !ok || len(stem) == 0 || len(stem) > 128 || !alnum(stem[0]) {
		return false
	}
	for i := 1; i < len(stem); i++ {
		if c := stem[i]; !alnum(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

func lowerOrDigit(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

func alnum(c byte) bool { return lowerOrDigit(c) || 'A' <= c && c <= 'Z' }
