package fs

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// FuzzGitignore feeds any .gitignore and any path to the matcher: it must
// not panic and must answer quickly.
func FuzzGitignore(f *testing.F) {
	for _, c := range ignoreCases {
		for name, body := range c.files {
			f.Add([]byte(body), c.paths[0], strings.Contains(name, "/"))
		}
	}
	f.Add([]byte("**/**/**/**/**/**/a*b*c*d*e*f*g\n"), strings.Repeat("a/", 40)+"x", false)
	f.Add([]byte("[[:alpha:]\n\\\n!\n/\n"), "x", true)
	f.Fuzz(func(t *testing.T, data []byte, rel string, isDir bool) {
		start := time.Now()
		s := ignoreStack{}.push(parseIgnore("", data)).push(parseIgnore("sub", data))
		s.ignored(rel, isDir)
		s.ignored("sub/"+rel, isDir)
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Fatalf("took %v", d)
		}
	})
}

// FuzzWildmatch checks that any pattern and text match without panic, in
// bounded time, and that a pattern without wildcards matches only itself.
func FuzzWildmatch(f *testing.F) {
	f.Add("foo/**/bar", "foo/a/b/bar", true)
	f.Add("*[!a-z]?\\*", "xY1*", false)
	f.Add("[[:digit:]-]", "-", true)
	f.Add(strings.Repeat("*a", 20)+"b", strings.Repeat("a", 60), false)
	f.Fuzz(func(t *testing.T, pattern, text string, pathname bool) {
		if strings.IndexByte(pattern, 0) >= 0 || strings.IndexByte(text, 0) >= 0 {
			return // C strings in git; file names never hold a NUL
		}
		start := time.Now()
		budget := maxEntrySteps
		got := wildmatch(pattern, text, pathname, &budget)
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Fatalf("wildmatch(%q, %q) took %v", pattern, text, d)
		}
		if !strings.ContainsAny(pattern, `*?[\`) && got != (pattern == text) {
			t.Fatalf("wildmatch(%q, %q) = %v for a literal pattern", pattern, text, got)
		}
	})
}

// FuzzHandlers sends any header to every fs host function: each answers a
// JSON header, with either a known error code or a result, and never a
// host path outside the root.
func FuzzHandlers(f *testing.F) {
	fx := newFixture(f, Options{})
	for _, s := range []string{
		`{"path":"a.txt"}`, `{"path":"link-a","line":2,"lines":1}`, `{"path":"..","hash":true}`,
		`{"pattern":"**/*.go","sortBy":"mtime","limit":1}`, `{"path":"sub","includeIgnored":true}`,
		`{"path":"a.txt","offset":9223372036854775807,"length":9223372036854775807}`,
		`{"path":"lines.txt","line":9223372036854775807,"lines":9223372036854775807}`,
		`{"pattern":"/`, `{"path":"\u0000"}`, `null`, `[]`, `{"pattern":"{a,{b,c}"}`,
		`{"reads":[{"path":"a.txt"},{"path":".env"},{"path":"link-out","line":1}]}`, `{"reads":[{"path":"sub"},{"maxBytes":-1}]}`,
	} {
		f.Add([]byte(s))
	}
	names := []string{abi.FnFSRead, abi.FnFSReads, abi.FnFSList, abi.FnFSStat, abi.FnFSGlob}
	f.Fuzz(func(t *testing.T, hdr []byte) {
		for _, name := range names {
			out, body := fx.fns[name](context.Background(), hdr, nil)
			var st abi.Status
			if err := json.Unmarshal(out, &st); err != nil {
				t.Fatalf("%s(%q): header %q is not JSON: %v", name, hdr, out, err)
			}
			if name == abi.FnFSReads && st.Error == nil {
				var res abi.ReadsResult
				if err := json.Unmarshal(out, &res); err != nil {
					t.Fatal(err)
				}
				headers, bodies := frames(t, body, res.Reads)
				out = bytes.Join(append(headers, bodies...), nil)
			}
			if st.Error != nil && !st.Error.Code.Valid() {
				t.Fatalf("%s(%q): unknown code %q", name, hdr, st.Error.Code)
			}
			if bytes.Contains(out, []byte(fx.outside)) {
				t.Fatalf("%s(%q): answer names a host path outside the root: %s", name, hdr, out)
			}
		}
	})
}

// A file held whole is cut into lines by linesIn, any other by readLines:
// both give the same answer for any data, window and cap.
func FuzzLinesInIsReadLines(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), 0, 0, int64(100))
	f.Add([]byte("a\nb\nc"), 2, 1, int64(100))
	f.Add([]byte("first line is long\nb\n"), 1, 0, int64(5))
	f.Add([]byte("a\nbb\nccc\ndddd"), 2, 2, int64(4))
	f.Add([]byte(""), 0, 0, int64(10))
	f.Add([]byte("\n\n\n"), 3, 5, int64(1))
	f.Add([]byte("x"), 0, 0, int64(1))
	f.Fuzz(func(t *testing.T, data []byte, line, lines int, limit int64) {
		if line < 0 || lines < 0 || limit < 1 {
			return
		}
		req := &abi.ReadRequest{Line: line, Lines: lines}
		var want, got abi.ReadResult
		wantBody, err := readLines(context.Background(), bytes.NewReader(data), bufLen(int64(len(data)), int64(len(data))), req, limit, &want)
		if err != nil {
			t.Fatal(err)
		}
		gotBody := linesIn(data, req, limit, &got)
		if !bytes.Equal(gotBody, wantBody) || got != want {
			t.Fatalf("%q line %d lines %d limit %d:\nlinesIn   %q %+v\nreadLines %q %+v", data, line, lines, limit, gotBody, got, wantBody, want)
		}
	})
}
