package journal

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// firstSuffix makes the first temporary name tried end in taken, and the
// others in random suffixes as juju's do.
func firstSuffix(taken string) func() string {
	random, first := tempSuffix, true
	return func() string {
		if first {
			first = false
			return taken
		}
		return random()
	}
}

// squat puts someone else's things at names juju might take for its
// temporary files beside rel: the names juju once used, which anyone could
// foresee (.juju-c000001-0.tmp), as folders that are not empty and as
// files, and extra, the name it tries first when a test rigs tempSuffix.
// It returns what it made, as tree lists it.
func squat(t *testing.T, root, rel string, changes, steps int, extra string) map[string]string {
	t.Helper()
	dir := filepath.Join(root, filepath.FromSlash(path.Dir(rel)))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{extra}
	for c := 1; c <= changes; c++ {
		for i := range steps {
			names = append(names, fmt.Sprintf(".juju-c%06d-%d.tmp", c, i))
		}
	}
	for k, name := range names {
		p := filepath.Join(dir, name)
		var err error
		if k%2 == 0 {
			err = os.WriteFile(p, []byte("someone's\n"), 0o644)
		} else if err = os.MkdirAll(filepath.Join(p, "x"), 0o755); err == nil {
			err = os.WriteFile(filepath.Join(p, "x", "y"), []byte("y\n"), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	mine := tree(t, root)
	for k := range mine {
		if !strings.Contains(k, ".juju-") {
			delete(mine, k)
		}
	}
	return mine
}

// without is t without the paths of squatted.
func without(t map[string]string, squatted map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range t {
		if _, ok := squatted[k]; !ok {
			out[k] = v
		}
	}
	return out
}

// A temporary name ends in a random suffix, and one taken already is passed
// over: folders and files at the names juju would once have used, or at
// the first it tries, stop no write (they made every write_file INTERNAL)
// and are neither deleted nor written, by a change or its rollback.
func TestTempNamesCannotBeTaken(t *testing.T) {
	f := newFixture(t, map[string]string{"a.txt": "a\n"})
	squatted := squat(t, f.root, "a.txt", 4, 2, ".juju-c000001-0-taken.tmp")
	defer func(s func() string) { tempSuffix = s }(tempSuffix)
	tempSuffix = firstSuffix("taken")
	for i := range 3 {
		f.mustApply(write("a.txt", fmt.Sprintf("v%d\n", i)))
	}
	ch, err := f.j.Changes(time.Time{})
	if err != nil || len(ch) != 3 {
		t.Fatalf("changes %v %v", ch, err)
	}
	if _, err := f.j.Rollback(context.Background(), who, ch[0].ID, true); err != nil {
		t.Fatal(err)
	}
	if f.read("a.txt") != "a\n" {
		t.Fatalf("a.txt holds %q after the rollback", f.read("a.txt"))
	}
	got := tree(t, f.root)
	for k, v := range squatted {
		if got[k] != v {
			t.Errorf("%s: %q, want someone's %q left alone", k, got[k], v)
		}
	}
	if left := without(got, squatted); len(left) != 1 {
		t.Errorf("left beside a.txt: %v", left)
	}
}
