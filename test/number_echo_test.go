package test

import (
	"strings"
	"testing"
)

// TestNumberArgumentsAreEchoedShort: a number out of an argument's range
// is named in the error as a number reads, not as the 309 digits of 1e308.
func TestNumberArgumentsAreEchoedShort(t *testing.T) {
	s := start(t, workspace(t, map[string]string{"a.txt": "a\n"}))
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"read_file", map[string]any{"path": "a.txt", "limit": 1e308}, `"limit" must be at most 9007199254740991 (got 1e+308)`},
		{"read_file", map[string]any{"path": "a.txt", "offset": -1e300}, `"offset" must be at least 1 (got -1e+300)`},
		{"search_code", map[string]any{"pattern": "a", "maxResults": 1.5e300}, `"maxResults" must be at most 2000 (got 1.5e+300)`},
	} {
		msg := s.fail(c.tool, c.args, "INVALID_ARGUMENT")
		if !strings.Contains(msg, c.want) || len(msg) > 300 {
			t.Errorf("%s %v: %q, want it to say %q", c.tool, c.args, msg, c.want)
		}
	}
}
