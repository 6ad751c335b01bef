package abi

import (
	"strings"
	"testing"
)

func TestGlobForms(t *testing.T) {
	for p, want := range map[string]int{
		"*.go":                          1,
		"*.{go,mod}":                    2,
		"{a,b}/{c,d,e}":                 6,
		`\{a,b\}`:                       1,
		"{a,{b,c}}":                     4, // three forms: nested groups give an upper bound
		"}{":                            1,
		strings.Repeat("{,}", 9):        512,
		strings.Repeat("{,}", 40) + "x": MaxGlobForms + 1,
	} {
		if got := GlobForms(p); got != want {
			t.Errorf("GlobForms(%q) = %d, want %d", p, got, want)
		}
	}
}
