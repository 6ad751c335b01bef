package fs

import (
	"context"
	"encoding/json"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

const pemKey = "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n"

// fixture is a small workspace with every case the handlers must handle.
type fixture struct {
	tmp, ws, outside string
	p                *policy.Policy
	fns              map[string]func(context.Context, []byte, []byte) ([]byte, []byte)
}

func newFixture(t testing.TB, opts Options) *fixture {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{tmp: tmp, ws: filepath.Join(tmp, "ws"), outside: filepath.Join(tmp, "outside")}
	files := map[string]string{
		"outside/x.txt":          "OUTSIDE",
		"ws/a.txt":               "hello\nworld\n",
		"ws/lines.txt":           "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\nline 10\n",
		"ws/nonl.txt":            "a\nb",
		"ws/crlf.txt":            "a\r\nb\r\n",
		"ws/empty.txt":           "",
		"ws/bin.dat":             "BIN\x00\x01\x02",
		"ws/sub/b.go":            "package sub\n",
		"ws/sub/c_test.go":       "package sub\n",
		"ws/sub/deep/d_test.go":  "package deep\n",
		"ws/sub/.gitignore":      "gen/\n",
		"ws/sub/gen/z.go":        "package gen\n",
		"ws/.gitignore":          "build/\n*.log\n!keep.log\n",
		"ws/build/out.o":         "obj",
		"ws/x.log":               "log",
		"ws/keep.log":            "keep",
		"ws/excluded.txt":        "excluded",
		"ws/.git/HEAD":           "ref: refs/heads/main\n",
		"ws/.git/info/exclude":   "excluded.txt\n",
		"ws/.env":                "TOKEN=1",
		"ws/.ssh/config":         "Host x",
		"ws/keys/k.pem":          pemKey,
		"ws/keys/README":         "keys go here",
		"ws/denied/x.txt":        "denied",
		"ws/data/key.bin":        pemKey,
		"ws/node_modules/m/i.js": "module.exports = 1\n",
	}
	for name, body := range files {
		full := filepath.Join(tmp, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(full), 0o755))
		must(t, os.WriteFile(full, []byte(body), 0o644))
	}
	for name, target := range map[string]string{
		"ws/link-a":      "a.txt",
		"ws/link-sub":    "sub",
		"ws/link-out":    "../outside/x.txt",
		"ws/link-secret": ".env",
		"ws/dangling":    "nope.txt",
	} {
		must(t, os.Symlink(target, filepath.Join(tmp, filepath.FromSlash(name))))
	}
	must(t, os.Link(filepath.Join(f.ws, "data/key.bin"), filepath.Join(f.ws, "data/key-copy.txt")))
	// Modes appear in results: make them independent of the umask.
	must(t, filepath.WalkDir(tmp, func(p string, d iofs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir():
			return os.Chmod(p, 0o755)
		case d.Type().IsRegular():
			return os.Chmod(p, 0o644)
		}
		return nil
	}))
	// Fixed times, oldest first in this order, for sortBy mtime.
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, name := range []string{"sub/b.go", "sub/c_test.go", "sub/deep/d_test.go", "a.txt"} {
		ts := base.Add(time.Duration(i) * time.Hour)
		must(t, os.Chtimes(filepath.Join(f.ws, name), ts, ts))
	}
	p, err := policy.New(policy.Config{Roots: []string{f.ws}, Deny: []string{"denied/**"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	f.p = p
	f.fns = map[string]func(context.Context, []byte, []byte) ([]byte, []byte){}
	for _, fn := range New(p, opts) {
		f.fns[fn.Name] = fn.Handle
	}
	return f
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// call runs the host function name with req (a struct or a raw string) and
// decodes the answer into res; it returns the body.
func (f *fixture) call(t testing.TB, name string, req any, res any) []byte {
	t.Helper()
	var hdr []byte
	switch r := req.(type) {
	case string:
		hdr = []byte(r)
	default:
		var err error
		if hdr, err = json.Marshal(r); err != nil {
			t.Fatal(err)
		}
	}
	out, body := f.fns[name](context.Background(), hdr, nil)
	if err := json.Unmarshal(out, res); err != nil {
		t.Fatalf("%s: bad response header %s: %v", name, out, err)
	}
	return body
}

// wantErr checks that st holds an error with the code, and that its
// message names no host path outside the root.
func (f *fixture) wantErr(t testing.TB, what string, st abi.Status, code abi.Code) {
	t.Helper()
	if st.Error == nil || st.Error.Code != code {
		t.Fatalf("%s: error %v, want %s", what, st.Error, code)
	}
	if strings.Contains(st.Error.Message, f.outside) {
		t.Fatalf("%s: message leaks a host path: %s", what, st.Error.Message)
	}
}

func noErr(t testing.TB, what string, st abi.Status) {
	t.Helper()
	if st.Error != nil {
		t.Fatalf("%s: %v", what, st.Error)
	}
}

// setRacyWindow sets racyWindow for the test and puts it back after it.
func setRacyWindow(tb testing.TB, d time.Duration) {
	old := racyWindow
	racyWindow = d
	tb.Cleanup(func() { racyWindow = old })
}

// resolvedRoot opens a policy whose one root is dir, closed after the
// test, and resolves that root. A dir that cannot be a root (a benchmark's
// Go source tree on a machine without one) skips the test.
func resolvedRoot(tb testing.TB, dir string) (*policy.Policy, *policy.Resolved) {
	p, err := policy.New(policy.Config{Roots: []string{dir}})
	if err != nil {
		tb.Skip("no root at", dir, err)
	}
	tb.Cleanup(func() { p.Close() })
	r, e := p.Resolve(".")
	if e != nil {
		tb.Fatal(e)
	}
	return p, r
}
