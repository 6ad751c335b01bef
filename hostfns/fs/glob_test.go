package fs

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// paths renders entries as "path[:type][->target]" (type when not a file).
func paths(ents []abi.Entry) string {
	var out []string
	for _, e := range ents {
		s := e.Path
		if e.Type != abi.TypeFile {
			s += ":" + e.Type
		}
		if e.Target != "" {
			s += "->" + e.Target
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestGlob(t *testing.T) {
	f := newFixture(t, Options{})
	all := ".gitignore a.txt bin.dat crlf.txt data/key-copy.txt data/key.bin empty.txt keep.log keys/README lines.txt link-a:symlink->a.txt node_modules/m/i.js nonl.txt sub/.gitignore sub/b.go sub/c_test.go sub/deep/d_test.go"
	for _, c := range []struct {
		name      string
		req       abi.GlobRequest
		want      string
		total     int
		truncated bool
	}{
		{name: "tests", req: abi.GlobRequest{Pattern: "**/*_test.go"}, want: "sub/c_test.go sub/deep/d_test.go"},
		{name: "every file", req: abi.GlobRequest{}, want: all},
		{name: "every file ignored too", req: abi.GlobRequest{IncludeIgnored: true},
			want: ".gitignore a.txt bin.dat build/out.o crlf.txt data/key-copy.txt data/key.bin empty.txt excluded.txt keep.log keys/README lines.txt link-a:symlink->a.txt node_modules/m/i.js nonl.txt sub/.gitignore sub/b.go sub/c_test.go sub/deep/d_test.go sub/gen/z.go x.log"},
		{name: "top level only", req: abi.GlobRequest{Pattern: "*.txt"}, want: "a.txt crlf.txt empty.txt lines.txt nonl.txt"},
		{name: "literal folder", req: abi.GlobRequest{Pattern: "sub/*.go"}, want: "sub/b.go sub/c_test.go"},
		{name: "base folder", req: abi.GlobRequest{Pattern: "**/*.go", Path: "sub"}, want: "sub/b.go sub/c_test.go sub/deep/d_test.go"},
		{name: "base through link", req: abi.GlobRequest{Pattern: "*.go", Path: "link-sub"}, want: "sub/b.go sub/c_test.go"},
		{name: "ignored base is walked", req: abi.GlobRequest{Pattern: "*", Path: "sub/gen"}, want: "sub/gen/z.go"},
		{name: "absolute pattern", req: abi.GlobRequest{Pattern: f.ws + "/sub/**/*_test.go"}, want: "sub/c_test.go sub/deep/d_test.go"},
		{name: "dirs", req: abi.GlobRequest{Pattern: "**/d*", IncludeDirs: true}, want: "data:dir sub/deep:dir sub/deep/d_test.go"}, // dangling links are left out
		{name: "dir links with dirs", req: abi.GlobRequest{Pattern: "link-*", IncludeDirs: true}, want: "link-a:symlink->a.txt link-sub:symlink->sub"},
		{name: "dir links never entered", req: abi.GlobRequest{Pattern: "link-sub/**"}, want: ""},
		{name: "braces", req: abi.GlobRequest{Pattern: "{sub/b,a}.{go,txt}"}, want: "a.txt sub/b.go"},
		{name: "secrets never match", req: abi.GlobRequest{Pattern: "**/*.pem"}, want: ""},
		{name: "git never walked", req: abi.GlobRequest{Pattern: "**/HEAD", IncludeIgnored: true}, want: ""},
		{name: "mtime", req: abi.GlobRequest{Pattern: "sub/**/*.go", SortBy: "mtime"}, want: "sub/deep/d_test.go sub/c_test.go sub/b.go"},
		{name: "limit", req: abi.GlobRequest{Pattern: "**/*.go", Limit: 2}, want: "sub/b.go sub/c_test.go", total: 3, truncated: true},
		{name: "limit mtime", req: abi.GlobRequest{Pattern: "**/*.go", SortBy: "mtime", Limit: 1}, want: "sub/deep/d_test.go", total: 3, truncated: true},
		{name: "missing base in pattern", req: abi.GlobRequest{Pattern: "nope/**"}, want: ""},
		{name: "trailing slash", req: abi.GlobRequest{Pattern: "sub/", IncludeDirs: true}, want: "sub:dir"},
		{name: "absolute literal", req: abi.GlobRequest{Pattern: f.ws + "/a.txt"}, want: "a.txt"},
		{name: "absolute pattern, base the root", req: abi.GlobRequest{Pattern: f.ws + "/sub/**/*_test.go", Path: "."}, want: "sub/c_test.go sub/deep/d_test.go"},
		{name: "dot slash", req: abi.GlobRequest{Pattern: "./sub/*.go"}, want: "sub/b.go sub/c_test.go"},
		{name: "dot slash under a base", req: abi.GlobRequest{Pattern: ".//deep/*.go", Path: "sub"}, want: "sub/deep/d_test.go"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var res abi.GlobResult
			f.call(t, abi.FnFSGlob, c.req, &res)
			noErr(t, "glob", res.Status)
			if c.total == 0 {
				c.total = len(res.Entries)
			}
			if got := paths(res.Entries); got != c.want || res.Total != c.total || res.Truncated != c.truncated {
				t.Errorf("glob %+v:\n got  %s (total %d, truncated %v)\n want %s (total %d, truncated %v)", c.req, got, res.Total, res.Truncated, c.want, c.total, c.truncated)
			}
			// Packed, the same matches cross in the body.
			req := c.req
			req.Packed = true
			var packed abi.GlobResult
			ents, _, err := abi.DecodeEntries(f.call(t, abi.FnFSGlob, req, &packed))
			if err != nil || len(packed.Entries) != 0 {
				t.Fatalf("packed glob: %v, %d entries in the header", err, len(packed.Entries))
			}
			packed.Entries = ents
			if !reflect.DeepEqual(packed, res) {
				t.Errorf("packed glob %+v:\n got  %+v\n want %+v", c.req, packed, res)
			}
		})
	}
}

func TestGlobLimitCaps(t *testing.T) {
	f := newFixture(t, Options{MaxGlobEntries: 2})
	var res abi.GlobResult
	f.call(t, abi.FnFSGlob, abi.GlobRequest{Pattern: "**/*.go", Limit: 50}, &res)
	noErr(t, "glob", res.Status)
	if got := paths(res.Entries); got != "sub/b.go sub/c_test.go" || res.Total != 3 || !res.Truncated {
		t.Fatalf("got %s (total %d, truncated %v)", got, res.Total, res.Truncated)
	}
}

func TestGlobErrors(t *testing.T) {
	f := newFixture(t, Options{})
	for _, c := range []struct {
		req  any
		code abi.Code
	}{
		{abi.GlobRequest{Pattern: "[a"}, abi.InvalidArgument},
		{abi.GlobRequest{Pattern: strings.Repeat("{,}", 40) + "x"}, abi.InvalidArgument}, // a trillion forms
		{abi.GlobRequest{Pattern: "*", SortBy: "size"}, abi.InvalidArgument},
		{abi.GlobRequest{Pattern: "*", Limit: -1}, abi.InvalidArgument},
		{abi.GlobRequest{Pattern: "*", Path: "a.txt"}, abi.InvalidArgument},
		{abi.GlobRequest{Pattern: "/etc/*"}, abi.PathDenied},
		{abi.GlobRequest{Pattern: "/"}, abi.PathDenied},
		{abi.GlobRequest{Pattern: "../outside/*"}, abi.PathDenied},
		{abi.GlobRequest{Pattern: "*/../*"}, abi.InvalidArgument},
		{abi.GlobRequest{Pattern: "/x/*", Path: "sub"}, abi.InvalidArgument},
		{abi.GlobRequest{Pattern: "/etc/*", Path: "."}, abi.PathDenied},
		{abi.GlobRequest{Pattern: "../outside/*", Path: "."}, abi.PathDenied},
		{abi.GlobRequest{Pattern: "*", Path: ".ssh"}, abi.SecretDenied},
		{abi.GlobRequest{Pattern: "*", Path: "nope"}, abi.NotFound},
		{`{"pattern":"*","limit":"10"}`, abi.InvalidArgument},
		{`{"pattern":"*","maxDepth":3}`, abi.InvalidArgument},
	} {
		var res abi.GlobResult
		f.call(t, abi.FnFSGlob, c.req, &res)
		f.wantErr(t, "glob "+toString(c.req), res.Status, c.code)
	}
}

// A refused pattern is quoted cut, however long it was sent: the message
// is the model's to read, and a megabyte of pattern would fill its answer.
func TestGlobErrorsQuoteThePatternCut(t *testing.T) {
	f := newFixture(t, Options{})
	long := strings.Repeat("x", 1<<20)
	for _, req := range []abi.GlobRequest{
		{Pattern: "[" + long},
		{Pattern: "*/../" + long},
		{Pattern: "/x/" + long, Path: "sub"},
		{Pattern: "*", SortBy: long},
	} {
		var res abi.GlobResult
		f.call(t, abi.FnFSGlob, req, &res)
		f.wantErr(t, "glob of a long pattern", res.Status, abi.InvalidArgument)
		if n := len(res.Status.Error.Message); n > 1000 {
			t.Errorf("the message quotes %d bytes: %.120s…", n, res.Status.Error.Message)
		}
	}
}

func TestGlobCanceled(t *testing.T) {
	f := newFixture(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, _ := f.fns[abi.FnFSGlob](ctx, []byte(`{"pattern":"**"}`), nil)
	var res abi.GlobResult
	must(t, json.Unmarshal(out, &res))
	f.wantErr(t, "glob", res.Status, abi.Timeout)
}

// A glob counts the matches the policy withheld, and the secrets among
// them, so a tool can say why it found nothing it may touch.
func TestGlobCountsWithheld(t *testing.T) {
	f := newFixture(t, Options{})
	for _, c := range []struct {
		pattern         string
		want            string
		hidden, secrets int
	}{
		{pattern: ".env", hidden: 1, secrets: 1},
		{pattern: "**/*.pem", hidden: 1, secrets: 1},
		{pattern: "denied/*"},                                                     // the denied folder is not walked: it matches no name here
		{pattern: "denied/**", hidden: 1},                                         // the folder itself matches
		{pattern: "link-*", want: "link-a:symlink->a.txt", hidden: 2, secrets: 1}, // out of the roots, and to .env
		{pattern: "*.txt", want: "a.txt crlf.txt empty.txt lines.txt nonl.txt"},
	} {
		var res abi.GlobResult
		f.call(t, abi.FnFSGlob, abi.GlobRequest{Pattern: c.pattern}, &res)
		noErr(t, "glob", res.Status)
		if got := paths(res.Entries); got != c.want || res.Hidden != c.hidden || res.HiddenSecrets != c.secrets {
			t.Errorf("glob %q: %s, hidden %d, secrets %d; want %s, %d, %d", c.pattern, got, res.Hidden, res.HiddenSecrets, c.want, c.hidden, c.secrets)
		}
	}
}
