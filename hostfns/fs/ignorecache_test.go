package fs

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// parses returns how many ignore files the cache has parsed so far.
func parses() int64 {
	ignoreCache.Lock()
	defer ignoreCache.Unlock()
	return ignoreParses
}

// TestListKeepsIgnoreFilesParsed checks that a listing takes the ignore
// files it read before from the cache (.git/info/exclude, the root's
// .gitignore and the folder's own), and reads one again once it changed,
// even when the change kept its size and its modification time: the
// change time, which no call sets, tells it.
func TestListKeepsIgnoreFilesParsed(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ignore files are cached on Linux only")
	}
	setRacyWindow(t, 0) // every file read counts as settled
	f := newFixture(t, Options{})
	list := func(path string) abi.ListResult {
		t.Helper()
		var res abi.ListResult
		f.call(t, abi.FnFSList, abi.ListRequest{Path: path}, &res)
		noErr(t, "list "+path, res.Status)
		return res
	}
	list("sub")
	before := parses()
	if res := list("sub"); names(res.Entries) != ".gitignore:file b.go:file c_test.go:file deep:dir" || res.Ignored != 1 {
		t.Fatalf("list sub again: %s (ignored %d)", names(res.Entries), res.Ignored)
	}
	if n := parses() - before; n != 0 {
		t.Fatalf("a second listing of an unchanged folder parsed %d ignore files, want 0", n)
	}

	// sub/.gitignore ignored gen/; now c_test.go, same size, same mtime.
	name := filepath.Join(f.ws, "sub", ".gitignore")
	fi, err := os.Stat(name)
	must(t, err)
	must(t, os.WriteFile(name, []byte("c_t*\n"), 0o644))
	time.Sleep(10 * time.Millisecond) // past a coarse clock's tick
	must(t, os.Chtimes(name, fi.ModTime(), fi.ModTime()))
	if res := list("sub"); names(res.Entries) != ".gitignore:file b.go:file deep:dir gen:dir" || res.Ignored != 1 {
		t.Fatalf("list sub after its .gitignore changed: %s (ignored %d)", names(res.Entries), res.Ignored)
	}

	// The root's .gitignore applies from above: build/ and *.log.
	must(t, os.WriteFile(filepath.Join(f.ws, "build", "b.log"), nil, 0o644))
	if res := list("build"); names(res.Entries) != "out.o:file" || res.Ignored != 1 {
		t.Fatalf("list build: %s (ignored %d)", names(res.Entries), res.Ignored)
	}
	root := filepath.Join(f.ws, ".gitignore")
	fi, err = os.Stat(root)
	must(t, err)
	must(t, os.WriteFile(root, []byte("build/\n*.lug\n!keep.log\n"), 0o644))
	time.Sleep(10 * time.Millisecond)
	must(t, os.Chtimes(root, fi.ModTime(), fi.ModTime()))
	if res := list("build"); names(res.Entries) != "b.log:file out.o:file" || res.Ignored != 0 {
		t.Fatalf("list build after the root's .gitignore changed: %s (ignored %d)", names(res.Entries), res.Ignored)
	}
}
