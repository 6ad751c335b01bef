package fs

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/golden"

	"github.com/jujutools/juju/sdk/abi"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestTranscript records a session of host calls as text, one
// "==> fn(request)" and one "<== response" line per call, and compares it
// with testdata/transcript.golden (go test -update rewrites it).
func TestTranscript(t *testing.T) {
	f := newFixture(t, Options{})
	calls := []struct{ fn, req string }{
		{abi.FnFSRead, `{"path":"a.txt"}`},
		{abi.FnFSRead, `{"path":"lines.txt","line":2,"lines":2}`},
		{abi.FnFSRead, `{"path":"bin.dat"}`},
		{abi.FnFSRead, `{"path":"link-a","maxBytes":5}`},
		{abi.FnFSRead, `{"path":"sub"}`},
		{abi.FnFSRead, `{"path":".env"}`},
		{abi.FnFSRead, `{"path":"link-out"}`},
		{abi.FnFSRead, `{"path":"../outside/x.txt"}`},
		{abi.FnFSRead, `{"path":"dangling"}`},
		{abi.FnFSRead, `{"path":"a.txt","extra":1}`},
		{abi.FnFSList, `{"path":"sub"}`},
		{abi.FnFSList, `{"path":"keys"}`},
		{abi.FnFSStat, `{"path":"link-a","hash":true}`},
		{abi.FnFSStat, `{"path":"data/key-copy.txt"}`},
		{abi.FnFSGlob, `{"pattern":"**/*_test.go","sortBy":"mtime"}`},
		{abi.FnFSGlob, `{"pattern":"**/*.go","limit":1}`},
		{abi.FnFSGlob, `{"pattern":"[z"}`},
	}
	mtime := regexp.MustCompile(`"modTime":"[^"]*"`)
	var b strings.Builder
	for _, c := range calls {
		out, body := f.fns[c.fn](context.Background(), []byte(c.req), nil)
		resp := strings.ReplaceAll(string(out), f.tmp, "$TMP")
		resp = mtime.ReplaceAllStringFunc(resp, func(s string) string {
			if strings.HasPrefix(s, `"modTime":"2024-`) {
				return s // fixed by the fixture
			}
			return `"modTime":"…"`
		})
		fmt.Fprintf(&b, "==> %s(%s)\n<== %s", c.fn, c.req, resp)
		if len(body) > 0 {
			fmt.Fprintf(&b, " body=%q", body)
		}
		b.WriteString("\n")
	}
	golden.Check(t, filepath.Join("testdata", "transcript.golden"), b.String(), *update)
}
