//go:build unix

package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/lspconfig"
)

// A language server runs programs by name: pyright runs python3 to find
// its search paths, `#!/usr/bin/env node` runs node, gopls runs go. Each
// is looked up in PATH from the root, so an owner's PATH with a relative
// entry — an empty one (a leading or trailing colon, "$EXTRA:$PATH" with
// EXTRA unset), ".", or "node_modules/.bin" — would have pyright run the
// repository's own python3, unconfined and with no approval, at the first
// get_diagnostics (tier R). The servers get juju's own PATH, which keeps
// no relative entry (cmd/juju trimPath).
func TestLSPServerRunsNoProgramOfTheWorkspace(t *testing.T) {
	ran := filepath.Join(t.TempDir(), "ran")
	root := workspace(t, map[string]string{"pyrightconfig.json": "{}", "main.py": "x: int = 'a'\n"})
	script := "#!/bin/sh\necho \"$0 $*\" >> " + ran + "\nexit 1\n"
	for _, p := range []string{"python3", "python", "bin/python3", "bin/python"} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		if err := os.WriteFile(filepath.Join(root, p), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", ":bin:"+os.Getenv("PATH")+":.")
	s := startHome(t, lspHome(t, pyrightServer(t)), root, "--mode", "trusted")
	res := s.with(t).call("get_diagnostics", map[string]any{"path": "main.py"})
	if res.IsError || !strings.Contains(text(res), "reportAssignmentType") {
		t.Fatalf("want pyright's report on main.py: %s", text(res))
	}
	if b, err := os.ReadFile(ran); err == nil {
		t.Fatalf("pyright ran a program of the workspace:\n%s", b)
	}
}

// Only the owner names a server: lsp.toml names the programs juju starts,
// unconfined, with the owner's rights, as config.toml sets the trust mode,
// and the same rule keeps it: a registrations file another user may write
// (a world-writable one in a folder others can pass through) or owns (a
// link to a teammate's shared file) is another user's choice of program.
// Its registrations are ignored, said in the log, and nothing it names
// runs.
func TestLSPRegistrationsOfAnotherUserIgnored(t *testing.T) {
	cases := map[string]func(t *testing.T, file string){
		"world-writable": func(t *testing.T, file string) {
			if err := os.Chmod(file, 0o666); err != nil {
				t.Fatal(err)
			}
		},
		"another user's": func(t *testing.T, file string) {
			if os.Geteuid() != 0 {
				t.Skip("giving a file to another user needs root")
			}
			shared := filepath.Join(t.TempDir(), "lsp.toml")
			if err := os.Rename(file, shared); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(shared, nobodyUID, nobodyUID); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(shared, file); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			ran := filepath.Join(t.TempDir(), "ran")
			prog := filepath.Join(t.TempDir(), "planted-server")
			if err := os.WriteFile(prog, []byte("#!/bin/sh\necho ran > "+ran+"\nexit 1\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			home := lspHome(t, lspconfig.Server{Name: "planted", Command: []string{prog}, Languages: []string{"go"}})
			change(t, lspconfig.Path(filepath.Join(home, "config")))
			root := workspace(t, map[string]string{"go.mod": "module m\n", "a.go": "package a\n"})
			s := startHome(t, home, root, "--mode", "trusted")
			s.with(t).call("get_diagnostics", map[string]any{"path": "a.go"})
			if _, err := os.Stat(ran); err == nil {
				t.Fatal("juju started the program another user's lsp.toml names")
			}
			if !strings.Contains(s.stderr(), "language server registrations ignored") {
				t.Errorf("the log does not say the registrations were ignored:\n%s", s.stderr())
			}
		})
	}
}
