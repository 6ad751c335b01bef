package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The path policy holds end to end, whatever tool the model uses.
func TestAdversarialPaths(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "loot.txt"), []byte("OUTSIDE-CONTENT"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := workspace(t, map[string]string{
		"ok.txt":           "fine\n",
		".env":             "API_KEY=sk-live-123\n",
		".env.production":  "DB=postgres://u:p@h/db\n",
		"config/.ssh/cfg":  "Host x\n",
		"certs/server.key": "-----BEGIN PRIVATE KEY-----\nabc\n",
		"innocent.txt":     "->.env",
		"escape.txt":       "->" + filepath.Join(outside, "loot.txt"),
		"escape-dir":       "->" + outside,
		"dangling":         "->does-not-exist.txt",
		"inroot-abs.txt":   "", // replaced below by an absolute in-root link
	})
	os.Remove(filepath.Join(root, "inroot-abs.txt"))
	if err := os.Symlink(filepath.Join(root, "ok.txt"), filepath.Join(root, "inroot-abs.txt")); err != nil {
		t.Fatal(err)
	}
	s := start(t, root)

	denied := []struct {
		name, path, code string
	}{
		{"dotdot", "../" + filepath.Base(outside) + "/loot.txt", "PATH_DENIED"},
		{"deep dotdot", "a/../../../etc/passwd", "PATH_DENIED"},
		{"absolute outside", filepath.Join(outside, "loot.txt"), "PATH_DENIED"},
		{"etc passwd", "/etc/passwd", "PATH_DENIED"},
		{"symlink out (file)", "escape.txt", "PATH_DENIED"},
		{"symlink out (dir)", "escape-dir/loot.txt", "PATH_DENIED"},
		{"dotenv", ".env", "SECRET_DENIED"},
		{"dotenv variant", ".env.production", "SECRET_DENIED"},
		{"ssh folder", "config/.ssh/cfg", "SECRET_DENIED"},
		{"private key", "certs/server.key", "SECRET_DENIED"},
		{"secret via symlink", "innocent.txt", "SECRET_DENIED"},
		{"secret via dotdot", "certs/../.env", "SECRET_DENIED"},
		{"secret via absolute path", filepath.Join(root, ".env"), "SECRET_DENIED"},
		{"dangling link", "dangling", "NOT_FOUND"},
	}
	for _, tc := range denied {
		t.Run(tc.name, func(t *testing.T) {
			s := s.with(t)
			msg := s.fail("read_file", map[string]any{"path": tc.path}, tc.code)
			if strings.Contains(msg, "OUTSIDE-CONTENT") || strings.Contains(msg, "sk-live") {
				t.Fatalf("content leaked in the error: %s", msg)
			}
			if tc.code == "SECRET_DENIED" {
				s.fail("file_info", map[string]any{"path": tc.path}, tc.code)
			}
		})
	}
	t.Run("nul byte", func(t *testing.T) {
		s := s.with(t)
		s.fail("read_file", map[string]any{"path": "ok\x00.txt"}, "INVALID_ARGUMENT")
	})
	t.Run("absolute in-root link followed", func(t *testing.T) {
		s := s.with(t)
		if got := s.ok("read_file", map[string]any{"path": "inroot-abs.txt"}); !strings.Contains(got, "fine") {
			t.Fatalf("in-root absolute link not followed: %q", got)
		}
	})
	t.Run("absolute path inside the root", func(t *testing.T) {
		s := s.with(t)
		if got := s.ok("read_file", map[string]any{"path": filepath.Join(root, "ok.txt")}); !strings.Contains(got, "fine") {
			t.Fatalf("absolute in-root path refused: %q", got)
		}
	})
	t.Run("listing never shows what the link leads to outside", func(t *testing.T) {
		s := s.with(t)
		got := s.ok("list_directory", map[string]any{"path": "."})
		if strings.Contains(got, outside) {
			t.Fatalf("listing reveals an outside path: %s", got)
		}
	})
	t.Run("glob does not walk out through a link", func(t *testing.T) {
		s := s.with(t)
		res := s.call("glob_files", map[string]any{"pattern": "**/loot.txt"})
		if sc := structured(t, res); sc["total"] != float64(0) {
			t.Fatalf("glob followed a link out of the root: %v", sc)
		}
	})
}

// A root given through a symlink works under both spellings.
func TestSymlinkedRoot(t *testing.T) {
	real := workspace(t, map[string]string{"x.txt": "via link\n"})
	alias := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(real, alias); err != nil {
		t.Fatal(err)
	}
	s := start(t, alias)
	for _, p := range []string{"x.txt", filepath.Join(alias, "x.txt"), filepath.Join(real, "x.txt")} {
		if got := s.ok("read_file", map[string]any{"path": p}); !strings.Contains(got, "via link") {
			t.Fatalf("%s: %q", p, got)
		}
	}
}
