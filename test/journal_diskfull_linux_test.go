package test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/jujutools/juju/internal/testfs"
)

// The workspace and juju's journal on one disk (the usual case), filled to
// a random level before each write and rollback: every call that fails
// says the disk is full (TOO_LARGE) and leaves the file as it was, every
// call that succeeds is recorded, no temporary file is left, and once
// space is freed the next write works. A disk the change's own files
// filled after its intent left changes written and not recorded
// (INTERNAL). It needs a small file system of its own (a tmpfs, as root).
func TestDiskFullSharedWithTheJournal(t *testing.T) {
	top := testfs.SmallDisk(t, "8m")
	root, home, filler := filepath.Join(top, "ws"), filepath.Join(top, "home"), filepath.Join(top, "filler")
	os.Mkdir(root, 0o755)
	os.Mkdir(home, 0o700)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("start\n"), 0o644)
	s := startHome(t, home, root, "--mode", "trusted")
	rng := rand.New(rand.NewPCG(1, 2))
	cur, made := "start\n", 0
	check := func(what string, res map[string]any, isErr bool, want string) {
		t.Helper()
		got := disk(t, root, "a.txt")
		switch {
		case isErr && res["code"] != "TOO_LARGE":
			t.Fatalf("%s: %v: %v", what, res["code"], res["message"])
		case isErr && got != cur:
			t.Fatalf("%s failed but a.txt changed", what)
		case !isErr && got != want:
			t.Fatalf("%s succeeded but a.txt does not hold it", what)
		case !isErr:
			cur = got
			made++
		}
		noTempFiles(t, root)
	}
	for i := range 40 {
		fillLeaving(t, top, filler, int64(rng.IntN(40))*4096)
		content := strings.Repeat(fmt.Sprintf("%d-", i), rng.IntN(8000)+1) + "\n"
		res := s.call("write_file", map[string]any{"path": "a.txt", "content": content})
		check(fmt.Sprintf("write %d", i), structured(t, res), res.IsError, content)
		if rng.IntN(3) == 0 {
			h := structured(t, s.call("change_history", map[string]any{"limit": 1}))
			last := h["changes"].([]any)[0].(map[string]any)
			before := last["files"].([]any)[0].(map[string]any)["sha256Before"]
			res := s.call("rollback_changes", map[string]any{"changeId": last["id"]})
			want := cur
			if !res.IsError {
				want = disk(t, root, "a.txt")
				if sha(want) != before {
					t.Fatalf("rollback %d did not put back the old content", i)
				}
			}
			check(fmt.Sprintf("rollback %d", i), structured(t, res), res.IsError, want)
			// A rollback puts back content the client may never have
			// read: its next write is FILE_CHANGED until it reads again.
			s.ok("read_file", map[string]any{"path": "a.txt"})
		}
	}
	os.Remove(filler)
	s.ok("write_file", map[string]any{"path": "a.txt", "content": "end\n"})
	h := structured(t, s.call("change_history", map[string]any{"limit": 100}))
	if n := len(h["changes"].([]any)); n != made+1 {
		t.Fatalf("%d changes recorded, %d made", n, made+1)
	}
}

// fillLeaving fills the disk of dir with the file filler, leaving about
// leave bytes free.
// fillFull fills dir's disk with filler to its last byte: fillLeaving's
// whole blocks, then the bytes a block left, one at a time.
func fillFull(t *testing.T, dir, filler string) {
	t.Helper()
	fillLeaving(t, dir, filler, 0)
	f, err := os.OpenFile(filler, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	for err == nil {
		_, err = f.Write([]byte{0})
	}
	f.Close()
}

func fillLeaving(t *testing.T, dir, filler string, leave int64) {
	t.Helper()
	os.Remove(filler)
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	n := int64(st.Bavail)*st.Bsize - leave
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for ; n > 0; n -= int64(len(buf)) {
		if _, err := f.Write(buf); err != nil {
			return
		}
	}
}
