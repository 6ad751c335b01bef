package policy

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// fixture is a workspace with every kind of path the policy must handle:
//
//	tmp/outside/…       a folder outside every root
//	tmp/ws/…            the first root, given through tmp/wslink
//	tmp/ws2/file.txt    a second root
//	tmp/state/          juju's own state (private), outside the roots
type fixture struct {
	tmp, ws, wslink, ws2, outside, state string
	p                                    *Policy
}

const pemKey = "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n"

func newFixture(t testing.TB) *fixture {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{
		tmp:     tmp,
		ws:      filepath.Join(tmp, "ws"),
		wslink:  filepath.Join(tmp, "wslink"),
		ws2:     filepath.Join(tmp, "ws2"),
		outside: filepath.Join(tmp, "outside"),
		state:   filepath.Join(tmp, "state"),
	}
	files := map[string]string{
		"outside/secret.txt":       "OUTSIDE",
		"outside/dir/x.txt":        "OUTSIDE",
		"ws/a.txt":                 "a",
		"ws/sub/b.txt":             "b",
		"ws/sub/deep/c.txt":        "c",
		"ws/.env":                  "TOKEN=1",
		"ws/.ssh/config":           "Host x",
		"ws/keys/server.pem":       pemKey,
		"ws/keys/readme.md":        "keys",
		"ws/build/secret-data/x":   "x",
		"ws/build/out.txt":         "out",
		"ws/data/key.bin":          pemKey,
		"ws/data/plain.txt":        "plain",
		"ws/.git/config":           "[core]",
		"ws/.git/description":      "unnamed",
		"ws/.git/hooks/pre-commit": "#!/bin/sh",
		"ws/.juju/state.db":        "db",
		"ws2/file.txt":             "two",
		"ws2/.env":                 "TWO=1",
		"state/journal.db":         "db",
	}
	for name, body := range files {
		full := filepath.Join(tmp, filepath.FromSlash(name))
		mustDo(t, os.MkdirAll(filepath.Dir(full), 0o755))
		mustDo(t, os.WriteFile(full, []byte(body), 0o644))
	}
	links := map[string]string{
		"wslink":                   f.ws,
		"ws/link-rel":              "sub/b.txt",
		"ws/link-abs":              filepath.Join(f.ws, "sub/b.txt"),
		"ws/link-abs-rootlink":     filepath.Join(f.wslink, "sub/b.txt"),
		"ws/link-dir":              "sub",
		"ws/sub/deep/up":           "../../a.txt",
		"ws/link-out":              "../outside/secret.txt",
		"ws/link-out-abs":          filepath.Join(f.outside, "secret.txt"),
		"ws/link-out-dir":          f.outside,
		"ws/link-out-via-up":       "../ws/../outside/dir",
		"ws/dangling":              "missing.txt",
		"ws/dangling-out":          filepath.Join(f.outside, "missing.txt"),
		"ws/loop1":                 "loop2",
		"ws/loop2":                 "loop1",
		"ws/self":                  "self/x",
		"ws/notes.txt":             ".env",
		"ws/.env.local":            "a.txt",
		"ws/sshlink":               ".ssh",
		"ws/to-ws2":                filepath.Join(f.ws2, "file.txt"),
		"ws/to-ws2-rel":            "../ws2/file.txt",
		"ws/to-ws2-secret":         "../ws2/.env",
		"ws/to-state":              filepath.Join(f.state, "journal.db"),
		"ws/hooklink":              ".git/hooks/pre-commit",
		"ws/link-to-link":          "link-rel",
		"ws/sub/deep/abs-root-dot": f.ws,
	}
	for name, target := range links {
		mustDo(t, os.Symlink(target, filepath.Join(tmp, filepath.FromSlash(name))))
	}
	mustDo(t, os.Link(filepath.Join(f.ws, "data/key.bin"), filepath.Join(f.ws, "data/copy.txt")))
	mustDo(t, os.Link(filepath.Join(f.ws, "data/plain.txt"), filepath.Join(f.ws, "data/plain-copy.txt")))

	p, err := New(Config{
		Roots:   []string{f.wslink, f.ws2},
		Deny:    []string{"build/secret-data/**"},
		Secrets: []string{"*.vault"},
		Private: []string{f.state, filepath.Join(f.ws, ".juju")},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	f.p = p
	return f
}

func mustDo(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestResolve(t *testing.T) { bothModes(t, testResolve) }

func testResolve(t *testing.T) {
	f := newFixture(t)
	ws2 := f.p.Roots()[1]
	cases := []struct {
		name, path string
		code       abi.Code // "" when the path resolves
		root       int      // index of the expected root
		rel, link  string
	}{
		{name: "plain", path: "a.txt", rel: "a.txt"},
		{name: "root", path: ".", rel: "."},
		{name: "root slash", path: "./", rel: "."},
		{name: "nested", path: "sub/deep/c.txt", rel: "sub/deep/c.txt"},
		{name: "dotdot inside", path: "sub/../a.txt", rel: "a.txt"},
		{name: "dotdot through link", path: "link-dir/deep/../b.txt", rel: "sub/b.txt"},
		{name: "redundant slashes", path: "sub//deep/./c.txt", rel: "sub/deep/c.txt"},
		{name: "escape", path: "../outside/secret.txt", code: abi.PathDenied},
		{name: "escape deep", path: "sub/../../outside/secret.txt", code: abi.PathDenied},
		{name: "escape far", path: "../../../../../../etc/passwd", code: abi.PathDenied},
		{name: "escape and back", path: "../ws/a.txt", rel: "a.txt"},
		{name: "abs as given", path: filepath.Join(f.wslink, "sub/b.txt"), rel: "sub/b.txt"},
		{name: "abs real", path: filepath.Join(f.ws, "sub/b.txt"), rel: "sub/b.txt"},
		{name: "abs root", path: f.wslink, rel: "."},
		{name: "abs outside", path: filepath.Join(f.outside, "secret.txt"), code: abi.PathDenied},
		{name: "abs etc", path: "/etc/passwd", code: abi.PathDenied},
		{name: "abs slash", path: "/", code: abi.PathDenied},
		{name: "abs dotdot out", path: filepath.Join(f.wslink, "../outside/secret.txt"), code: abi.PathDenied},
		{name: "abs detour", path: filepath.Join(f.outside, "../ws/a.txt"), rel: "a.txt"},
		{name: "link relative", path: "link-rel", rel: "sub/b.txt", link: "sub/b.txt"},
		{name: "link absolute", path: "link-abs", rel: "sub/b.txt", link: "sub/b.txt"},
		{name: "link absolute through root link", path: "link-abs-rootlink", rel: "sub/b.txt", link: "sub/b.txt"},
		{name: "link to link", path: "link-to-link", rel: "sub/b.txt", link: "sub/b.txt"},
		{name: "link up", path: "sub/deep/up", rel: "a.txt", link: "a.txt"},
		{name: "link to root", path: "sub/deep/abs-root-dot/a.txt", rel: "a.txt"},
		{name: "dir link inside path", path: "link-dir/deep/c.txt", rel: "sub/deep/c.txt"},
		{name: "link out file", path: "link-out", code: abi.PathDenied},
		{name: "link out abs", path: "link-out-abs", code: abi.PathDenied},
		{name: "link out dir", path: "link-out-dir", code: abi.PathDenied},
		{name: "link out dir child", path: "link-out-dir/dir/x.txt", code: abi.PathDenied},
		{name: "link out via up", path: "link-out-via-up/x.txt", code: abi.PathDenied},
		{name: "dangling", path: "dangling", code: abi.NotFound},
		{name: "dangling out", path: "dangling-out", code: abi.PathDenied},
		{name: "loop", path: "loop1", code: abi.InvalidArgument},
		{name: "self loop", path: "self", code: abi.InvalidArgument},
		{name: "missing", path: "nope.txt", code: abi.NotFound},
		{name: "missing dir", path: "nope/x.txt", code: abi.NotFound},
		{name: "through a file", path: "a.txt/x", code: abi.NotFound},
		{name: "file with slash", path: "a.txt/", code: abi.NotFound},
		{name: "file dotdot", path: "a.txt/../sub", code: abi.NotFound},
		{name: "backslash is a name", path: `..\outside\secret.txt`, code: abi.NotFound},
		{name: "second root abs", path: filepath.Join(f.ws2, "file.txt"), root: 1, rel: "file.txt"},
		{name: "second root by link", path: "to-ws2", root: 1, rel: "file.txt", link: ws2.Path + "/file.txt"},
		{name: "second root by relative link", path: "to-ws2-rel", root: 1, rel: "file.txt", link: ws2.Path + "/file.txt"},
		{name: "second root by dotdot", path: "../ws2/file.txt", root: 1, rel: "file.txt"},

		{name: "secret", path: ".env", code: abi.SecretDenied},
		{name: "secret folder", path: ".ssh", code: abi.SecretDenied},
		{name: "secret in folder", path: ".ssh/config", code: abi.SecretDenied},
		{name: "secret case", path: ".SSH/config", code: abi.SecretDenied},
		{name: "secret glob", path: "keys/server.pem", code: abi.SecretDenied},
		{name: "secret extra", path: "x.vault", code: abi.SecretDenied},
		{name: "secret by link target", path: "notes.txt", code: abi.SecretDenied},
		{name: "secret link name", path: ".env.local", code: abi.SecretDenied},
		{name: "secret through dir link", path: "sshlink/config", code: abi.SecretDenied},
		{name: "secret by dotdot", path: "sub/../.env", code: abi.SecretDenied},
		{name: "secret by missing dotdot", path: "missing/../.env", code: abi.SecretDenied},
		{name: "secret abs", path: filepath.Join(f.ws, ".env"), code: abi.SecretDenied},
		{name: "secret abs via link", path: filepath.Join(f.wslink, "sub/../.ssh/config"), code: abi.SecretDenied},
		{name: "secret second root", path: "to-ws2-secret", code: abi.SecretDenied},
		{name: "secret missing", path: "id_rsa", code: abi.SecretDenied},
		{name: "private inside root", path: ".juju/state.db", code: abi.SecretDenied},
		{name: "private by link", path: "to-state", code: abi.SecretDenied},
		{name: "private abs", path: filepath.Join(f.state, "journal.db"), code: abi.SecretDenied},
		{name: "deny", path: "build/secret-data/x", code: abi.PathDenied},
		{name: "deny folder", path: "build/secret-data", code: abi.PathDenied},
		{name: "deny sibling ok", path: "build/out.txt", rel: "build/out.txt"},
		{name: "hard link resolves", path: "data/copy.txt", rel: "data/copy.txt"},

		{name: "empty", path: "", code: abi.InvalidArgument},
		{name: "nul", path: "a.txt\x00.png", code: abi.InvalidArgument},
		{name: "bad utf8", path: "a\xff", code: abi.InvalidArgument},
		{name: "long name", path: strings.Repeat("x", 300), code: abi.InvalidArgument},
		{name: "long path", path: strings.Repeat("x/", 3000), code: abi.InvalidArgument},
		{name: "deep path", path: strings.Repeat("d/", 257) + "x", code: abi.InvalidArgument},
		{name: "deep but within", path: strings.Repeat("./", 300) + "a.txt", rel: "a.txt"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, e := f.p.Resolve(c.path)
			if c.code != "" {
				if e == nil {
					t.Fatalf("Resolve(%q) = %+v, want %s", c.path, r, c.code)
				}
				if e.Code != c.code {
					t.Fatalf("Resolve(%q) = %v, want %s", c.path, e, c.code)
				}
				if msg := strings.ReplaceAll(e.Message, c.path, ""); strings.Contains(msg, f.outside) || strings.Contains(msg, f.state) {
					t.Fatalf("message leaks a host path: %s", e.Message)
				}
				return
			}
			if e != nil {
				t.Fatalf("Resolve(%q): %v", c.path, e)
			}
			if r.Root != f.p.Roots()[c.root] || r.Rel != c.rel || r.Link != c.link {
				t.Fatalf("Resolve(%q) = root %s rel %q link %q, want root %d rel %q link %q", c.path, r.Root.Path, r.Rel, r.Link, c.root, c.rel, c.link)
			}
			if r.Info == nil {
				t.Fatalf("Resolve(%q): no Info", c.path)
			}
		})
	}
}

func TestDisplay(t *testing.T) {
	f := newFixture(t)
	roots := f.p.Roots()
	if roots[0].Path != f.wslink || roots[0].Real != f.ws {
		t.Fatalf("root spellings: %+v", roots[0])
	}
	for _, c := range []struct {
		root      *Root
		rel, want string
	}{
		{roots[0], ".", "."},
		{roots[0], "sub/b.txt", "sub/b.txt"},
		{roots[1], ".", f.ws2},
		{roots[1], "file.txt", filepath.Join(f.ws2, "file.txt")},
	} {
		if got := f.p.Display(c.root, c.rel); got != c.want {
			t.Errorf("Display(%s, %q) = %q, want %q", c.root.Path, c.rel, got, c.want)
		}
	}
}

func TestOpen(t *testing.T) { bothModes(t, testOpen) }

// openers are the two ways to open a resolved file to read it: each must
// read and refuse as the other does.
var openers = []struct {
	name string
	open func(*Policy, *Resolved) (io.ReadCloser, *abi.Error)
}{
	{"Open", func(p *Policy, r *Resolved) (io.ReadCloser, *abi.Error) {
		f, e := p.Open(r)
		if e != nil {
			return nil, e
		}
		return f, nil
	}},
	{"OpenRead", func(p *Policy, r *Resolved) (io.ReadCloser, *abi.Error) {
		f, fi, e := p.OpenRead(r)
		if e != nil {
			return nil, e
		}
		if !SameFile(fi, r.Info) {
			f.Close()
			return nil, abi.Errorf(abi.Internal, "OpenRead's stat is not the resolved file")
		}
		return f, nil
	}},
}

func testOpen(t *testing.T) {
	for _, o := range openers {
		t.Run(o.name, func(t *testing.T) { testOpenWith(t, o.open) })
	}
}

func testOpenWith(t *testing.T, open func(*Policy, *Resolved) (io.ReadCloser, *abi.Error)) {
	f := newFixture(t)
	for _, c := range []struct {
		path, want string
		code       abi.Code
	}{
		{path: "sub/deep/c.txt", want: "c"},
		{path: "a.txt", want: "a"},
		{path: "link-rel", want: "b"},
		{path: "to-ws2", want: "two"},
		{path: "data/plain-copy.txt", want: "plain"},
		{path: "data/copy.txt", code: abi.SecretDenied},
		{path: "data/key.bin", code: abi.SecretDenied},
	} {
		r, e := f.p.Resolve(c.path)
		if e != nil {
			t.Fatalf("Resolve(%q): %v", c.path, e)
		}
		file, e := open(f.p, r)
		if c.code != "" {
			if e == nil || e.Code != c.code {
				t.Errorf("Open(%q) = %v, want %s", c.path, e, c.code)
			}
			if file != nil {
				file.Close()
			}
			continue
		}
		if e != nil {
			t.Fatalf("Open(%q): %v", c.path, e)
		}
		b := make([]byte, 64)
		n, _ := file.Read(b)
		file.Close()
		if string(b[:n]) != c.want {
			t.Errorf("Open(%q) read %q, want %q", c.path, b[:n], c.want)
		}
	}
}

func TestOpenDetectsSwap(t *testing.T) { bothModes(t, testOpenDetectsSwap) }

func testOpenDetectsSwap(t *testing.T) {
	for _, o := range openers {
		t.Run(o.name, func(t *testing.T) { testOpenDetectsSwapWith(t, o.open) })
	}
}

func testOpenDetectsSwapWith(t *testing.T, open func(*Policy, *Resolved) (io.ReadCloser, *abi.Error)) {
	f := newFixture(t)
	r, e := f.p.Resolve("sub/deep/c.txt")
	if e != nil {
		t.Fatal(e)
	}
	// Replace sub by a folder holding the same names.
	mustDo(t, os.Rename(filepath.Join(f.ws, "sub"), filepath.Join(f.ws, "sub.old")))
	mustDo(t, os.MkdirAll(filepath.Join(f.ws, "sub/deep"), 0o755))
	mustDo(t, os.WriteFile(filepath.Join(f.ws, "sub/deep/c.txt"), []byte("other"), 0o644))
	if file, e := open(f.p, r); e == nil || e.Code != abi.FileChanged {
		if file != nil {
			file.Close()
		}
		t.Fatalf("Open after swap = %v, want FILE_CHANGED", e)
	}
	// A folder swapped for a link to outside is refused too.
	mustDo(t, os.RemoveAll(filepath.Join(f.ws, "sub")))
	mustDo(t, os.Symlink(f.outside, filepath.Join(f.ws, "sub")))
	if file, e := open(f.p, r); e == nil {
		file.Close()
		t.Fatal("Open through a swapped outside link succeeded")
	}
}

func TestOpenRefusesSpecialFiles(t *testing.T) { bothModes(t, testOpenRefusesSpecialFiles) }

func testOpenRefusesSpecialFiles(t *testing.T) {
	for _, o := range openers {
		t.Run(o.name, func(t *testing.T) { testOpenRefusesSpecialFilesWith(t, o.open) })
	}
}

func testOpenRefusesSpecialFilesWith(t *testing.T, open func(*Policy, *Resolved) (io.ReadCloser, *abi.Error)) {
	f := newFixture(t)
	fifo := filepath.Join(f.ws, "pipe")
	if err := mkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	r, e := f.p.Resolve("pipe")
	if e != nil {
		t.Fatal(e)
	}
	if file, e := open(f.p, r); e == nil || e.Code != abi.InvalidArgument {
		if file != nil {
			file.Close()
		}
		t.Fatalf("Open(fifo) = %v, want INVALID_ARGUMENT", e)
	}
	// A FIFO swapped in for a file after Resolve: the open must neither
	// block (no writer will come) nor read it.
	r, e = f.p.Resolve("a.txt")
	if e != nil {
		t.Fatal(e)
	}
	mustDo(t, os.Remove(filepath.Join(f.ws, "a.txt")))
	if err := mkfifo(filepath.Join(f.ws, "a.txt")); err != nil {
		t.Fatal(err)
	}
	done := make(chan *abi.Error, 1)
	go func() {
		file, e := open(f.p, r)
		if file != nil {
			file.Close()
		}
		done <- e
	}()
	select {
	case e := <-done:
		if e == nil || e.Code != abi.FileChanged {
			t.Fatalf("open of a FIFO swapped in = %v, want FILE_CHANGED", e)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the open of a FIFO swapped in blocked")
	}
}

func TestWritable(t *testing.T) { bothModes(t, testWritable) }

func testWritable(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct {
		path string
		code abi.Code
		info bool
	}{
		{path: "a.txt", info: true},
		{path: "new.txt"},
		{path: "sub/new/deeper/file.txt"},
		{path: "link-rel", info: true},
		{path: ".", code: abi.PathDenied},
		{path: ".git/config", code: abi.SecretDenied}, // a remote's password may sit in it
		{path: ".git/description", code: abi.PathDenied},
		{path: ".git/hooks/pre-commit", code: abi.PathDenied},
		{path: ".GIT/hooks/new", code: abi.PathDenied},
		{path: "sub/.git", code: abi.PathDenied},
		{path: "hooklink", code: abi.PathDenied},
		{path: ".env", code: abi.SecretDenied},
		{path: "new/.env", code: abi.SecretDenied},
		{path: ".juju/x", code: abi.SecretDenied},
		{path: "build/secret-data/y", code: abi.PathDenied},
		{path: "missing/../x", code: abi.NotFound},
		{path: "../outside/new.txt", code: abi.PathDenied},
		{path: "dangling"},
		{path: "dangling-out", code: abi.PathDenied},
	} {
		r, e := f.p.ResolveForWrite(c.path)
		if c.code != "" {
			if e == nil || e.Code != c.code {
				t.Errorf("ResolveForWrite(%q) = %v, want %s", c.path, e, c.code)
			}
			continue
		}
		if e != nil {
			t.Errorf("ResolveForWrite(%q): %v", c.path, e)
			continue
		}
		if r.Exists() != c.info {
			t.Errorf("ResolveForWrite(%q).Exists() = %v", c.path, r.Exists())
		}
	}
}

func TestSecretList(t *testing.T) {
	p := &Policy{}
	for _, s := range DefaultSecrets() {
		mustDo(t, p.secrets.add(s))
	}
	for _, c := range []struct {
		rel    string
		secret bool
	}{
		{".env", true}, {"a/.env", true}, {".env.production", true}, {".envrc", true},
		{"id_rsa", true}, {"id_rsa.pub", true}, {"x/id_ed25519", true}, {"id_ecdsa_sk", true},
		{".ssh/known_hosts", true}, {"home/.ssh/config", true}, {"cert.pem", true},
		{"tls/server.key", true}, {"a.p12", true}, {"b.PFX", true}, {"credentials.json", true},
		{".aws/credentials", true}, {"home/.aws/credentials", true}, {".netrc", true},
		{".git-credentials", true}, {".pgpass", true},
		{".git/config", true}, {"sub/.git/config", true}, {".GIT/Config", true},
		{".git/worktrees/wt/config", true}, {".git/modules/lib/config", true},
		{".git/modules/a/modules/b/config", true},
		{".git/config.worktree", true}, {"sub/.git/config.worktree", true}, {"sub/.git/modules/m/config", true},
		{"sub/.git/worktrees/w/config.worktree", true}, {"mirror.git/config", true}, {"a/b.git/config.worktree", true},
		{".npmrc", true}, {"web/.npmrc", true}, {".pypirc", true}, {"id_dsa", true}, {".kube/config", true},
		{"home/.docker/config.json", true},
		{"home/.config/gh/hosts.yml", true}, {".config/git/credentials", true}, {".cargo/credentials", true},
		{"home/.cargo/credentials.toml", true}, {".gem/credentials", true}, {"app/.bundle/config", true},
		{"deploy.ppk", true}, {".config/sops/age/keys.txt", true}, {"_netrc", true}, {".vault-token", true},
		{".my.cnf", true}, {".terraform.d/credentials.tfrc.json", true}, {"application_default_credentials.json", true},
		{".config/gcloud/credentials.db", true}, {".config/gcloud/access_tokens.db", true},
		{".config/gcloud/legacy_credentials/me@example.com/adc.json", true}, {".azure/msal_token_cache.json", true},
		{".azure/msal_token_cache.bin", true}, {".azure/accessTokens.json", true}, {".s3cfg", true}, {".boto", true},
		{".databrickscfg", true}, {".gnupg/private-keys-v1.d/A.key", true}, {".gnupg/pubring.kbx", true},
		{"site/.htpasswd", true},
		{"gh/hosts.yml", false}, {".config/gh/config.yml", false}, {"git/credentials", false}, {".cargo/config.toml", false},
		{"bundle/config", false}, {"keys.txt", false}, {"netrc", false}, {".config/gcloud/configurations/config_default", false},
		{".azure/config", false}, {"boto.py", false}, {".htaccess", false},
		{".git/objects", true}, {".git/objects/bb/7877e387876c70e4531c0d5a8f53c21a14c729", true},
		{".git/objects/pack/pack-1.pack", true}, {"sub/.git/modules/m/objects/ab/cd", true}, {"mirror.git/objects/ab/cd", true},
		{".git/lfs/objects/ab/cd/abcd", true}, {"mirror.git/lfs/objects/ab/cd/abcd", true}, {".git/rr-cache/ab/preimage", true},
		{".git/rebase-merge/patch", true}, {".git/rebase-apply/0001", true}, {".git/rebase-apply/patch", true},
		{".git/worktrees/w/rebase-merge/patch", true}, {".git/COMMIT_EDITMSG", true}, {".git/worktrees/w/COMMIT_EDITMSG", true},
		{".git/rebase-merge/done", false}, {".git/rebase-merge/git-rebase-todo", false}, {".git/logs/HEAD", true}, {".git/logs/refs/heads/main", true},
		{"sub/.git/modules/m/logs/HEAD", true}, {".git/worktrees/w/logs/HEAD", true}, {"mirror.git/logs/HEAD", true},
		{"logs/app.log", false}, {"src/logs", false},
		{".env~", true}, {"a/#.env#", true}, {"..env.swp", true}, {"..env.swo", true}, {"tls/server.key.orig", true},
		{"credentials.json.bak", true}, {".aws/credentials~", true}, {".netrc.save", true}, {".git/config.orig", true},
		{".ENV.OLD", true}, {".env.orig~", true}, {".ssh.bak/known_hosts", true},
		{"credentials.json.~1~", true}, {"tls/server.key.~12~", true}, {".netrc.~2~~", true}, {"cert.pem.~1~.bak", true},
		{"..env.kate-swp", true}, {"credentials.json___jb_old___", true}, {".netrc___jb_tmp___", true},
		{".main.go.kate-swp", false}, {".kate-swp", false}, {"main.go___jb_old___", false},
		{"main.go.~1~", false}, {".~1~", false}, {"credentials.json.~x~", false}, {"credentials.json.~~", false},
		{"main.go~", false}, {"notes.bak", false}, {".main.go.swp", false}, {"#notes#", false}, {"env~", false},
		{"~", false}, {".bak", false}, {"##", false}, {".swp", false},
		{"src/objects/user.go", false}, {"lfs/readme.md", false}, {"COMMIT_EDITMSG", false}, {"patch", false},
		{"kube/config", false}, {"docker/config.json", false}, {"npmrc.md", false}, {"mirror.git/HEAD", false},
		{"config", false}, {"src/config", false}, {".git/HEAD", false}, {".git/config.d/x", false},
		{"git/config", false}, {".github/config", false},
		{".environment", false}, {"env", false}, {"a.env", false}, {".aws/config", false},
		{"credentials", false}, {"keys/readme.md", false}, {"main.go", false}, {"keyboard.go", false},
		{"src/.envelope", false}, {"docs/ssh.md", false},
	} {
		if got := p.Secret(c.rel); got != c.secret {
			t.Errorf("Secret(%q) = %v, want %v", c.rel, got, c.secret)
		}
	}
}

func TestNewErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	mustDo(t, os.WriteFile(file, nil, 0o644))
	for _, cfg := range []Config{
		{},
		{Roots: []string{""}},
		{Roots: []string{filepath.Join(dir, "missing")}},
		{Roots: []string{file}},
		{Roots: []string{dir}, Deny: []string{"[a"}},
		{Roots: []string{dir}, Secrets: []string{""}},
	} {
		if p, err := New(cfg); err == nil {
			p.Close()
			t.Errorf("New(%+v) succeeded", cfg)
		}
	}
	// A relative root is taken from the current folder; duplicates are dropped.
	t.Chdir(dir)
	p, err := New(Config{Roots: []string{".", dir}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if n := len(p.Roots()); n != 1 {
		t.Fatalf("%d roots, want 1", n)
	}
}

func TestRootInsidePrivate(t *testing.T) {
	dir := t.TempDir()
	p, err := New(Config{Roots: []string{filepath.Join(dir)}, Private: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, path := range []string{".", "x"} {
		if _, e := p.Resolve(path); e == nil || e.Code != abi.SecretDenied {
			t.Errorf("Resolve(%q) = %v, want SECRET_DENIED", path, e)
		}
	}
}

// A root that is a bare repository, under a name that is not *.git, keeps
// its reflogs secret as a clone's .git/logs is: git writes a pull's or a
// fetch's command line there, a remote's password with it.
func TestBareRootKeepsItsReflogSecret(t *testing.T) {
	root := filepath.Join(t.TempDir(), "proj")
	for _, d := range []string{"objects", "refs", "logs/refs/heads"} {
		mustDo(t, os.MkdirAll(filepath.Join(root, d), 0o755))
	}
	mustDo(t, os.WriteFile(filepath.Join(root, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	p, err := New(Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, c := range []struct {
		rel    string
		secret bool
	}{{"logs", true}, {"logs/HEAD", true}, {"LOGS/refs/heads/main", true}, {"HEAD", false}, {"refs/heads/main", false}} {
		if got := p.Check(p.Roots()[0], c.rel) != nil; got != c.secret {
			t.Errorf("Check(%q) refused %v, want %v", c.rel, got, c.secret)
		}
	}
}

// A repository's folder inside a root that no secret glob names (a bare
// clone named backup, a work tree's git folder made with
// --separate-git-dir) keeps its config, objects, lfs and logs secret, as
// a .git's and a mirror.git's are: read_file served backup/config, a
// remote's URL with its password. The same names elsewhere are files like
// others.
func TestRepositoryFolderKeepsItsStoresSecret(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"backup/objects/ab", "backup/refs", "backup/logs", "src/config", "src/objects", "src/refs"} {
		mustDo(t, os.MkdirAll(filepath.Join(root, d), 0o755))
	}
	mustDo(t, os.WriteFile(filepath.Join(root, "backup/HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	mustDo(t, os.WriteFile(filepath.Join(root, "backup/config"), []byte("[remote \"origin\"]\n"), 0o644))
	p, err := New(Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r := p.Roots()[0]
	for _, c := range []struct {
		rel    string
		secret bool
	}{
		{"backup/config", true}, {"backup/CONFIG", true}, {"backup/config.worktree", true}, {"backup/objects/ab/cd", true},
		{"backup/logs/HEAD", true}, {"backup/lfs", true},
		{"backup/HEAD", false}, {"backup/refs", false}, {"backup/description", false}, {"backup", false},
		{"src/config/app.json", false}, {"src/objects", false}, {"config", false},
	} {
		if got := p.Check(r, c.rel) != nil; got != c.secret {
			t.Errorf("Check(%q) refused %v, want %v", c.rel, got, c.secret)
		}
		if c.secret && !strings.Contains(c.rel, "/objects/") && !strings.Contains(c.rel, "/logs/") && !p.Hidden(r, c.rel) {
			t.Errorf("Hidden(%q) = false, want the entry withheld", c.rel)
		}
	}
}
