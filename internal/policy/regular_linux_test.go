//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package policy

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ResolveRegular either does what Resolve and OpenRead do together, or
// declines and leaves nothing open; it declines everything but a plain
// request for a regular file with one link.
func TestResolveRegularIsResolveAndOpenRead(t *testing.T) {
	f := newFixture(t)
	fast := map[string]bool{"a.txt": true, "sub/b.txt": true, "sub/deep/c.txt": true, "./sub//b.txt": true,
		"data/plain.txt": false /* two links */, "keys/readme.md": true, "build/out.txt": true,
		".git/description": true, ".git/hooks/pre-commit": true, // read, not written (.git/config is a secret)
		filepath.Join(f.ws, "a.txt"): true, filepath.Join(f.wslink, "sub/b.txt"): true, // either spelling of the root
		f.ws + "//sub/./deep//c.txt": true}
	paths := []string{
		".env", ".ssh/config", ".SSH/config", "keys/server.pem", "x.vault", "notes.txt", ".env.local",
		"sshlink/config", "sub/../.env", "data/key.bin", "data/copy.txt", "data/plain-copy.txt",
		".juju/state.db", "build/secret-data/x",
		"link-rel", "link-abs", "link-dir/b.txt", "link-out", "link-out-dir/secret.txt",
		"link-out-dir/dir/x.txt", "link-out-via-up/x.txt", "sub/deep/up", "dangling", "loop1",
		"self", "to-ws2", "to-state", "hooklink", "sub", ".", "", "missing.txt", "sub/missing",
		"a.txt/", "../ws/a.txt", "../outside/secret.txt", "a.txt\x00", "sub/\xff.txt",
		f.ws, f.wslink, f.ws + "/", filepath.Join(f.ws, ".env"), filepath.Join(f.wslink, "link-rel"),
		filepath.Join(f.ws, "sub/../a.txt"), filepath.Join(f.ws2, "file.txt"), filepath.Join(f.outside, "secret.txt"),
		filepath.Join(f.ws, ".juju/state.db"), filepath.Join(f.state, "journal.db"), "/etc/passwd",
	}
	for p := range fast {
		paths = append(paths, p)
	}
	for _, p := range paths {
		before := openFDs(t)
		r, file, fi, ok := f.p.ResolveRegular(p)
		if ok != fast[p] {
			t.Errorf("ResolveRegular(%q): ok = %v, want %v", p, ok, fast[p])
		}
		if !ok {
			if r != nil || file != nil || fi != nil {
				t.Errorf("ResolveRegular(%q) declined but returned %v, %v, %v", p, r, file, fi)
			}
			if after := openFDs(t); after != before {
				t.Errorf("ResolveRegular(%q) declined and left %d descriptors open", p, after-before)
			}
			continue
		}
		want, e := f.p.Resolve(p)
		if e != nil {
			t.Errorf("ResolveRegular(%q) opened what Resolve refuses: %v", p, e)
			file.Close()
			continue
		}
		if r.Root != want.Root || r.Rel != want.Rel || r.Display != want.Display || r.Name != want.Name || r.Link != "" {
			t.Errorf("ResolveRegular(%q) = %+v, Resolve = %+v", p, r, want)
		}
		if !SameFile(fi, want.Info) || !SameFile(r.Info, want.Info) {
			t.Errorf("ResolveRegular(%q) describes another file than Resolve", p)
		}
		got, err := io.ReadAll(file)
		file.Close()
		wantBody, _ := os.ReadFile(filepath.Join(f.ws, filepath.FromSlash(want.Rel)))
		if err != nil || !bytes.Equal(got, wantBody) || int64(len(got)) != fi.Size() {
			t.Errorf("ResolveRegular(%q) read %q, %v; want %q", p, got, err, wantBody)
		}
	}
	withoutOpenat2(t)
	if _, _, _, ok := f.p.ResolveRegular("a.txt"); ok {
		t.Error("ResolveRegular took the fast way without openat2")
	}
}

// An absolute path goes the fast way only when the walk would land in the
// first root: not when it lies in another root, even one inside the first.
func TestFastRelKeepsTheWalksRoot(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	mustDo(t, err)
	outer, inner := filepath.Join(tmp, "outer"), filepath.Join(tmp, "outer", "inner")
	mustDo(t, os.MkdirAll(inner, 0o755))
	mustDo(t, os.WriteFile(filepath.Join(inner, "x.txt"), []byte("x"), 0o644))
	mustDo(t, os.WriteFile(filepath.Join(outer, "y.txt"), []byte("y"), 0o644))
	for _, roots := range [][]string{{outer, inner}, {inner, outer}} {
		p, err := New(Config{Roots: roots})
		mustDo(t, err)
		defer p.Close()
		for _, req := range []string{filepath.Join(inner, "x.txt"), filepath.Join(outer, "y.txt"), "x.txt", "y.txt", "inner/x.txt"} {
			want, e := p.Resolve(req)
			_, file, _, ok := p.ResolveRegular(req)
			if ok {
				file.Close()
			}
			// Declining is always safe; taking it must land where Resolve does.
			rel, fast := p.fastRel(req)
			if fast && e == nil && (want.Root != p.roots[0] || want.Rel != rel) {
				t.Errorf("roots %v: fastRel(%q) = %q, but Resolve lands in %+v", roots, req, rel, want)
			}
			if ok && (!fast || e != nil) {
				t.Errorf("roots %v: ResolveRegular(%q) went fast (fastRel %v, Resolve %v)", roots, req, fast, e)
			}
			if strings.HasPrefix(req, "/") && Within(req, inner) && fast {
				t.Errorf("roots %v: %q lies in both roots, and fastRel took it", roots, req)
			}
		}
	}
}

// A special file is never opened, whether it is there from the start or
// swapped in between the stat and the open; a name swapped for a symlink
// meanwhile is not followed.
func TestResolveRegularOpensNoSpecialFile(t *testing.T) {
	f := newFixture(t)
	if err := mkfifo(filepath.Join(f.ws, "pipe")); err != nil {
		t.Fatal(err)
	}
	// A character device like /dev/null: opening one can act on it.
	dev := filepath.Join(f.ws, "null")
	var devOK bool
	var st syscall.Stat_t
	if syscall.Stat("/dev/null", &st) == nil && syscall.Mknod(dev, syscall.S_IFCHR|0o666, int(st.Rdev)) == nil {
		devOK = true
	}
	declines := func(name string) {
		t.Helper()
		before := openFDs(t)
		done := make(chan bool, 1)
		go func() {
			_, file, _, ok := f.p.ResolveRegular(name)
			if file != nil {
				file.Close()
			}
			done <- ok
		}()
		select {
		case ok := <-done:
			if ok {
				t.Errorf("ResolveRegular(%q) opened it", name)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("ResolveRegular(%q) blocked", name)
		}
		if after := openFDs(t); after != before {
			t.Errorf("ResolveRegular(%q) left %d descriptors open", name, after-before)
		}
	}
	for _, name := range []string{"pipe", "null"} {
		if name == "null" && !devOK {
			continue
		}
		opened := watchOpens(t, filepath.Join(f.ws, name))
		declines(name)
		if opened() {
			t.Errorf("ResolveRegular opened %s", name)
		}
	}

	swaps := []struct {
		name string
		swap func(path string) error
	}{
		{"a FIFO", func(p string) error {
			if err := os.Remove(p); err != nil {
				return err
			}
			return mkfifo(p)
		}},
		{"a symlink out", func(p string) error {
			if err := os.Remove(p); err != nil {
				return err
			}
			return os.Symlink(filepath.Join(f.outside, "secret.txt"), p)
		}},
		{"a folder link out", func(string) error {
			if err := os.Rename(filepath.Join(f.ws, "sub"), filepath.Join(f.ws, "sub.old")); err != nil {
				return err
			}
			return os.Symlink(filepath.Join(f.outside, "dir"), filepath.Join(f.ws, "sub"))
		}},
		{"a second link", func(p string) error { return os.Link(p, p+".hard") }},
	}
	if devOK {
		swaps = append(swaps, struct {
			name string
			swap func(path string) error
		}{"a device", func(p string) error {
			if err := os.Remove(p); err != nil {
				return err
			}
			return syscall.Mknod(p, syscall.S_IFCHR|0o666, int(st.Rdev))
		}})
	}
	for i, s := range swaps {
		t.Run(s.name, func(t *testing.T) {
			name := "sub/swap" + string(rune('a'+i)) + ".txt"
			if s.name == "a folder link out" {
				mustDo(t, os.WriteFile(filepath.Join(f.outside, "dir", filepath.Base(name)), []byte("OUTSIDE"), 0o644))
			}
			full := filepath.Join(f.ws, name)
			mustDo(t, os.WriteFile(full, []byte("inside"), 0o644))
			var swapErr error
			afterLstat = func() { swapErr = s.swap(full) }
			defer func() { afterLstat = nil }()
			declines(name)
			if swapErr != nil {
				t.Fatal(swapErr)
			}
			if s.name == "a folder link out" {
				mustDo(t, os.Remove(filepath.Join(f.ws, "sub")))
				mustDo(t, os.Rename(filepath.Join(f.ws, "sub.old"), filepath.Join(f.ws, "sub")))
			}
		})
	}
}

// openFDs counts the process's open descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// watchOpens reports, each time it is asked, whether the file at path was
// opened since the last time (inotify's IN_OPEN, which an O_PATH
// descriptor does not raise).
func watchOpens(t *testing.T, path string) func() bool {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if _, err := syscall.InotifyAddWatch(fd, path, syscall.IN_OPEN); err != nil {
		t.Fatal(err)
	}
	return func() bool {
		buf := make([]byte, 4096)
		n, err := syscall.Read(fd, buf)
		return err == nil && n > 0
	}
}
