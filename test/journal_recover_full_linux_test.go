package test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/jujutools/juju/internal/testfs"
	"golang.org/x/sys/unix"
)

// juju killed (SIGKILL) as apply_changes replaces 200 files, and the disk
// full when the next juju settles the change: the change stays pending and
// a write says why (TOO_LARGE), and the first write once there is room
// puts every file back. The files juju had replaced stayed new beside the
// old ones, for good, and the change was dropped from the journal.
func TestCrashedChangeOnAFullDiskIsUndoneOnceThereIsRoom(t *testing.T) {
	const n = 200
	top := testfs.SmallDisk(t, "64m")
	root, home, filler := filepath.Join(top, "ws"), filepath.Join(top, "home"), filepath.Join(top, "filler")
	os.Mkdir(root, 0o755)
	os.Mkdir(home, 0o700)
	os.Symlink(sharedCache, filepath.Join(home, "cache"))
	name := func(i int) string { return fmt.Sprintf("f%03d.txt", i) }
	for i := range n {
		os.WriteFile(filepath.Join(root, name(i)), []byte("old\n"), 0o644)
	}
	var ops []map[string]any
	for i := range n {
		ops = append(ops, map[string]any{"op": "write", "path": name(i), "content": "new\n"})
	}
	count := func() map[string]int {
		c := map[string]int{}
		for i := range n {
			b, _ := os.ReadFile(filepath.Join(root, name(i)))
			c[string(b)]++
		}
		return c
	}
	halfway := false
	for try := 0; try < 5 && !halfway; try++ {
		killAtFirstRename(t, home, root, ops)
		halfway = count()["new\n"] > 0 && count()["old\n"] > 0
	}
	if !halfway {
		t.Fatalf("juju was never killed halfway through the change: %v", count())
	}
	// The crash left the other 199 new contents as temporary files, which
	// recovery removes first, freeing their room for the put-backs. Gone
	// before the disk is filled, they free nothing: the put-backs need room.
	temps, _ := filepath.Glob(filepath.Join(root, ".juju-*.tmp"))
	for _, p := range temps {
		os.Remove(p)
	}
	fillFull(t, top, filler)
	s := startHome(t, home, root, "--mode", "trusted")
	if msg := s.fail("write_file", map[string]any{"path": "x.txt", "content": "x\n"}, "TOO_LARGE"); !strings.Contains(msg, "full") || !strings.Contains(msg, "put back") {
		t.Fatalf("the write on the full disk does not say what waits: %s", msg)
	}
	os.Remove(filler)
	s.ok("write_file", map[string]any{"path": "x.txt", "content": "x\n"})
	if c := count(); c["old\n"] != n {
		t.Fatalf("once there is room the workspace is still a mix of old and new: %v", c)
	}
}

// killAtFirstRename starts juju, previews writing ops, applies the plan
// and kills juju as soon as a file is renamed into root.
func killAtFirstRename(t *testing.T, home, root string, ops []map[string]any) {
	t.Helper()
	cmd := exec.Command(jujuBin, "stdio", "--root", root, "--mode", "trusted")
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	send := func(v any) {
		b, _ := json.Marshal(v)
		io.WriteString(in, string(b)+"\n")
	}
	io.WriteString(in, initializeLine+"\n")
	sc.Scan()
	send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	send(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{"name": "preview_changes", "arguments": map[string]any{"operations": ops}}})
	var plan string
	for plan == "" && sc.Scan() {
		var m struct {
			ID     int `json:"id"`
			Result struct {
				StructuredContent struct {
					PlanID string `json:"planId"`
				} `json:"structuredContent"`
			} `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &m) == nil && m.ID == 2 {
			plan = m.Result.StructuredContent.PlanID
			if plan == "" {
				t.Fatalf("preview_changes: %s", sc.Bytes())
			}
		}
	}
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
	if err != nil {
		t.Skipf("no inotify: %v", err)
	}
	defer syscall.Close(fd)
	if _, err := syscall.InotifyAddWatch(fd, root, syscall.IN_MOVED_TO); err != nil {
		t.Fatal(err)
	}
	send(map[string]any{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": map[string]any{"name": "apply_changes", "arguments": map[string]any{"planId": plan}}})
	// Bounded, should the plan never be applied.
	if n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 60_000); n != 1 {
		t.Fatalf("no file was renamed into the workspace in a minute: %v", err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
}

// halfwayName is the name of the i-th file of a change crashHalfway makes.
func halfwayName(i int) string { return fmt.Sprintf("f%03d.txt", i) }

// oldFiles writes n files holding "old" into root, for crashHalfway.
func oldFiles(root string, n int) {
	for i := range n {
		os.WriteFile(filepath.Join(root, halfwayName(i)), []byte("old\n"), 0o644)
	}
}

// crashHalfway kills a juju on home as apply_changes replaces root's n
// files (oldFiles) with "new", at its first rename, until a kill leaves
// old and new files mixed (five tries at most, the files written old
// again after a try that replaced them all), and returns a file the
// crash replaced.
func crashHalfway(t *testing.T, home, root string, n int) string {
	t.Helper()
	var ops []map[string]any
	for i := range n {
		ops = append(ops, map[string]any{"op": "write", "path": halfwayName(i), "content": "new\n"})
	}
	for range 5 {
		killAtFirstRename(t, home, root, ops)
		replaced, olds := "", 0
		for i := range n {
			switch b, _ := os.ReadFile(filepath.Join(root, halfwayName(i))); string(b) {
			case "new\n":
				replaced = halfwayName(i)
			case "old\n":
				olds++
			}
		}
		if replaced != "" && olds > 0 {
			return replaced
		}
		oldFiles(root, n) // every file was replaced: no mix to see
	}
	t.Fatal("juju was never killed halfway through the change")
	return ""
}

// juju killed as apply_changes replaces 200 files, then a new juju's
// first call reads a file the change had replaced: it sees the file as
// the settled workspace holds it (old), never the mix the crash left,
// though the settling runs in the background after initialize.
func TestFirstReadAfterACrashSeesNoMix(t *testing.T) {
	const n = 200
	root := t.TempDir()
	home := newHome(t)
	oldFiles(root, n)
	replaced := crashHalfway(t, home, root, n)
	s := startHome(t, home, root, "--mode", "trusted")
	if got := s.ok("read_file", map[string]any{"path": replaced}); !strings.Contains(got, "old") || strings.Contains(got, "new") {
		t.Fatalf("the first read after the crash saw the change's half: %s", got)
	}
}
