package fs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func scanAll(t *testing.T, f *fixture, path string, opts ScanOptions) (string, bool) {
	t.Helper()
	var got []string
	truncated, e := Scan(context.Background(), f.p, path, opts, func(sf ScanFile) {
		if sf.Dir != strings.TrimSuffix(sf.Path[:len(sf.Path)-len(sf.Name)], "/") && sf.Dir != "." {
			t.Errorf("%s: dir %q", sf.Path, sf.Dir)
		}
		got = append(got, sf.Path)
	})
	if e != nil {
		t.Fatalf("Scan: %v", e)
	}
	slices.Sort(got)
	return strings.Join(got, " "), truncated
}

// Scan sees what glob sees — .gitignore and .git/info/exclude respected,
// secrets, denied paths and .git withheld, symlinks neither followed nor
// reported — and skips the folders it is told to.
func TestScan(t *testing.T) {
	f := newFixture(t, Options{})
	got, truncated := scanAll(t, f, "", ScanOptions{Skip: []string{"node_modules"}})
	want := ".gitignore a.txt bin.dat crlf.txt data/key-copy.txt data/key.bin empty.txt keep.log keys/README lines.txt nonl.txt sub/.gitignore sub/b.go sub/c_test.go sub/deep/d_test.go"
	if got != want || truncated {
		t.Errorf("Scan:\n got %s\nwant %s (truncated %v)", got, want, truncated)
	}
	if got, _ := scanAll(t, f, "sub", ScanOptions{}); got != "sub/.gitignore sub/b.go sub/c_test.go sub/deep/d_test.go" {
		t.Errorf("Scan of sub: %s", got)
	}
	if got, truncated := scanAll(t, f, "sub", ScanOptions{MaxDepth: 1}); got != "sub/.gitignore sub/b.go sub/c_test.go sub/deep/d_test.go" || truncated {
		t.Errorf("Scan of sub, depth 1: %s (truncated %v)", got, truncated)
	}
	if got, truncated := scanAll(t, f, "", ScanOptions{MaxDepth: 1, Skip: []string{"node_modules"}}); strings.Contains(got, "d_test.go") || !strings.Contains(got, "sub/b.go") || !truncated {
		t.Errorf("Scan, depth 1: %s (truncated %v)", got, truncated)
	}
	if got, truncated := scanAll(t, f, "", ScanOptions{MaxFiles: 3}); len(strings.Fields(got)) != 3 || !truncated {
		t.Errorf("Scan, 3 files: %s (truncated %v)", got, truncated)
	}
}

func TestScanRefuses(t *testing.T) {
	f := newFixture(t, Options{})
	for path, code := range map[string]string{"../outside": "PATH_DENIED", "a.txt": "INVALID_ARGUMENT", "nope": "NOT_FOUND", ".git": "PATH_DENIED"} {
		_, e := Scan(context.Background(), f.p, path, ScanOptions{}, func(ScanFile) { t.Errorf("%s: visited", path) })
		if e == nil || string(e.Code) != code {
			t.Errorf("Scan(%q) = %v, want %s", path, e, code)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, e := Scan(ctx, f.p, "", ScanOptions{}, func(ScanFile) {}); e == nil || e.Code != "TIMEOUT" {
		t.Errorf("Scan with a done context = %v, want TIMEOUT", e)
	}
}

// A file or folder whose name is not UTF-8 is not offered: no path can
// name it (the policy refuses it), and its display form, U+FFFD in its
// place, would name another file — a discoverer read it back and warned
// NOT_FOUND.
func TestScanSkipsNamesThatAreNotUTF8(t *testing.T) {
	f := newFixture(t, Options{})
	for _, p := range []string{"bad\xffdir/package.json", "sub/bad\xfe.go", "ok\u00e9/x.go"} {
		full := filepath.Join(f.ws, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := scanAll(t, f, "", ScanOptions{Skip: []string{"node_modules"}})
	if strings.Contains(got, "bad") || strings.ContainsRune(got, utf8.RuneError) || !strings.Contains(got, "ok\u00e9/x.go") {
		t.Errorf("Scan: %q", got)
	}
}

// A Scan stops at its deadline inside one folder too: a visit may cost
// much (discover matches each file against every discoverer's globs),
// and a folder may hold many files.
func TestScanStopsWithinAFolder(t *testing.T) {
	f := newFixture(t, Options{})
	dir := filepath.Join(f.ws, "many")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const n = 4 * scanCheckEvery
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	visits := 0
	_, e := Scan(ctx, f.p, "many", ScanOptions{}, func(ScanFile) {
		visits++
		cancel() // the call's time runs out during the first visit
	})
	if e == nil || e.Code != "TIMEOUT" || visits > scanCheckEvery {
		t.Errorf("Scan = %v after %d of %d visits, want TIMEOUT within %d", e, visits, n, scanCheckEvery)
	}
}

// A folder deeper than MaxDepth leaves out what is below it, not the rest
// of the walk: one deep branch (a Java package's folders) met first made
// project_overview count 0 files of a tree of 100,000.
func TestScanDepthBoundLeavesOutOnlyTheDeepFolders(t *testing.T) {
	f := newFixture(t, Options{})
	var want []string
	for i := range 10 {
		for _, p := range []string{fmt.Sprintf("tree/a%d/x.txt", i), fmt.Sprintf("tree/a%d/b/c/d/deep.txt", i)} {
			full := filepath.Join(f.ws, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want = append(want, fmt.Sprintf("tree/a%d/x.txt", i))
	}
	got, truncated := scanAll(t, f, "tree", ScanOptions{MaxDepth: 1})
	if got != strings.Join(want, " ") || !truncated {
		t.Errorf("Scan with MaxDepth 1 = %q, truncated %v; want %q, truncated", got, truncated, strings.Join(want, " "))
	}
}
