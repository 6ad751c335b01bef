//go:build unix

package test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// cgoWorkspace is a Go module whose packages make gopls's C compiler read
// files juju never shows: .env (a secret) and a credentials file outside
// the root. It returns the root and the secrets' texts.
func cgoWorkspace(t *testing.T) (root string, secrets []string) {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no C compiler: gopls runs no cgo here")
	}
	out := t.TempDir()
	os.MkdirAll(filepath.Join(out, "sub"), 0o755)
	os.MkdirAll(filepath.Join(out, "outside"), 0o755)
	if err := os.WriteFile(filepath.Join(out, "outside", "credentials"), []byte("aws_secret_access_key = cgo-outside-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	preamble := func(pkg, include string) string {
		return "package " + pkg + "\n\n/*\n" + include + "\n*/\nimport \"C\"\n\nvar X = 1\n"
	}
	root = workspace(t, map[string]string{
		"go.mod":          "module example.com/w\n\ngo 1.22\n",
		".env":            "DB_PASSWORD=hunter2-supersecret\n",
		".token":          "ghp_cgoTokenSecret123\n",
		"p5/x/a b/c/keep": "",
		// A name with a space, whose ".." climbs past the folder it names.
		"p5/x.go": preamble("p5", `#include "x/a b/c/../../../../.env"`),
		// A link followed before "..": lnk/.. is the link's target's parent.
		"p8/lnk":  "->" + filepath.Join(out, "sub"),
		"p8/x.go": preamble("p8", `#include "lnk/../outside/credentials"`),
		// No name at all: the token is folded into a report on x.go itself.
		"p9/x.go": preamble("p9", "int x = sizeof(struct\n#include \"../.token\"\n);"),
	})
	return root, []string{"hunter2", "supersecret", "cgo-outside-secret", "aws_secret", "cgoTokenSecret"}
}

// What a cgo preamble makes the C compiler read of files juju never shows
// does not reach the model through get_diagnostics, however the preamble
// names them: a name juju must resolve as the kernel does (p5, p8), or no
// name at all (p9, which only running no C compiler stops).
func TestLSPGoplsCgoQuotesNoSecret(t *testing.T) {
	root, secrets := cgoWorkspace(t)
	s := startHome(t, lspHome(t, goplsServer(t)), root, "--mode", "trusted")
	for _, file := range []string{"p5/x.go", "p8/x.go", "p9/x.go"} {
		t.Run(file, func(t *testing.T) {
			res := s.with(t).call("get_diagnostics", map[string]any{"path": file})
			if res.IsError {
				t.Fatalf("get_diagnostics: %s", text(res))
			}
			b, _ := json.Marshal(res)
			for _, secret := range secrets {
				if strings.Contains(string(b), secret) {
					t.Errorf("the answer quotes %q: %s", secret, b)
				}
			}
		})
	}
}
