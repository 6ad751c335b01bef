// Package testfs makes workspaces for tests: a temporary folder holding the
// files and symlinks a test describes.
package testfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Workspace makes a root folder with the given files (slash path → content)
// and returns it. A content starting with "->" makes a symlink to the rest.
func Workspace(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "->"); ok {
			if err := os.Symlink(target, full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}
