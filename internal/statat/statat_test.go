//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package statat

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestLstatDescribesTheLinkNotItsTarget(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file"), []byte("twelve bytes"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("file", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	fd := int(d.Fd())

	for _, tc := range []struct {
		name string
		mode uint32
		size int64
	}{{"file", syscall.S_IFREG, 12}, {"link", syscall.S_IFLNK, 4}} {
		var byString, byNul syscall.Stat_t
		if err := Lstat(fd, tc.name, &byString); err != nil {
			t.Fatalf("Lstat(%s): %v", tc.name, err)
		}
		if err := LstatNul(fd, append([]byte(tc.name), 0), &byNul); err != nil {
			t.Fatalf("LstatNul(%s): %v", tc.name, err)
		}
		for _, st := range []syscall.Stat_t{byString, byNul} {
			if st.Mode&syscall.S_IFMT != tc.mode || st.Size != tc.size {
				t.Errorf("%s: mode %o size %d, want type %o size %d", tc.name, st.Mode, st.Size, tc.mode, tc.size)
			}
		}
		if byString.Ino != byNul.Ino {
			t.Errorf("%s: the two calls describe inodes %d and %d", tc.name, byString.Ino, byNul.Ino)
		}
	}

	var st syscall.Stat_t
	if err := Lstat(fd, "missing", &st); !errors.Is(err, syscall.ENOENT) {
		t.Errorf("Lstat(missing) = %v, want ENOENT", err)
	}
	for _, bad := range [][]byte{nil, []byte("file")} {
		if err := LstatNul(fd, bad, &st); !errors.Is(err, syscall.EINVAL) {
			t.Errorf("LstatNul(%q) = %v, want EINVAL for a name not NUL-terminated", bad, err)
		}
	}
	if err := Lstat(fd, "fi\x00le", &st); err == nil {
		t.Error("Lstat accepted a name with a NUL inside")
	}
}
