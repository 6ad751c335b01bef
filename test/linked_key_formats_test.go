package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A hard link under an innocent name to a private key that is no PEM
// block, PuTTY's .ppk or an age identity, is a secret as a linked PEM key
// is: read_file served both, and search_code their lines.
func TestLinkedNonPEMKeysAreSecrets(t *testing.T) {
	keys := map[string]string{
		"putty.txt": "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\nAAAAIPPKLINE4d2b\n",
		"age.txt":   "# created: 2024-01-01\n# public key: age1xyz\nAGE-SECRET-KEY-1AGELINE8e1c\n",
	}
	root := workspace(t, map[string]string{"ok.txt": "fine\n"})
	outside := t.TempDir()
	for name, content := range keys {
		out := filepath.Join(outside, name)
		if err := os.WriteFile(out, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(out, filepath.Join(root, name)); err != nil {
			t.Skipf("cannot hard-link into the workspace: %v", err)
		}
	}
	s := start(t, root)
	for name := range keys {
		s.fail("read_file", map[string]any{"path": name}, "SECRET_DENIED")
	}
	for _, pattern := range []string{"PPKLINE", "AGELINE"} {
		for _, mode := range []string{"content", "files", "count"} {
			out := text(s.call("search_code", map[string]any{"pattern": pattern, "outputMode": mode}))
			if strings.Contains(out, "LINE4d2b") || strings.Contains(out, "LINE8e1c") || strings.Contains(out, ".txt") {
				t.Errorf("search_code %s %s shows a linked key:\n%s", pattern, mode, out)
			}
		}
	}
	if out := s.ok("read_file", map[string]any{"path": "ok.txt"}); !strings.Contains(out, "fine") {
		t.Errorf("ok.txt: %s", out)
	}
}
