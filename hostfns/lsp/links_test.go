//go:build unix

package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/policy"
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
