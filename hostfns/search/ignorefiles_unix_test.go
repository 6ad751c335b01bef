//go:build unix

package search

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// TestIgnoreFilesRgNeverReads: .gitignore files that are not regular
// files inside the root are read by neither engine, as juju's own walk
// reads none: one linked to /dev/zero (rg read it to its 1 GiB cap), a
// FIFO (rg waited for a writer until the time cap), one linked to a file
// outside the roots (rg read it, and its content decided what was
// searched), and one in the folder above the root. A regular .gitignore
// inside the root is honoured by both, for names with glob characters too.
func TestIgnoreFilesRgNeverReads(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "root")
	outside := filepath.Join(top, "outside.txt")
	files := map[string]string{
		"top.txt":                "needle\n",
		"zero/a.txt":             "needle\n",
		"fifo/b.txt":             "needle\n",
		"out/c.txt":              "needle\n",
		"kept/d.txt":             "needle\n",
		"kept/.gitignore":        "*.txt\n",
		"kept/[w] {x,y} *z?.txt": "needle\n",
		"../.gitignore":          "*.txt\n",
		"../outside.txt":         "*.txt\n",
	}
	for name, content := range files {
		full := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"zero/.gitignore": "/dev/zero", "out/.gitignore": outside} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo/.gitignore"), 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	p := newPolicy(t, root)
	want := []string{"fifo/b.txt", "out/c.txt", "top.txt", "zero/a.txt"}
	for engine, opts := range engines(t) {
		start := time.Now()
		res := call(t, p, opts, abi.SearchRequest{Pattern: "needle", Mode: abi.SearchFiles, TimeoutMs: 10_000})
		took := time.Since(start)
		var got []string
		for _, f := range res.Files {
			got = append(got, f.Path)
		}
		slices.Sort(got)
		if res.Error != nil || !slices.Equal(got, want) || res.Partial || res.Aborted || res.Changed || took > 5*time.Second {
			t.Errorf("%s: files %v in %v (%+v); want %v at once", engine, got, took.Round(time.Millisecond), res, want)
		}
	}
}
