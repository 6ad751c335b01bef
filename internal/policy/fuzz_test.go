package policy

import (
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// FuzzResolve checks that any string either resolves to a visible,
// symlink-free path inside a root, or yields a tool error with one of the
// policy's codes and no outside host path in its message; and that
// ResolveRegular, when it does not decline, lands where Resolve does.
func FuzzResolve(f *testing.F) {
	fx := newFixture(f)
	for _, s := range []string{
		"a.txt", ".", "..", "../outside/secret.txt", "link-rel", "link-out-dir/dir/x.txt",
		"loop1", "notes.txt", "sshlink/config", "sub/deep/up", "to-ws2", "/etc/passwd",
		fx.ws + "/sub/../a.txt", fx.wslink + "/link-dir/deep", "a.txt\x00", `..\..\x`, "///",
		"link-dir/../../ws2/file.txt", "self/x/y", ".ENV", "sub/deep/abs-root-dot/sub/deep/abs-root-dot/.env",
		fx.ws + "/a.txt", fx.wslink + "//sub/./deep/c.txt", fx.ws + "/link-out-dir/dir/x.txt", fx.ws2 + "/file.txt",
	} {
		f.Add(s)
	}
	allowed := map[abi.Code]bool{
		abi.PathDenied: true, abi.SecretDenied: true, abi.NotFound: true, abi.InvalidArgument: true,
	}
	f.Fuzz(func(t *testing.T, req string) {
		start := time.Now()
		r, e := fx.p.Resolve(req)
		if d := time.Since(start); d > 200*time.Millisecond {
			t.Fatalf("Resolve(%q) took %v", req, d)
		}
		if (r == nil) == (e == nil) {
			t.Fatalf("Resolve(%q) = %v, %v", req, r, e)
		}
		// ResolveRegular declines, or lands where Resolve does.
		if rr, file, _, ok := fx.p.ResolveRegular(req); ok {
			file.Close()
			if e != nil || rr.Root != r.Root || rr.Rel != r.Rel || !SameFile(rr.Info, r.Info) {
				t.Fatalf("ResolveRegular(%q) = %+v where Resolve = %+v, %v", req, rr, r, e)
			}
		}
		if e != nil {
			if !allowed[e.Code] {
				t.Fatalf("Resolve(%q): unexpected code %v", req, e)
			}
			msg := strings.ReplaceAll(e.Message, req, "")
			if strings.Contains(msg, fx.outside) || strings.Contains(msg, fx.state) {
				t.Fatalf("Resolve(%q): message leaks a host path: %s", req, e.Message)
			}
			return
		}
		inRoot := false
		for _, root := range fx.p.Roots() {
			inRoot = inRoot || root == r.Root
		}
		if !inRoot || r.Info == nil {
			t.Fatalf("Resolve(%q) = %+v: not inside a root", req, r)
		}
		if r.Rel != "." && (path.Clean(r.Rel) != r.Rel || strings.HasPrefix(r.Rel, "/") || r.Rel == ".." || strings.HasPrefix(r.Rel, "../")) {
			t.Fatalf("Resolve(%q): unclean Rel %q", req, r.Rel)
		}
		full := filepath.Join(r.Root.Real, filepath.FromSlash(r.Rel))
		if real, err := filepath.EvalSymlinks(full); err != nil || real != full {
			t.Fatalf("Resolve(%q): Rel %q is not symlink-free (%q, %v)", req, r.Rel, real, err)
		}
		if e := fx.p.Check(r.Root, r.Rel); e != nil {
			t.Fatalf("Resolve(%q) = %q, which is hidden: %v", req, r.Rel, e)
		}
	})
}
