package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMessages(t *testing.T) {
	f := newFixture(t)
	for path, words := range map[string][]string{
		"link-out":        {"symbolic link", "outside"},
		"link-out-dir/x":  {"symbolic link", "outside"},
		"dangling":        {"symbolic link", "missing.txt", "does not exist"},
		"../x":            {"outside the workspace", f.wslink},
		".env":            {"secret"},
		"to-state":        {"juju's own state"},
		"loop1":           {"loop"},
		"a.txt/x":         {"is a file, not a folder"},
		"build/secret-da": {"does not exist"},
	} {
		_, e := f.p.Resolve(path)
		if e == nil {
			t.Fatalf("Resolve(%q) succeeded", path)
		}
		for _, w := range words {
			if !strings.Contains(e.Message, w) {
				t.Errorf("Resolve(%q): %q lacks %q", path, e.Message, w)
			}
		}
	}
}

// BenchmarkResolveOpen is the policy's share of a tiny read_file: Open,
// which makes an *os.File, OpenRead, and ResolveRegular, which fs.read
// tries first.
func BenchmarkResolveOpen(b *testing.B) {
	dir := b.TempDir()
	mustDo(b, os.MkdirAll(filepath.Join(dir, "a/b/c"), 0o755))
	mustDo(b, os.WriteFile(filepath.Join(dir, "a/b/c/file.go"), []byte("package c\n"), 0o644))
	p, err := New(Config{Roots: []string{dir}})
	mustDo(b, err)
	defer p.Close()
	for _, o := range openers {
		b.Run(o.name, func(b *testing.B) {
			for b.Loop() {
				r, e := p.Resolve("a/b/c/file.go")
				if e != nil {
					b.Fatal(e)
				}
				f, e := o.open(p, r)
				if e != nil {
					b.Fatal(e)
				}
				f.Close()
			}
		})
	}
	b.Run("OpenRead/absolute", func(b *testing.B) {
		abs := filepath.Join(dir, "a/b/c/file.go")
		for b.Loop() {
			r, e := p.Resolve(abs)
			if e != nil {
				b.Fatal(e)
			}
			f, _, e := p.OpenRead(r)
			if e != nil {
				b.Fatal(e)
			}
			f.Close()
		}
	})
	b.Run("ResolveRegular", func(b *testing.B) {
		for b.Loop() {
			_, f, _, ok := p.ResolveRegular("a/b/c/file.go")
			if !ok {
				b.Skip("ResolveRegular takes no fast way on this system")
			}
			f.Close()
		}
	})
}

// BenchmarkHidden is the check list_directory makes of each entry of a
// folder of 80, under the default secrets.
func BenchmarkHidden(b *testing.B) {
	p, err := New(Config{Roots: []string{b.TempDir()}})
	mustDo(b, err)
	defer p.Close()
	root := p.Roots()[0]
	rels := make([]string, 80)
	for i := range rels {
		rels[i] = fmt.Sprintf("list80/file%02d.go", i)
	}
	for b.Loop() {
		for _, rel := range rels {
			if p.Hidden(root, rel) {
				b.Fatal(rel, "is hidden")
			}
		}
	}
}
