package search

import (
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/testfs"
	"github.com/jujutools/juju/sdk/abi"
)

// A pattern or glob ripgrep cannot be given is the caller's to fix, with
// ripgrep as without it: a NUL byte or a glob longer than any path is
// INVALID_ARGUMENT, a pattern past MaxSearchPattern TOO_LARGE, each with
// a bounded message. They were INTERNAL (rg: argument list too long).
func TestArgumentsRipgrepCannotReceive(t *testing.T) {
	root := testfs.Workspace(t, map[string]string{"a.txt": "hello\n"})
	p := newPolicy(t, root)
	tests := []struct {
		name string
		req  abi.SearchRequest
		want abi.Code
	}{
		{"NUL in the glob", abi.SearchRequest{Pattern: "hello", Glob: "a\x00b"}, abi.InvalidArgument},
		{"a glob longer than a path", abi.SearchRequest{Pattern: "hello", Glob: strings.Repeat("g", 200<<10)}, abi.InvalidArgument},
		{"a folder to skip longer than a path", abi.SearchRequest{Pattern: "hello", SkipDirs: []string{strings.Repeat("d", 200<<10)}}, abi.InvalidArgument},
		{"a 128 KiB pattern", abi.SearchRequest{Pattern: strings.Repeat("x", 128<<10)}, abi.TooLarge},
		{"a 10 MB pattern", abi.SearchRequest{Pattern: strings.Repeat("x", 10<<20), Literal: true}, abi.TooLarge},
	}
	for _, rg := range []string{"", "no-such-rg"} {
		for _, tt := range tests {
			t.Run(tt.name+"/rg="+rg, func(t *testing.T) {
				res := call(t, p, Options{RG: rg}, tt.req)
				if res.Error == nil || res.Error.Code != tt.want {
					t.Fatalf("got %+v, want %s", res.Error, tt.want)
				}
				if len(res.Error.Message) > 1000 {
					t.Errorf("a message of %d bytes", len(res.Error.Message))
				}
			})
		}
	}
	// The longest pattern taken is searched.
	if res := call(t, p, Options{}, abi.SearchRequest{Pattern: "hello|" + strings.Repeat("x", abi.MaxSearchPattern-6), Literal: false}); res.Error != nil || len(res.Files) != 1 {
		t.Errorf("a pattern of MaxSearchPattern bytes: %+v", res)
	}
}
