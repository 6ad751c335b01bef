package test

import (
	"strings"
	"testing"
)

// find_symbol names the argument that holds a line break.
func TestFindSymbolNamesItsQuery(t *testing.T) {
	s := start(t, workspace(t, map[string]string{"a.go": "package a\n"}))
	msg := s.fail("find_symbol", map[string]any{"query": "a\nb"}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "query") || strings.Contains(msg, "pattern") {
		t.Errorf("the message does not name the query: %s", msg)
	}
}
