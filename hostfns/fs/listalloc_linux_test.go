//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package fs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// TestListAllocations bounds what the host allocates to list a folder of
// 80 entries, packed as list_directory asks: nothing per entry (the names,
// paths and times share arenas, the stats one FileInfo). Each entry's
// name, path, time and stat made 445 allocations a listing.
func TestListAllocations(t *testing.T) {
	setRacyWindow(t, 0)
	f := newFixture(t, Options{})
	dir := filepath.Join(f.ws, "sub", "list80")
	must(t, os.MkdirAll(dir, 0o755))
	for i := range 80 {
		if i%4 == 0 {
			must(t, os.Mkdir(filepath.Join(dir, fmt.Sprintf("dir%02d", i)), 0o755))
			continue
		}
		must(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%02d.go", i)), []byte("package list\n"), 0o644))
	}
	hdr, err := json.Marshal(abi.ListRequest{Path: "sub/list80", Packed: true})
	must(t, err)
	ctx := context.Background()
	var body []byte
	n := testing.AllocsPerRun(50, func() {
		var h []byte
		if h, body = f.fns[abi.FnFSList](ctx, hdr, nil); strings.Contains(string(h), `"error"`) {
			t.Fatal(string(h))
		}
	})
	ents, plain, err := abi.DecodeEntries(body)
	if err != nil || !plain || len(ents) != 80 || ents[0].Path != "sub/list80/dir00" || ents[79].Name != "file79.go" {
		t.Fatalf("listing: %v, plain %v, %d entries: %s", err, plain, len(ents), names(ents))
	}
	t.Logf("%.0f allocations", n)
	if n > 80 {
		t.Errorf("a listing of 80 entries made %.0f allocations, want at most 80", n)
	}
}

// An arena's time is modTime's text, for years it has room for and for
// those it does not, and the texts it handed out before stay as they were.
func TestArenaTime(t *testing.T) {
	times := []time.Time{
		time.Date(2026, 12, 6, 10, 0, 0, 123456789, time.FixedZone("x", 3600)),
		time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		time.Date(12345, 1, 2, 3, 4, 5, 1, time.UTC),
		time.Date(-1, 1, 2, 3, 4, 5, 100, time.UTC),
		time.Unix(0, 0),
	}
	a := timeArena(2)
	var got []string
	for _, tm := range times {
		got = append(got, a.time(tm))
	}
	for i, tm := range times {
		if want := modTime(tm); got[i] != want {
			t.Errorf("time %d: got %q, want %q", i, got[i], want)
		}
	}
}
