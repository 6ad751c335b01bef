package fs

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/testfs"
)

// LeftOut names, each by its exact path anchored at the root with glob
// characters escaped, what a walk leaves out: .gitignore'd entries (of the
// root's file, a nested one and .git/info/exclude), secrets, juju's own
// folder (existing or not), and a file denied by a glob written from a
// root nested inside. It enters neither what it names nor .git, and reads
// no .gitignore that is a link.
func TestLeftOut(t *testing.T) {
	home := testfs.Workspace(t, map[string]string{
		".git/info/exclude":        "excluded.txt\n",
		".gitignore":               "*.log\nbuild/\n",
		"a.go":                     "",
		"excluded.txt":             "",
		"x.log":                    "",
		"build/out.go":             "",
		".env":                     "",
		".config/juju/token":       "",
		"proj/main.go":             "",
		"proj/gen/secret.txt":      "",
		"sub/.gitignore":           "*.tmp\n",
		"sub/a.tmp":                "",
		"sub/[weird] *name?.tmp":   "",
		"linked/.gitignore":        "->" + "../sub/.gitignore",
		"linked/a.tmp":             "",
		"linked/deeper/.gitignore": "*\n",
	})
	p, err := policy.New(policy.Config{
		Roots:   []string{home, filepath.Join(home, "proj")},
		Deny:    []string{"gen/secret.txt"},
		Private: []string{filepath.Join(home, ".config/juju"), filepath.Join(home, ".cache/juju")},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r, e := p.Resolve(".")
	if e != nil {
		t.Fatal(e)
	}
	out, e := LeftOut(context.Background(), p, r, 100)
	if e != nil {
		t.Fatal(e)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	slices.Sort(got)
	got = slices.Compact(got) // juju's own folder is named twice: it is private, and the walk met it
	want := []string{
		"/.cache/juju", "/.config/juju", "/.env", "/build", "/excluded.txt",
		"/linked/deeper/.gitignore", "/proj/gen/secret.txt",
		`/sub/\[weird\]\ \*name\?.tmp`, "/sub/a.tmp", "/x.log",
	}
	if !slices.Equal(got, want) {
		t.Errorf("LeftOut:\n got  %q\n want %q", got, want)
	}
}

// LeftOuts, walking a folder again, reads anew only what changed, and
// returns what a fresh LeftOut does right after each change: a new
// ignored file in a folder with no subfolder (known by a stat), a
// .gitignore edited in place at the same size, a secret added, the
// root's .gitignore and .git/info/exclude edited, a folder replaced by a
// link, a new folder.
func TestLeftOutsSeesChanges(t *testing.T) {
	home := testfs.Workspace(t, map[string]string{
		".git/info/exclude":  "excluded.txt\n",
		".gitignore":         "*.log\n",
		"a.go":               "",
		"excluded.txt":       "",
		"src/pkg/leaf/x.go":  "",
		"src/pkg/other/y.go": "",
		"src/.gitignore":     "*.tmp\n",
		"src/z.tmp":          "",
		"src/z.tm2":          "",
		"docs/readme.md":     "",
	})
	setRacyWindow(t, 50*time.Millisecond)
	time.Sleep(2 * racyWindow) // the fixture's stamps settle
	p, r := resolvedRoot(t, home)
	var c LeftOuts
	key := leftOutsKey{r.Root, r.Rel, 100}
	walk := func(step string, want, notWant []string) {
		t.Helper()
		got, e := c.LeftOut(context.Background(), p, r, 100)
		if e != nil {
			t.Fatal(e)
		}
		fresh, e := LeftOut(context.Background(), p, r, 100)
		if e != nil {
			t.Fatal(e)
		}
		lines := func(b []byte) []string {
			l := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			slices.Sort(l)
			return slices.Compact(l)
		}
		if g, f := lines(got), lines(fresh); !slices.Equal(g, f) {
			t.Errorf("%s: LeftOuts %q, LeftOut %q", step, g, f)
		}
		for _, w := range want {
			if !slices.Contains(lines(got), w) {
				t.Errorf("%s: %q not left out: %q", step, w, lines(got))
			}
		}
		for _, w := range notWant {
			if slices.Contains(lines(got), w) {
				t.Errorf("%s: %q left out: %q", step, w, lines(got))
			}
		}
	}
	write := func(rel, content string) {
		t.Helper()
		full := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	walk("first", []string{"/excluded.txt", "/src/z.tmp"}, []string{"/src/z.tm2"})
	walk("again", nil, nil)
	if read := c.trees[key].read; read != 0 {
		t.Fatalf("a walk with nothing changed read %d folders anew", read)
	}
	// change walks once more after racyWindow, so that every folder is
	// trusted, makes the change and walks right after it.
	change := func(step string, do func(), want, notWant []string) {
		t.Helper()
		time.Sleep(2 * racyWindow)
		walk(step+" (before)", nil, nil)
		do()
		walk(step, want, notWant)
	}
	change("ignored file added to a leaf", func() { write("src/pkg/leaf/new.log", "") }, []string{"/src/pkg/leaf/new.log"}, nil)
	if read := c.trees[key].read; read != 1 {
		t.Errorf("a file added to one folder had %d folders read anew", read)
	}
	// Same size, same folder entries.
	change(".gitignore edited", func() { write("src/.gitignore", "*.tm2\n") }, []string{"/src/z.tm2"}, []string{"/src/z.tmp"})
	change("ignored file added to a folder with subfolders", func() { write("src/pkg/p.log", "") }, []string{"/src/pkg/p.log"}, nil)
	change("secret added", func() { write("src/pkg/other/.env", "TOKEN=1\n") }, []string{"/src/pkg/other/.env"}, nil)
	change("root .gitignore edited", func() { write(".gitignore", "*.log\n*.go\n") }, []string{"/a.go", "/src/pkg/leaf/x.go", "/src/pkg/other/y.go"}, nil)
	change(".git/info/exclude edited", func() { write(".git/info/exclude", "docs/\n") }, []string{"/docs"}, []string{"/excluded.txt"})
	change("both edited back", func() {
		write(".git/info/exclude", "")
		write(".gitignore", "*.md\n")
	}, []string{"/docs/readme.md"}, []string{"/a.go", "/docs"})
	write("elsewhere/readme.md", "")
	change("folder replaced by a link", func() {
		if err := os.RemoveAll(filepath.Join(home, "docs")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("elsewhere", filepath.Join(home, "docs")); err != nil {
			t.Fatal(err)
		}
	}, []string{"/elsewhere/readme.md"}, []string{"/docs/readme.md"})
	change("folder added to a leaf", func() { write("src/pkg/leaf/deeper/k.pem", "") }, []string{"/src/pkg/leaf/deeper/k.pem"}, nil)
}

// A folder whose stamp is more recent than racyWindow is read anew, even
// unchanged: a change in the same clock tick would leave the stamp as it
// was.
func TestLeftOutsDistrustsRecentStamps(t *testing.T) {
	home := testfs.Workspace(t, map[string]string{"a/b/c.go": "", "a/d/e.go": "", "f.go": ""})
	setRacyWindow(t, time.Hour) // however slow the machine, the fixture is recent
	p, r := resolvedRoot(t, home)
	var c LeftOuts
	for range 2 {
		if _, e := c.LeftOut(context.Background(), p, r, 100); e != nil {
			t.Fatal(e)
		}
	}
	tr := c.trees[leftOutsKey{r.Root, r.Rel, 100}]
	if tr.read != tr.folders || tr.folders != 4 {
		t.Errorf("walked again within racyWindow of the fixture's making: %d of %d folders read anew, want all 4", tr.read, tr.folders)
	}
}
