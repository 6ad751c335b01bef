package state

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

func call(t *testing.T, fns []hostfns.Func, name, plugin string, req abi.StateRequest, body []byte) (map[string]any, []byte) {
	t.Helper()
	ctx := hostfns.WithCaller(context.Background(), hostfns.Caller{Plugin: plugin})
	h, _ := json.Marshal(req)
	for _, f := range fns {
		if f.Name == name {
			if f.Capability != abi.CapState {
				t.Fatalf("%s needs %s", name, f.Capability)
			}
			rh, rb := f.Handle(ctx, h, body)
			var m map[string]any
			if err := json.Unmarshal(rh, &m); err != nil {
				t.Fatal(err)
			}
			return m, rb
		}
	}
	t.Fatalf("no %s", name)
	return nil, nil
}

func TestState(t *testing.T) {
	dir := t.TempDir()
	fns := New(dir)
	m, _ := call(t, fns, abi.FnStateGet, "p1", abi.StateRequest{Key: "todos"}, nil)
	if m["found"] != false {
		t.Fatalf("fresh: %v", m)
	}
	call(t, fns, abi.FnStatePut, "p1", abi.StateRequest{Key: "todos"}, []byte("[1]"))
	m, b := call(t, fns, abi.FnStateGet, "p1", abi.StateRequest{Key: "todos"}, nil)
	if m["found"] != true || string(b) != "[1]" {
		t.Fatalf("get: %v %q", m, b)
	}
	// Each plugin has its own space.
	if m, _ := call(t, fns, abi.FnStateGet, "p2", abi.StateRequest{Key: "todos"}, nil); m["found"] != false {
		t.Fatal("p2 sees p1's value")
	}
	call(t, fns, abi.FnStatePut, "p1", abi.StateRequest{Key: "todos", Delete: true}, nil)
	if m, _ := call(t, fns, abi.FnStateGet, "p1", abi.StateRequest{Key: "todos"}, nil); m["found"] != false {
		t.Fatal("not deleted")
	}
	for _, k := range []string{"", "..", "../x", "a/b", "x y", "CON", "nul.txt", "com1", "Lpt9.json", "aux"} {
		m, _ := call(t, fns, abi.FnStatePut, "p1", abi.StateRequest{Key: k}, []byte("v"))
		if e, _ := m["error"].(map[string]any); e == nil || e["code"] != string(abi.InvalidArgument) {
			t.Errorf("key %q: %v", k, m)
		}
	}
	for _, k := range []string{"console", "nul-x", "com10", "lpt", "a.con"} {
		if m, _ := call(t, fns, abi.FnStatePut, "p1", abi.StateRequest{Key: k}, []byte("v")); m["error"] != nil {
			t.Errorf("key %q refused: %v", k, m)
		}
		call(t, fns, abi.FnStatePut, "p1", abi.StateRequest{Key: k, Delete: true}, nil)
	}
	m, _ = call(t, fns, abi.FnStatePut, "p1", abi.StateRequest{Key: "big"}, make([]byte, MaxValue+1))
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != string(abi.TooLarge) {
		t.Errorf("big: %v", m)
	}
	var left []string
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			left = append(left, p)
		}
		return nil
	})
	if len(left) != 0 {
		t.Fatalf("files left (temporaries or deleted keys): %v", left)
	}
}

// TestStateIsBounded: a plugin's space holds at most MaxKeys keys and
// MaxTotal bytes; a key already there may always be rewritten within them,
// a deleted key makes room, and another plugin's space is counted apart.
func TestStateIsBounded(t *testing.T) {
	fns := New(t.TempDir())
	put := func(plugin, key string, n int) string {
		m, _ := call(t, fns, abi.FnStatePut, plugin, abi.StateRequest{Key: key}, make([]byte, n))
		if e, _ := m["error"].(map[string]any); e != nil {
			return e["code"].(string)
		}
		return ""
	}
	for i := range MaxKeys {
		if code := put("p1", fmt.Sprint("k", i), 10); code != "" {
			t.Fatalf("key %d of %d: %s", i, MaxKeys, code)
		}
	}
	if code := put("p1", "one-more", 10); code != string(abi.TooLarge) {
		t.Fatalf("key %d: %q, want TOO_LARGE", MaxKeys+1, code)
	}
	if code := put("p1", "k0", 100); code != "" {
		t.Fatalf("rewriting a key at the bound: %s", code)
	}
	call(t, fns, abi.FnStatePut, "p1", abi.StateRequest{Key: "k1", Delete: true}, nil)
	if code := put("p1", "one-more", 10); code != "" {
		t.Fatalf("a key after a delete: %s", code)
	}
	for i := range MaxTotal / MaxValue {
		if code := put("p2", fmt.Sprint("v", i), MaxValue); code != "" {
			t.Fatalf("value %d: %s", i, code)
		}
	}
	if code := put("p2", "past", MaxValue); code != string(abi.TooLarge) {
		t.Fatalf("a value past %d MiB: %q, want TOO_LARGE", MaxTotal>>20, code)
	}
}

// Puts at once do not pass the bound together: the room check and the
// write are one step.
func TestStateBoundHoldsUnderConcurrentPuts(t *testing.T) {
	dir := t.TempDir()
	fns := New(dir)
	for i := range MaxTotal/MaxValue - 1 {
		m, _ := call(t, fns, abi.FnStatePut, "p", abi.StateRequest{Key: fmt.Sprint("v", i)}, make([]byte, MaxValue))
		if m["error"] != nil {
			t.Fatalf("value %d: %v", i, m["error"])
		}
	}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			call(t, fns, abi.FnStatePut, "p", abi.StateRequest{Key: fmt.Sprint("late", i)}, make([]byte, MaxValue))
		})
	}
	wg.Wait()
	var total int64
	entries, _ := os.ReadDir(filepath.Join(dir, "state", "p"))
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			total += fi.Size()
		}
	}
	if total > MaxTotal {
		t.Errorf("%d bytes stored, past %d", total, MaxTotal)
	}
}

// Remove deletes the state of every install of its plugin in every
// workspace given, and no other plugin's: one whose name starts with the
// same letters keeps its own.
func TestRemoveTakesOnlyItsPlugin(t *testing.T) {
	ws := []string{t.TempDir(), t.TempDir(), t.TempDir()}
	for i, w := range ws[:2] {
		for _, f := range []string{Folder("foo", ""), Folder("foo", fmt.Sprintf("%016x", i)), Folder("foo-bar", ""), Folder("foobar", "0123456789abcdef")} {
			os.MkdirAll(filepath.Join(w, "state", f), 0o700)
			os.WriteFile(filepath.Join(w, "state", f, "token"), []byte("t"), 0o600)
		}
	}
	n, err := Remove(ws, "foo")
	if err != nil || n != 2 {
		t.Fatalf("Remove = %d, %v; want 2 workspaces", n, err)
	}
	for _, w := range ws[:2] {
		left, _ := os.ReadDir(filepath.Join(w, "state"))
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		if fmt.Sprint(names) != "[foo-bar foobar.0123456789abcdef]" {
			t.Errorf("%s holds %v after removing foo", w, names)
		}
	}
}
