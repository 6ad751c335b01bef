package abi

// MaxGlobForms bounds the forms a glob's brace groups expand to, wherever
// the host matches a glob it did not write: a file glob of search or glob,
// a folder to skip, a discoverer's files. The doublestar matcher tries a
// group's alternatives in turn, one group after another, so forty groups
// of two ("{,}{,}…x") are a trillion tries for each name, in host code
// that no deadline stops.
const MaxGlobForms = 1024

// GlobForms counts the forms the brace groups of a glob expand to, at
// most MaxGlobForms+1 (a nested group counts as if it were not: an upper
// bound). A backslash escapes the next character.
func GlobForms(p string) int {
	forms := 1
	var commas []int // per open group
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			commas = append(commas, 0)
		case ',':
			if len(commas) > 0 {
				commas[len(commas)-1]++
			}
		case '}':
			if len(commas) == 0 {
				continue
			}
			forms *= commas[len(commas)-1] + 1
			commas = commas[:len(commas)-1]
			if forms > MaxGlobForms {
				return MaxGlobForms + 1
			}
		}
	}
	return forms
}
