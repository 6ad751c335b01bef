package test

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/jujutools/juju/sandbox"
)

// A crafted index is a way out of the work tree: git reads a tracked file
// at the index's name for it, and checks names only when it adds one, so
// an index naming "../…/notes.txt" made git_diff print that file, outside
// every root, as a change (and /etc/passwd, or any file the owner can
// read, with the sandbox's read-only view of the disk). A confined
// command can write .git/index (git add must), and a project unpacked from
// an archive brings its own. The git tools that read the work tree refuse
// such an index, from any folder, until the owner rebuilds it; the
// staged changes and the log still read.
func TestGitReadsRefuseAnIndexNamingFilesOutsideTheWorkTree(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n", "sub/b.txt": "b\n"})
	git := func(args ...string) string { t.Helper(); return gitIn(t, root, args...) }
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-q", "-m", "first")
	out := outside(t)
	if err := os.WriteFile(filepath.Join(out, "notes.txt"), []byte("OUTSIDE-THE-ROOTS\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(root, filepath.Join(out, "notes.txt"))
	if err != nil || !strings.HasPrefix(rel, "../") {
		t.Fatalf("the outside file is not outside the root: %s, %v", rel, err)
	}
	blob := strings.TrimSpace(git("hash-object", "-w", "--", "a.txt"))
	good := readFile(t, filepath.Join(root, ".git", "index"))
	bad := craftIndex(t, blob, "a.txt", "sub/b.txt", rel, strings.Repeat("../", 16)+"etc/passwd")
	if err := os.WriteFile(filepath.Join(root, ".git", "index"), bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if ls := git("ls-files"); !strings.Contains(ls, rel) {
		t.Fatalf("git does not read the crafted index: %s", ls)
	}

	leaked := func(s string) bool {
		return strings.Contains(s, "OUTSIDE-THE-ROOTS") || strings.Contains(s, "root:x:0:0")
	}
	check := func(s *session, mode string) {
		t.Helper()
		// From a subfolder first: the bad names are not below it, and the
		// whole index is judged all the same.
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"git_status", map[string]any{"cwd": "sub"}},
			{"git_diff", map[string]any{}},
			{"git_diff", map[string]any{"cwd": "sub"}},
			{"git_status", map[string]any{}},
		} {
			res := s.call(c.tool, c.args)
			if leaked(text(res)) {
				t.Fatalf("%s: %s %v printed a file outside the work tree through the index: %s", mode, c.tool, c.args, text(res))
			}
			if !res.IsError || !strings.HasPrefix(text(res), "PATH_DENIED: ") || !strings.Contains(text(res), "index") {
				t.Errorf("%s: %s %v over an index naming files outside the work tree: want PATH_DENIED naming the index, got %s", mode, c.tool, c.args, text(res))
			}
		}
		if o := s.ok("project_overview", map[string]any{}); leaked(o) {
			t.Errorf("%s: project_overview printed a file outside the work tree: %s", mode, o)
		}
		// What reads no work tree file still serves.
		if d := s.ok("git_diff", map[string]any{"staged": true}); leaked(d) {
			t.Errorf("%s: git_diff staged: %s", mode, d)
		}
		s.ok("git_log", map[string]any{})
	}
	s := start(t, root, "--mode", "inspect", "--sandbox", "off")
	check(s, "sandbox off")

	// Rebuilt by the owner, the index serves again; crafted anew (a
	// version the check has not seen), it is refused again.
	if err := os.WriteFile(filepath.Join(root, ".git", "index"), good, 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, root, "a.txt", "changed\n")
	if d := s.ok("git_diff", map[string]any{}); !strings.Contains(d, "+changed") {
		t.Fatalf("git_diff over the rebuilt index: %s", d)
	}
	if err := os.WriteFile(filepath.Join(root, ".git", "index"), bad, 0o644); err != nil {
		t.Fatal(err)
	}
	s.fail("git_diff", map[string]any{}, "PATH_DENIED")

	// The reads' sandbox shows the disk read-only, /etc/passwd and the
	// outside folder included: it does not stand in for the check.
	if !sandboxWorks() {
		return
	}
	check(start(t, root, "--mode", "inspect", "--sandbox", "require"), "sandbox required")
}

// craftIndex returns a git index (version 2) holding names, each a regular
// file of the blob blob, with no stat data: the names unchecked, as git
// reads them.
func craftIndex(t *testing.T, blob string, names ...string) []byte {
	t.Helper()
	oid, err := hex.DecodeString(blob)
	if err != nil || len(oid) != 20 {
		t.Fatalf("not a SHA-1 object name: %q", blob)
	}
	sort.Strings(names)
	var b bytes.Buffer
	b.WriteString("DIRC")
	binary.Write(&b, binary.BigEndian, []uint32{2, uint32(len(names))})
	for _, n := range names {
		start := b.Len()
		// ctime, mtime (seconds, nanoseconds), dev, ino, mode, uid, gid, size
		binary.Write(&b, binary.BigEndian, []uint32{0, 0, 0, 0, 0, 0, 0o100644, 0, 0, 2})
		b.Write(oid)
		binary.Write(&b, binary.BigEndian, uint16(min(len(n), 0xfff)))
		b.WriteString(n)
		pad := 8 - (b.Len()-start)%8
		b.Write(make([]byte, pad))
	}
	sum := sha1.Sum(b.Bytes())
	b.Write(sum[:])
	return b.Bytes()
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sandboxWorks reports whether bubblewrap works here.
func sandboxWorks() bool {
	return sandbox.DetectBubblewrap(context.Background()).Available
}
