//go:build unix

package journal

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// The crash tests re-execute this test binary as a writer (crashHelper)
// and kill it with SIGKILL in the middle of a multi-file change, then open
// the journal as the next juju process would and check that every file is
// entirely old or entirely new and that the journal agrees with the disk.

const (
	envHelper = "JUJU_JOURNAL_CRASH_HELPER" // "points" or "loop"
	envRoot   = "JUJU_JOURNAL_CRASH_ROOT"
	envState  = "JUJU_JOURNAL_CRASH_STATE"
	envKillAt = "JUJU_JOURNAL_CRASH_KILL_AT"
	envTaken  = "JUJU_JOURNAL_CRASH_TAKEN" // the suffix of the first temporary name tried
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(envHelper); mode != "" {
		crashHelper(mode)
		os.Exit(3) // not reached when killed
	}
	os.Exit(m.Run())
}

// crashFiles is the workspace before the change.
var crashFiles = map[string]string{
	"a.txt":        "a old\n",
	"b.txt":        "b old\n",
	"dir/c.txt":    "c old\n",
	"gone.txt":     "to delete\n",
	"mv/from.txt":  "moved content\n",
	"keep/k.txt":   "untouched\n",
	"crlf.txt":     "x\r\ny\r\n",
	"tree/x/y.txt": "deep\n",
}

// crashChange is a change touching many paths in every way.
func crashChange(gen int) (*abi.ChangeRequest, []byte) {
	req := &abi.ChangeRequest{}
	var body []byte
	add := func(op abi.ChangeOp, content string) {
		if op.Op == abi.OpWrite {
			op.Length = int64(len(content))
			body = append(body, content...)
		}
		req.Ops = append(req.Ops, op)
	}
	g := strconv.Itoa(gen)
	add(abi.ChangeOp{Op: abi.OpWrite, Path: "a.txt"}, "a gen "+g+"\n")
	add(abi.ChangeOp{Op: abi.OpWrite, Path: "b.txt"}, "b gen "+g+"\n")
	add(abi.ChangeOp{Op: abi.OpWrite, Path: "dir/c.txt"}, "c gen "+g+"\n")
	add(abi.ChangeOp{Op: abi.OpWrite, Path: "new/sub/n.txt"}, "n gen "+g+"\n")
	if gen == 1 {
		add(abi.ChangeOp{Op: abi.OpDelete, Path: "gone.txt"}, "")
		add(abi.ChangeOp{Op: abi.OpMove, Path: "mv/from.txt", To: "mv2/to.txt"}, "")
		add(abi.ChangeOp{Op: abi.OpEdit, Path: "crlf.txt", OldString: "x\ny", NewString: "X\nY"}, "")
		add(abi.ChangeOp{Op: abi.OpDelete, Path: "tree", Recursive: true}, "")
	}
	return req, body
}

// crashHelper is the writer process.
func crashHelper(mode string) {
	pol, err := policy.New(policy.Config{Roots: []string{os.Getenv(envRoot)}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	killAt := os.Getenv(envKillAt)
	if taken := os.Getenv(envTaken); taken != "" {
		tempSuffix = firstSuffix(taken)
	}
	j, err := Open(os.Getenv(envState), pol, WithFault(func(p string) {
		if p == killAt {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Hour)
		}
	}))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if c, ok := crashChanges[mode]; ok {
		req, body := c.change()
		if _, e := j.Apply(context.Background(), who, req, body); e != nil {
			fmt.Fprintln(os.Stderr, e)
			os.Exit(2)
		}
		j.Wait()
		os.Exit(0)
	}
	for gen := 2; ; gen++ { // loop: rewrite the files until killed
		req, body := crashChange(gen)
		if _, e := j.Apply(context.Background(), who, req, body); e != nil {
			fmt.Fprintln(os.Stderr, e)
			os.Exit(2)
		}
	}
}

func runHelper(t *testing.T, mode, root, state, killAt string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envHelper+"="+mode, envRoot+"="+root, envState+"="+state, envKillAt+"="+killAt)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	return cmd
}

// killedBySIGKILL reports whether the helper died of SIGKILL.
func killedBySIGKILL(err error) bool {
	ee, ok := err.(*exec.ExitError)
	if !ok {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// crashCase is a change a writer makes once and is killed in.
type crashCase struct {
	files  map[string]string // the workspace before it
	modes  map[string]os.FileMode
	change func() (*abi.ChangeRequest, []byte)
}

// workspace makes the workspace before the change.
func (c crashCase) workspace(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t, c.files)
	for p, m := range c.modes {
		if err := os.Chmod(filepath.Join(f.root, p), m); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// crashChanges are the changes the writer makes once, by the helper's
// mode: "points" is crashChange(1); "mode" makes a.sh executable, and
// nothing else of it, and edits b.txt.
var crashChanges = map[string]crashCase{
	"points": {files: crashFiles, change: func() (*abi.ChangeRequest, []byte) { return crashChange(1) }},
	"mode": {
		files: map[string]string{"a.sh": "echo hi\n", "b.txt": "one\n"},
		modes: map[string]os.FileMode{"a.sh": 0o644},
		change: func() (*abi.ChangeRequest, []byte) {
			patch := "diff --git a/a.sh b/a.sh\nold mode 100644\nnew mode 100755\n" +
				"diff --git a/b.txt b/b.txt\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-one\n+two\n"
			return &abi.ChangeRequest{Ops: []abi.ChangeOp{{Op: abi.OpPatch, Patch: patch}}}, nil
		},
	},
}

// crashPoints are the steps of crashChange(1) the writer can die at.
func crashPoints(t *testing.T) []string {
	return crashChanges["points"].points(t)
}

// points are the steps of c's change the writer can die at.
func (c crashCase) points(t *testing.T) []string {
	f := c.workspace(t)
	req, body := c.change()
	d, e := f.j.build(context.Background(), who, req, body)
	if e != nil {
		t.Fatal(e)
	}
	var points []string
	// A new content is written to an unnamed file while the intent
	// commits, where the system has them and the folder exists already.
	probe, err := writeUnnamed(f.pol.Roots()[0].OS, ".", []byte("x"), 0)
	unnamed := err == nil
	if unnamed {
		probe.close()
	}
	steps := d.prepare().steps
	for i, s := range steps {
		if fi, err := os.Stat(filepath.Join(f.root, filepath.Dir(s.rel))); unnamed && s.after.Kind == kindFile && err == nil && fi.IsDir() {
			points = append(points, fmt.Sprintf("unnamed:%d", i))
		}
	}
	points = append(points, "intent")
	for i, s := range steps {
		points = append(points, fmt.Sprintf("write:%d", i))
		if s.after.Kind == kindFile {
			points = append(points, fmt.Sprintf("temp:%d", i))
		}
		points = append(points, fmt.Sprintf("rename:%d", i))
	}
	return append(points, "commit")
}

func TestCrashAtEveryStep(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a writer per step")
	}
	if n := len(crashPoints(t)); n < 20 {
		t.Fatalf("only %d kill points; the change should touch more paths", n)
	}
	crashAtEveryStep(t, "points")
}

// A path whose mode alone changes is a change like any other: killed at
// any step of a patch that makes a.sh executable and edits b.txt, a.sh is
// executable exactly when b.txt holds its new line and the journal records
// the change.
func TestCrashAtEveryStepOfAModeChange(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a writer per step")
	}
	crashAtEveryStep(t, "mode")
}

// crashAtEveryStep kills a writer making the change of crashChanges[mode]
// at each of its steps, and checks that the disk holds the state before
// it or after it, as the journal says.
func crashAtEveryStep(t *testing.T, mode string) {
	c := crashChanges[mode]
	points := c.points(t)
	// The state after the change, from a run that is not killed.
	done := c.workspace(t)
	req, body := c.change()
	if _, e := done.j.Apply(context.Background(), who, req, body); e != nil {
		t.Fatal(e)
	}
	newTree := tree(t, done.root)
	for _, at := range append(points, "none") {
		t.Run(at, func(t *testing.T) {
			root := filepathClean(c.workspace(t).root)
			oldTree := tree(t, root)
			if equalTrees(oldTree, newTree) {
				t.Fatal("the change changes nothing tree sees")
			}
			state := filepath.Join(t.TempDir(), "state")
			err := runHelper(t, mode, root, state, at).Run()
			if at == "none" {
				if err != nil {
					t.Fatalf("writer failed: %v", err)
				}
			} else if !killedBySIGKILL(err) {
				t.Fatalf("the writer was not killed at %s: %v", at, err)
			}
			f := reopen(t, root, state)
			got := tree(t, root)
			changes, err := f.j.Changes(time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case equalTrees(got, oldTree):
				if len(changes) != 0 {
					t.Fatalf("the disk holds the old state but the journal records %d change(s)", len(changes))
				}
			case equalTrees(got, newTree):
				if len(changes) != 1 {
					t.Fatalf("the disk holds the new state but the journal records %d change(s)", len(changes))
				}
				// And it can be undone.
				if _, err := f.j.Rollback(context.Background(), who, changes[0].ID, false); err != nil {
					t.Fatal(err)
				}
				if !equalTrees(tree(t, root), oldTree) {
					t.Fatalf("rollback after recovery did not restore the old state:\n%s", diffTrees(tree(t, root), oldTree))
				}
			default:
				t.Fatalf("killed at %s: the disk is a mix of old and new:\nagainst old:\n%s\nagainst new:\n%s", at, diffTrees(got, oldTree), diffTrees(got, newTree))
			}
			noTemps(t, root)
		})
	}
}

func TestCrashAtRandomTimes(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns writers")
	}
	rounds := 15
	for round := range rounds {
		root := newFixture(t, crashFiles).root
		state := filepath.Join(t.TempDir(), "state")
		cmd := runHelper(t, "loop", root, state, "")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(20+rand.IntN(150)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		if err := cmd.Wait(); !killedBySIGKILL(err) {
			t.Fatalf("round %d: the writer ended before it was killed: %v", round, err)
		}
		f := reopen(t, root, state)
		// Every file written by the loop holds the same generation.
		gens := map[string]bool{}
		for _, p := range []string{"a.txt", "b.txt", "dir/c.txt", "new/sub/n.txt"} {
			b, err := os.ReadFile(filepath.Join(root, p))
			if err != nil {
				if os.IsNotExist(err) && p == "new/sub/n.txt" {
					gens["old"] = true
					continue
				}
				t.Fatal(err)
			}
			fields := strings.Fields(string(b))
			gens[fields[len(fields)-1]] = true
		}
		if len(gens) != 1 {
			t.Fatalf("round %d: files of different changes on disk: %v", round, gens)
		}
		// The journal's last change left exactly what is on disk.
		changes, err := f.j.Changes(time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if len(changes) > 0 {
			last, err := f.j.Change(changes[len(changes)-1].ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, fc := range last.Files {
				if fc.SHA256After == "" {
					continue
				}
				b, err := os.ReadFile(filepath.Join(root, fc.Path))
				if err != nil || sum(b) != fc.SHA256After {
					t.Fatalf("round %d: %s does not hold what change %s left", round, fc.Path, last.ID)
				}
			}
		}
		noTemps(t, root)
	}
}

// reopen opens the journal as the next process would, which settles what
// the killed writer left.
func reopen(t *testing.T, root, state string) *fixture {
	t.Helper()
	pol, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pol.Close() })
	j, err := Open(state, pol)
	if err != nil {
		t.Fatal(err)
	}
	// What juju stdio does at start: settle what the killed writer left.
	if err := j.Recover(); err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, root: root, state: state, pol: pol, j: j}
}

func filepathClean(p string) string { return filepath.Clean(p) }

// TestRecoveryKeepsLaterWork: what the owner writes after a crash and
// before the next juju starts is never undone. Killed halfway, the change
// is undone, but a path holding neither its old nor its new state — the
// owner's edit of a file juju had replaced, a file the owner created
// where the change would have — is left as it is; killed after its last
// write, the change is kept, and the owner's edit too.
func TestRecoveryKeepsLaterWork(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns writers")
	}
	points := crashPoints(t)
	done := newFixture(t, crashFiles)
	req, body := crashChange(1)
	if _, e := done.j.Apply(context.Background(), who, req, body); e != nil {
		t.Fatal(e)
	}
	newTree := tree(t, done.root)
	const mine = "the owner's own work\n"
	for _, at := range []string{points[len(points)/2], "commit"} {
		t.Run(at, func(t *testing.T) {
			root := filepathClean(newFixture(t, crashFiles).root)
			oldTree := tree(t, root)
			state := filepath.Join(t.TempDir(), "state")
			if err := runHelper(t, "points", root, state, at).Run(); !killedBySIGKILL(err) {
				t.Fatalf("the writer was not killed at %s: %v", at, err)
			}
			// The owner edits a file the change had already replaced, and
			// creates one where the change had not yet written.
			var edited, created string
			now := tree(t, root)
			for _, p := range []string{"a.txt", "b.txt", "dir/c.txt"} {
				if now[p] == newTree[p] && edited == "" {
					edited = p
				}
			}
			if _, err := os.Stat(filepath.Join(root, "new/sub/n.txt")); os.IsNotExist(err) {
				created = "new/sub/n.txt"
			}
			if edited == "" || (at != "commit") != (created != "") {
				t.Fatalf("killed at %s: no replaced file (%q) or a created one where expected (%q)", at, edited, created)
			}
			want := oldTree
			if at == "commit" {
				want = newTree
			}
			want = maps.Clone(want)
			for _, p := range []string{edited, created} {
				if p == "" {
					continue
				}
				if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, p), []byte(mine), 0o644); err != nil {
					t.Fatal(err)
				}
				mineTree := tree(t, root)
				want[p] = mineTree[p]
				for d := filepath.Dir(p); d != "."; d = filepath.Dir(d) {
					want[d+"/"] = mineTree[d+"/"]
				}
			}
			f := reopen(t, root, state)
			if got := tree(t, root); !equalTrees(got, want) {
				t.Fatalf("killed at %s, after the owner wrote %s and %s:\n%s", at, edited, created, diffTrees(got, want))
			}
			changes, err := f.j.Changes(time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if kept := len(changes) == 1; kept != (at == "commit") {
				t.Fatalf("killed at %s: the journal records %d change(s)", at, len(changes))
			}
			noTemps(t, root)
		})
	}
}

// TestUnmarkedChangeIsKept: the done mark is written after the answer.
// When the journal cannot write it (a full disk past the reserve), the
// files keep the change the answer reported, its record stays pending,
// and the next write settles it as made.
func TestUnmarkedChangeIsKept(t *testing.T) {
	f := newFixture(t, crashFiles, func(o *options) { o.finishFault = errors.New("no space left on device") })
	req, body := crashChange(1)
	res, e := f.j.Apply(context.Background(), who, req, body)
	if e != nil {
		t.Fatalf("the change failed: %v", e)
	}
	f.j.Wait()
	want := tree(t, f.root)
	if !strings.HasSuffix(want["a.txt"], ":a gen 1\n") {
		t.Fatalf("a.txt holds %q after the change", want["a.txt"])
	}
	if changes, err := f.j.Changes(time.Time{}); err != nil || len(changes) != 0 {
		t.Fatalf("a change without its done mark is listed: %v %v", changes, err)
	}
	f.j.opts.finishFault = nil
	if err := f.j.Recover(); err != nil {
		t.Fatal(err)
	}
	changes, err := f.j.Changes(time.Time{})
	if err != nil || len(changes) != 1 || changes[0].ID != res.ChangeID {
		t.Fatalf("changes after the next write: %v %v, want %s", changes, err, res.ChangeID)
	}
	if got := tree(t, f.root); !equalTrees(got, want) {
		t.Fatalf("settling the change changed the files:\n%s", diffTrees(got, want))
	}
	noTemps(t, f.root)
}

// TestRecoveryTellsTheObserver: a change a killed writer left pending
// changes files when recovery settles it, outside any call, so recovery
// tells the journal's observer (which moves the approvals' epoch) of the
// paths it put back, or of those of the change it kept; it told nobody,
// and an approval given while the change was pending held on files that
// had changed since.
func TestRecoveryTellsTheObserver(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns writers")
	}
	points := crashPoints(t)
	// Killed halfway, the change is undone; killed at the
	// commit, after every write, it is kept.
	for _, at := range []string{points[len(points)/2], "commit"} {
		t.Run(at, func(t *testing.T) {
			root := filepathClean(newFixture(t, crashFiles).root)
			state := filepath.Join(t.TempDir(), "state")
			if err := runHelper(t, "points", root, state, at).Run(); !killedBySIGKILL(err) {
				t.Fatalf("the writer was not killed at %s: %v", at, err)
			}
			pol, err := policy.New(policy.Config{Roots: []string{root}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { pol.Close() })
			var told [][]Touched
			j, err := Open(state, pol, WithObserver(func(t []Touched) { told = append(told, t) }))
			if err != nil {
				t.Fatal(err)
			}
			killed := tree(t, root)
			if err := j.Recover(); err != nil {
				t.Fatal(err)
			}
			if len(told) != 1 {
				t.Fatalf("the observer was told %d times, want once: %v", len(told), told)
			}
			got := map[string]string{}
			for _, p := range told[0] {
				rel, err := filepath.Rel(root, p.Path)
				if err != nil {
					t.Fatal(err)
				}
				got[filepath.ToSlash(rel)] = p.Action
			}
			if at == "commit" {
				if got["a.txt"] != abi.ActionModified || got["new/sub/n.txt"] != abi.ActionCreated || got["gone.txt"] != abi.ActionDeleted {
					t.Errorf("the kept change told %v", got)
				}
			} else {
				recovered := tree(t, root)
				changed := 0
				for p := range mapsKeys(killed, recovered) {
					if killed[p] != recovered[p] {
						changed++
						if _, ok := got[strings.TrimSuffix(p, "/")]; !ok {
							t.Errorf("recovery changed %s and did not say so: told %v", p, got)
						}
					}
				}
				if changed == 0 || got["a.txt"] != abi.ActionModified {
					t.Errorf("recovery changed %d paths; told %v", changed, got)
				}
			}
			// Settled, it is told no more.
			told = nil
			if err := j.Recover(); err != nil || len(told) != 0 {
				t.Fatalf("a second recovery: %v, told %v", err, told)
			}
		})
	}
}

// mapsKeys is the set of the keys of a and b.
func mapsKeys(a, b map[string]string) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}
