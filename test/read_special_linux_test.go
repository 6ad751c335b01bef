//go:build linux

package test

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// What the read tools make of the kernel's own paths and of special
// files: /proc/self/root and /proc/self/cwd lead out of the roots even
// when what follows names a file inside one; a FIFO, a socket and a
// device get a type and no hash, and are never read; read_files answers
// each of duplicates, missing and refused paths in its own section.
func TestReadToolsOnProcAndSpecialFiles(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n", ".env": "K=1\n"})
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	special := []string{"fifo"}
	if err := syscall.Mknod(filepath.Join(root, "zero"), syscall.S_IFCHR|0o644, 1<<8|5); err == nil {
		special = append(special, "zero")
	}
	sock := filepath.Join(root, "sock")
	if fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0); err == nil {
		defer syscall.Close(fd)
		if syscall.Bind(fd, &syscall.SockaddrUnix{Name: sock}) == nil {
			special = append(special, "sock")
		}
	}
	s := start(t, root)
	for _, p := range []string{"/proc/self/root" + filepath.Join(root, "a.txt"), "/proc/self/cwd/a.txt", "/proc/self/root/etc/passwd"} {
		s.fail("read_file", map[string]any{"path": p}, "PATH_DENIED")
		s.fail("list_directory", map[string]any{"path": filepath.Dir(p)}, "PATH_DENIED")
	}
	for _, p := range special {
		res := s.call("file_info", map[string]any{"path": p})
		if res.IsError {
			t.Fatalf("file_info %s: %s", p, text(res))
		}
		if sc := structured(t, res); sc["type"] != "other" || sc["sha256"] != nil {
			t.Errorf("file_info %s: %v", p, sc)
		}
		s.fail("read_file", map[string]any{"path": p}, "INVALID_ARGUMENT")
	}
	res := s.call("read_files", map[string]any{"paths": []string{"a.txt", "missing.txt", "a.txt", ".env", "../x", "fifo"}})
	if res.IsError {
		t.Fatalf("read_files: %s", text(res))
	}
	var codes []string
	for _, f := range structured(t, res)["files"].([]any) {
		code := ""
		if e, ok := f.(map[string]any)["error"].(map[string]any); ok {
			code = e["code"].(string)
		}
		codes = append(codes, code)
	}
	if got := strings.Join(codes, ","); got != ",NOT_FOUND,,SECRET_DENIED,PATH_DENIED,INVALID_ARGUMENT" {
		t.Errorf("read_files codes %s", got)
	}
	if got := text(res); strings.Count(got, "==> a.txt <==\na\n") != 2 || strings.Contains(got, "K=1") {
		t.Errorf("read_files text:\n%s", got)
	}
}
