//go:build unix

package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A repository that ships a Python file linked to .env (which the owner
// creates later, as a README asks) has pyright read the owner's .env as
// Python itself, following the link: reveal_type or a type error in a
// file juju shows then quotes its values, naming no other file. juju does
// not start a server over a folder holding a link to a secret — inside
// the roots (.env) or outside (~/.aws/credentials), there yet or not —
// and says which link; a link to an ordinary file outside the roots, as a
// venv's python is, starts the server as before.
func TestLSPPyrightLinkToSecretNotFollowed(t *testing.T) {
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(outside, ".aws"), 0o700)
	os.WriteFile(filepath.Join(outside, ".aws", "credentials"), []byte("[default]\nAWS_SECRET_ACCESS_KEY = \"aws-OUTSIDE-SECRET\"\n"), 0o600)
	const env = "import envmod\nx: int = envmod.API_KEY\nreveal_type(envmod.API_KEY)\n"
	cases := []struct {
		name, link string
		files      map[string]string
	}{
		{"env", "envmod.py", map[string]string{"main.py": env, ".env": "API_KEY=\"sk-live-ENV-SECRET\"\n", "envmod.py": "->.env"}},
		{"env-later", "lib/envmod.py", map[string]string{"main.py": "from lib import envmod\nreveal_type(envmod.API_KEY)\n",
			"lib/envmod.py": "->../.env", "lib/__init__.py": ""}},
		// A server's folder is sub, whose config points at the root above.
		{"beside", "lib/envmod.py", map[string]string{"sub/pyproject.toml": "", "sub/pyrightconfig.json": `{"extraPaths": [".."]}`,
			"sub/main.py": "from lib import envmod\nreveal_type(envmod.API_KEY)\n", ".env": "API_KEY=\"sk-live-ENV-SECRET\"\n",
			"lib/envmod.py": "->../.env", "lib/__init__.py": ""}},
		{"aws", "creds.py", map[string]string{"main.py": "import creds\nreveal_type(creds.AWS_SECRET_ACCESS_KEY)\n",
			"creds.py": "->" + filepath.Join(outside, ".aws", "credentials")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"pyrightconfig.json": `{}`}
			for k, v := range c.files {
				files[k] = v
			}
			root := workspace(t, files)
			s := startHome(t, lspHome(t, pyrightServer(t)), root, "--mode", "trusted")
			if c.name == "env-later" {
				// The owner fills in .env after cloning.
				os.WriteFile(filepath.Join(root, ".env"), []byte("API_KEY=\"sk-live-ENV-SECRET\"\n"), 0o600)
			}
			asked := "main.py"
			if c.name == "beside" {
				asked = "sub/main.py"
			}
			res := s.with(t).call("get_diagnostics", map[string]any{"path": asked})
			b, _ := json.Marshal(res)
			for _, secret := range []string{"ENV-SECRET", "OUTSIDE-SECRET"} {
				if strings.Contains(string(b), secret) {
					t.Fatalf("the answer quotes %q: %s", secret, text(res))
				}
			}
			if !res.IsError || !strings.Contains(text(res), "SECRET_DENIED") || !strings.Contains(text(res), `"`+c.link+`" is a symbolic link to a secret`) {
				t.Fatalf("want SECRET_DENIED naming %s: %s", c.link, text(res))
			}
			if c := childrenOf(t, jujuPID(t, root), "pyright"); len(c) != 0 {
				t.Fatalf("pyright started: %+v", c)
			}
		})
	}
	t.Run("venv python", func(t *testing.T) {
		py, err := filepath.EvalSymlinks("/bin/sh") // any ordinary program outside the roots
		if err != nil {
			t.Skip(err)
		}
		root := workspace(t, map[string]string{"pyrightconfig.json": "{}", "main.py": "x: int = 'a'\n", ".venv/bin/python": "->" + py})
		s := startHome(t, lspHome(t, pyrightServer(t)), root, "--mode", "trusted")
		res := s.with(t).call("get_diagnostics", map[string]any{"path": "main.py"})
		if res.IsError || !strings.Contains(text(res), "reportAssignmentType") {
			t.Fatalf("want pyright's report on main.py: %s", text(res))
		}
	})
}

// The link check of a root is reused by the next starts for a short time,
// but only while no call that may change files has run: a link to .env
// that a command makes after one server started over the root clean is
// still refused for the next server over the same root (pyright in b
// after pyright in a), and pyright in b never starts.
func TestLSPLinkMadeByCommandCaughtAtNextStart(t *testing.T) {
	const env = "import envmod\nreveal_type(envmod.API_KEY)\n"
	root := workspace(t, map[string]string{
		"a/pyproject.toml": "", "a/main.py": "x: int = 'a'\n",
		"b/pyproject.toml": "", "b/main.py": env,
		".env": "API_KEY=\"sk-live-ENV-SECRET\"\n",
	})
	s := startHome(t, lspHome(t, pyrightServer(t)), root, "--mode", "trusted")
	c := s.with(t)
	if res := c.call("get_diagnostics", map[string]any{"path": "a/main.py"}); res.IsError || !strings.Contains(text(res), "reportAssignmentType") {
		t.Fatalf("want pyright's report on a/main.py: %s", text(res))
	}
	c.ok("run_command", map[string]any{"command": "ln -s ../.env b/envmod.py"})
	res := c.call("get_diagnostics", map[string]any{"path": "b/main.py"})
	if b, _ := json.Marshal(res); strings.Contains(string(b), "ENV-SECRET") {
		t.Fatalf("the answer quotes .env: %s", text(res))
	}
	if !res.IsError || !strings.Contains(text(res), `"b/envmod.py" is a symbolic link to a secret`) {
		t.Fatalf("want SECRET_DENIED naming b/envmod.py: %s", text(res))
	}
}
