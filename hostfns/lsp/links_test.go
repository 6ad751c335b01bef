//go:build unix

package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// linkToSecret finds a link to a secret wherever it leads — a secret
// inside the root or outside it, there or not yet, a secret folder, a
// link reached through another link — and passes a workspace whose links
// lead to ordinary files, inside or outside, or are named as secrets
// themselves (.env to .env.local, a conda env's cert.pem to cacert.pem).
func TestLinkToSecret(t *testing.T) {
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(outside, ".aws"), 0o700)
	os.WriteFile(filepath.Join(outside, ".aws", "credentials"), []byte("k = v\n"), 0o600)
	os.WriteFile(filepath.Join(outside, "python3"), []byte(""), 0o755)
	os.MkdirAll(filepath.Join(outside, "dir"), 0o755)
	ok := map[string]string{
		"src/a.py":         "",
		"src/b.py":         "src/a.py",
		".venv/bin/python": filepath.Join(outside, "python3"),
		".venv/lib64":      ".venv/lib",
		"shared":           filepath.Join(outside, "dir"),
		"gone.py":          "nowhere.py",
		// Named as secrets themselves: no server reads them as source.
		".env":         ".env.local",
		"ssl/cert.pem": "ssl/cacert.pem",
		"ca.pem":       filepath.Join(outside, "id_rsa.pem"),
	}
	cases := map[string]map[string]string{
		"env":                   {"deep/down/env.py": ".env"},
		"env not yet":           {"env.py": "future/.env"},
		"env by chain":          {"x.py": "y", "y": ".env"},
		"outside":               {"creds.py": filepath.Join(outside, ".aws", "credentials")},
		"outside later":         {"creds.py": filepath.Join(outside, "home", ".aws", "credentials")},
		"through a folder link": {"creds.py": "raw:shared/../.aws/credentials"}, // the kernel follows shared before ..
		"secret folder":         {"keys": filepath.Join(outside, ".ssh")},
		"key":                   {"k.py": "id_rsa"},
	}
	run := func(t *testing.T, links map[string]string) string {
		root := t.TempDir()
		for name, target := range ok {
			link(t, root, name, target)
		}
		for name, target := range links {
			link(t, root, name, target)
		}
		pol, err := policy.New(policy.Config{Roots: []string{root}})
		if err != nil {
			t.Fatal(err)
		}
		defer pol.Close()
		m := New(pol, Options{})
		real, _ := filepath.EvalSymlinks(root)
		got, err := m.linkToSecret(context.Background(), real)
		if err != nil {
			t.Fatal(err)
		}
		if got != "" {
			return m.displayOf(got)
		}
		return ""
	}
	t.Run("ordinary links", func(t *testing.T) {
		if got := run(t, nil); got != "" {
			t.Fatalf("found %s", got)
		}
	})
	for name, links := range cases {
		t.Run(name, func(t *testing.T) {
			if got := run(t, links); got == "" {
				t.Fatalf("none of %v found", links)
			}
		})
	}
}

// link makes root/name a link to target: a root-relative path (made
// relative to the link's folder), an absolute one, or "raw:" and the
// link's text itself; a target of "" makes a plain file.
func link(t *testing.T, root, name, target string) {
	t.Helper()
	p := filepath.Join(root, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if target == "" {
		os.WriteFile(p, nil, 0o644)
		return
	}
	if raw, ok := strings.CutPrefix(target, "raw:"); ok {
		target = raw // as written, relative to the link's folder
	} else if !filepath.IsAbs(target) {
		rel, err := filepath.Rel(filepath.Dir(p), filepath.Join(root, target))
		if err != nil {
			t.Fatal(err)
		}
		target = rel
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// A root of many links, each followed to its end, is checked within the
// time initialize gets, not for as long as the walk takes: the start runs
// on a context that never ends (its callers share it), so before the walk
// had its own deadline a repository of 250,000 link chains held a server's
// start, and every call waiting on it, for over fifteen minutes. Here
// 1,560 links in chains of 39, 20 folders deep, take some seconds (4 ms a
// link measured), the budget 300 ms.
func TestLinkWalkBoundedInTime(t *testing.T) {
	m, root := fakeManager(t, "ok", map[string]string{"a.go": "package a\n"}, Options{InitTimeout: 300 * time.Millisecond})
	deep := root
	for i := range 20 {
		deep = filepath.Join(deep, fmt.Sprintf("d%02d", i))
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(deep, "f"), nil, 0o644)
	for c := range 40 {
		prev := "f"
		for i := range 39 {
			name := fmt.Sprintf("c%d_%d", c, i)
			if err := os.Symlink(prev, filepath.Join(deep, name)); err != nil {
				t.Fatal(err)
			}
			prev = name
		}
	}
	_, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDocumentSymbols, Path: "a.go"})
	if e == nil || e.Code != abi.TooLarge || !strings.Contains(e.Message, "within 300ms") {
		t.Fatalf("want TOO_LARGE for a root too slow to check, got %v", e)
	}
	if len(m.PIDs()) != 0 {
		t.Fatal("a server started over a root that was not checked")
	}
}

// The walk's resolver ends where filepath.EvalSymlinks ends, or fails
// where it fails, for links through links, ".." after a folder link (the
// kernel follows the link first), absolute targets, dangling links and a
// loop, asked in turn by one resolver so that what it kept from one path
// is used for the next.
func TestResolverMatchesEvalSymlinks(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	outside, _ := filepath.EvalSymlinks(t.TempDir())
	os.MkdirAll(filepath.Join(outside, "dir", "sub"), 0o755)
	os.WriteFile(filepath.Join(outside, "dir", "sub", "f"), nil, 0o644)
	os.WriteFile(filepath.Join(outside, "g"), nil, 0o644)
	links := map[string]string{
		"a/b/c.py":        "",
		"a/x.py":          "a/b/c.py",
		"a/y.py":          "a/x.py",
		"shared":          filepath.Join(outside, "dir"),
		"up.py":           "raw:shared/../g",
		"deep.py":         "raw:shared/sub/../sub/f",
		"via/l":           "shared",
		"via2.py":         "raw:via/l/sub/f",
		"gone.py":         "raw:nowhere/f",
		"loop1":           "raw:loop2",
		"loop2":           "raw:loop1",
		"file/under":      "",
		"notdir.py":       "raw:a/x.py/more",
		"abs.py":          filepath.Join(outside, "dir", "sub", "f"),
		"a/b/rel.py":      "raw:../../shared/sub/f",
		"a/b/dotdot/link": "raw:../../..",
	}
	for name, target := range links {
		link(t, root, name, target)
	}
	r := newResolver()
	r.known(root)
	for range 2 {
		for name := range links {
			for _, p := range []string{filepath.Join(root, name), filepath.Join(root, name, "sub"), filepath.Dir(filepath.Join(root, name))} {
				want, werr := filepath.EvalSymlinks(p)
				got, ok := r.eval(p)
				if ok != (werr == nil) || got != want {
					t.Errorf("%s: resolver %q %v, EvalSymlinks %q %v", p, got, ok, want, werr)
				}
			}
		}
	}
}
