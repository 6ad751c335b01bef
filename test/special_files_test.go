//go:build unix

package test

import (
	"net"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSpecialFilesAreNoMatchesAndNeverRead: a FIFO, a socket and a
// character device in the workspace (and links to them) are no matches of
// glob_files, as rg --files, which Claude Code's Glob runs, lists only
// files: glob_files listed them, and the model went on to read or edit
// them. Every read path answers on them at once and never opens one to
// read, which on a FIFO would wait for a writer: read_file and read_files
// refuse them, file_info describes them as "other", names which kind, and
// gives no hash, and
// search_code passes over them with either engine, or refuses one named.
func TestSpecialFilesAreNoMatchesAndNeverRead(t *testing.T) {
	for _, engine := range []string{"ripgrep", "juju"} {
		t.Run(engine, func(t *testing.T) {
			root := workspace(t, map[string]string{"a.txt": "needle\n", "sub/b.txt": "needle\n", "to-fifo": "->sub/fifo", "to-file": "->a.txt"})
			special := []string{"sub/fifo", "sock", "to-fifo"}
			if err := syscall.Mkfifo(filepath.Join(root, "sub/fifo"), 0o644); err != nil {
				t.Fatal(err)
			}
			l, err := net.Listen("unix", filepath.Join(root, "sock"))
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			// /dev/zero, whose reading never ends, where root may make one.
			if syscall.Mknod(filepath.Join(root, "zero"), syscall.S_IFCHR|0o666, 1<<8|5) == nil {
				special = append(special, "zero")
			}
			if engine == "juju" {
				withoutRipgrep(t)
			}
			s := start(t, root)
			for _, pattern := range []string{"**/*", "*", "**/fifo", "sub/*"} {
				got := s.ok("glob_files", map[string]any{"pattern": pattern, "includeIgnored": true})
				for _, p := range special {
					if strings.Contains(got, p+"\n") {
						t.Errorf("glob_files %s lists %s:\n%s", pattern, p, got)
					}
				}
			}
			if got := s.ok("glob_files", map[string]any{"pattern": "**/*"}); !strings.Contains(got, "to-file\n") || !strings.Contains(got, "sub/b.txt\n") {
				t.Errorf("glob_files leaves out a file or a link to one:\n%s", got)
			}
			for _, p := range special {
				if msg := s.fail("read_file", map[string]any{"path": p}, "INVALID_ARGUMENT"); !strings.Contains(msg, "not a regular file") {
					t.Errorf("read_file %s: %s", p, msg)
				}
				if got := s.ok("read_files", map[string]any{"paths": []string{p, "a.txt"}}); !strings.Contains(got, "INVALID_ARGUMENT") || !strings.Contains(got, "needle") {
					t.Errorf("read_files %s:\n%s", p, got)
				}
				// "other" alone left the model to decode the mode.
				kind := map[string]string{"sub/fifo": "named pipe", "to-fifo": "named pipe", "sock": "socket", "zero": "character device"}[p]
				if got := s.ok("file_info", map[string]any{"path": p}); !strings.Contains(got, "type: other ("+"a "+kind) || strings.Contains(got, "sha256") {
					t.Errorf("file_info %s:\n%s", p, got)
				}
				s.fail("search_code", map[string]any{"pattern": "needle", "path": p}, "INVALID_ARGUMENT")
			}
			got := s.ok("search_code", map[string]any{"pattern": "needle", "outputMode": "files"})
			if !strings.Contains(got, "a.txt") || !strings.Contains(got, "sub/b.txt") || strings.Contains(got, "fifo") || strings.Contains(got, "zero") {
				t.Errorf("search_code:\n%s", got)
			}
		})
	}
}
