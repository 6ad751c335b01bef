package fs

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
