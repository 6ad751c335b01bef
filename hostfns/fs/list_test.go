package fs

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// names renders entries as "name:type[->target]".
func names(ents []abi.Entry) string {
	var out []string
	for _, e := range ents {
		s := e.Name + ":" + e.Type
		if e.Target != "" {
			s += "->" + e.Target
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestList(t *testing.T) {
	f := newFixture(t, Options{})
	for _, c := range []struct {
		req             abi.ListRequest
		want            string
		hidden, ignored int
	}{
		{
			req: abi.ListRequest{Path: "."},
			// .env, .ssh, denied, link-out, link-secret are withheld;
			// build, x.log, excluded.txt are ignored.
			want:   ".git:dir .gitignore:file a.txt:file bin.dat:file crlf.txt:file dangling:symlink data:dir empty.txt:file keep.log:file keys:dir lines.txt:file link-a:symlink->a.txt link-sub:symlink->sub node_modules:dir nonl.txt:file sub:dir",
			hidden: 5, ignored: 3,
		},
		{
			req:    abi.ListRequest{Path: "", IncludeIgnored: true},
			want:   ".git:dir .gitignore:file a.txt:file bin.dat:file build:dir crlf.txt:file dangling:symlink data:dir empty.txt:file excluded.txt:file keep.log:file keys:dir lines.txt:file link-a:symlink->a.txt link-sub:symlink->sub node_modules:dir nonl.txt:file sub:dir x.log:file",
			hidden: 5,
		},
		{req: abi.ListRequest{Path: "sub"}, want: ".gitignore:file b.go:file c_test.go:file deep:dir", ignored: 1},
		{req: abi.ListRequest{Path: "link-sub"}, want: ".gitignore:file b.go:file c_test.go:file deep:dir", ignored: 1},
		{req: abi.ListRequest{Path: "keys"}, want: "README:file", hidden: 1},
		{req: abi.ListRequest{Path: "data"}, want: "key-copy.txt:file key.bin:file"},
		// A folder named explicitly is listed even when it is ignored.
		{req: abi.ListRequest{Path: "build"}, want: "out.o:file"},
		{req: abi.ListRequest{Path: "sub/gen"}, want: "z.go:file"},
		{req: abi.ListRequest{Path: f.ws + "/sub/deep"}, want: "d_test.go:file"},
	} {
		var res abi.ListResult
		f.call(t, abi.FnFSList, c.req, &res)
		noErr(t, "list "+c.req.Path, res.Status)
		if got := names(res.Entries); got != c.want || res.Hidden != c.hidden || res.Ignored != c.ignored {
			t.Errorf("list %+v:\n got  %s (hidden %d, ignored %d)\n want %s (hidden %d, ignored %d)", c.req, got, res.Hidden, res.Ignored, c.want, c.hidden, c.ignored)
		}
		// Packed, the same listing crosses in the body.
		req := c.req
		req.Packed = true
		var packed abi.ListResult
		body := f.call(t, abi.FnFSList, req, &packed)
		ents, plain, err := abi.DecodeEntries(body)
		if err != nil || len(packed.Entries) != 0 || !plain {
			t.Fatalf("packed list %+v: %v, %d entries in the header, plain %v", c.req, err, len(packed.Entries), plain)
		}
		packed.Entries = ents
		if !reflect.DeepEqual(packed, res) {
			t.Errorf("packed list %+v:\n got  %+v\n want %+v", c.req, packed, res)
		}
	}
}

// A packed listing with a name JSON must escape is not called plain.
func TestListPackedNotPlain(t *testing.T) {
	f := newFixture(t, Options{})
	must(t, os.WriteFile(filepath.Join(f.ws, "sub", `q"<&>.txt`), nil, 0o644))
	var res abi.ListResult
	ents, plain, err := abi.DecodeEntries(f.call(t, abi.FnFSList, abi.ListRequest{Path: "sub", Packed: true}, &res))
	if err != nil || plain || !strings.Contains(names(ents), `q"<&>.txt:file`) {
		t.Fatalf("got %s, plain %v, %v", names(ents), plain, err)
	}
}

// A listing is a window by offset and limit, at most MaxListEntries long;
// total counts every entry shown to a listing, windowed or not.
func TestListWindows(t *testing.T) {
	f := newFixture(t, Options{MaxListEntries: 4})
	all := strings.Fields(".git .gitignore a.txt bin.dat crlf.txt dangling data empty.txt keep.log keys lines.txt link-a link-sub node_modules nonl.txt sub")
	for _, c := range []struct {
		req       abi.ListRequest
		from, to  int
		truncated bool
	}{
		{abi.ListRequest{Path: "."}, 0, 4, true},
		{abi.ListRequest{Path: ".", Limit: 100}, 0, 4, true},
		{abi.ListRequest{Path: ".", Offset: 4, Limit: 3}, 4, 7, true},
		{abi.ListRequest{Path: ".", Offset: 14}, 14, 16, false},
		{abi.ListRequest{Path: ".", Offset: 100}, 16, 16, false},
	} {
		var res abi.ListResult
		f.call(t, abi.FnFSList, c.req, &res)
		noErr(t, "list", res.Status)
		var got []string
		for _, e := range res.Entries {
			got = append(got, e.Name)
		}
		want := strings.Join(all[c.from:c.to], " ")
		if strings.Join(got, " ") != want || res.Total != len(all) || res.Truncated != c.truncated || res.Hidden != 5 || res.Ignored != 3 {
			t.Errorf("list %+v: got %v (total %d, truncated %v, hidden %d, ignored %d), want %s (total %d, truncated %v)",
				c.req, got, res.Total, res.Truncated, res.Hidden, res.Ignored, want, len(all), c.truncated)
		}
	}
}

func TestListEntryFields(t *testing.T) {
	f := newFixture(t, Options{})
	var res abi.ListResult
	f.call(t, abi.FnFSList, abi.ListRequest{Path: "."}, &res)
	for _, e := range res.Entries {
		switch e.Name {
		case "a.txt":
			if e.Path != "a.txt" || e.Size != 12 || e.ModTime != "2024-01-01T03:00:00Z" {
				t.Errorf("a.txt: %+v", e)
			}
		case "link-a": // size and time of the target
			if e.Size != 12 || e.ModTime != "2024-01-01T03:00:00Z" || e.Target != "a.txt" {
				t.Errorf("link-a: %+v", e)
			}
		}
	}
}

func TestListErrors(t *testing.T) {
	f := newFixture(t, Options{})
	for _, c := range []struct {
		req  any
		code abi.Code
	}{
		{abi.ListRequest{Path: "a.txt"}, abi.InvalidArgument},
		{abi.ListRequest{Path: "nope"}, abi.NotFound},
		{abi.ListRequest{Path: ".ssh"}, abi.SecretDenied},
		{abi.ListRequest{Path: "denied"}, abi.PathDenied},
		{abi.ListRequest{Path: ".."}, abi.PathDenied},
		{abi.ListRequest{Path: "/"}, abi.PathDenied},
		{abi.ListRequest{Path: "a\x00"}, abi.InvalidArgument},
		{`{"path":".","recursive":true}`, abi.InvalidArgument},
		{`{"includeIgnored":"yes"}`, abi.InvalidArgument},
		{abi.ListRequest{Path: ".", Offset: -1}, abi.InvalidArgument},
		{abi.ListRequest{Path: ".", Limit: -1}, abi.InvalidArgument},
		{`}{`, abi.InvalidArgument},
	} {
		var res abi.ListResult
		f.call(t, abi.FnFSList, c.req, &res)
		f.wantErr(t, "list "+toString(c.req), res.Status, c.code)
	}
}

// A window of a large folder: every entry has its own size and type, in
// name order.
func TestListLargeFolder(t *testing.T) {
	f := newFixture(t, Options{})
	big := filepath.Join(f.ws, "big")
	for i := range 150 {
		name := filepath.Join(big, fmt.Sprintf("f%03d", i))
		if i%10 == 0 {
			if err := os.MkdirAll(name, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(big, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(strings.Repeat("x", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var res abi.ListResult
	f.call(t, abi.FnFSList, abi.ListRequest{Path: "big", Offset: 5, Limit: 120}, &res)
	noErr(t, "list", res.Status)
	if len(res.Entries) != 120 || res.Total != 150 || !res.Truncated {
		t.Fatalf("%d entries of %d (truncated %v)", len(res.Entries), res.Total, res.Truncated)
	}
	for j, e := range res.Entries {
		i := j + 5
		wantType, wantSize := abi.TypeFile, int64(i)
		if i%10 == 0 {
			wantType, wantSize = abi.TypeDir, 0
		}
		if e.Name != fmt.Sprintf("f%03d", i) || e.Type != wantType || e.Size != wantSize {
			t.Errorf("entry %d: %+v; want f%03d, %s, %d bytes", j, e, i, wantType, wantSize)
		}
	}
}
