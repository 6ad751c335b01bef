package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/journal"
	"github.com/jujutools/juju/internal/workspace"
	"github.com/jujutools/juju/sdk/abi"
)

// writeThroughJournal writes a file of root as a server would.
func writeThroughJournal(t *testing.T, dirs config.Dirs, root, path, content string) string {
	t.Helper()
	s, err := config.Resolve(config.Flags{Roots: []string{root}}, nil, root)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(workspace.FromSettings(s, dirs, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	req := &abi.ChangeRequest{Ops: []abi.ChangeOp{{Op: abi.OpWrite, Path: path, Length: int64(len(content))}}}
	res, e := ws.Journal.Apply(context.Background(), journal.Author{Client: "cli-test", Plugin: "core", Tool: "write_file"}, req, []byte(content))
	if e != nil {
		t.Fatal(e)
	}
	return res.ChangeID
}

func TestRollbackCommand(t *testing.T) {
	dirs := jujuHome(t)
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("old\n"), 0o644)
	first := writeThroughJournal(t, dirs, root, "a.txt", "new\n")
	second := writeThroughJournal(t, dirs, root, "b.txt", "b\n")

	juju := func(args ...string) (int, string, string) {
		var out, errw bytes.Buffer
		code := run(context.Background(), append([]string{"rollback", "--root", root}, args...), strings.NewReader(""), &out, &errw)
		return code, out.String(), errw.String()
	}

	code, out, _ := juju()
	if code != 0 || !strings.Contains(out, first) || !strings.Contains(out, second) || !strings.Contains(out, "write_file") {
		t.Fatalf("list: %d %q", code, out)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "new\n" {
		t.Fatal("listing changed a file")
	}
	code, out, _ = juju("--json")
	var list []changeJSON
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 2 || list[0].ID != second || list[0].Client != "cli-test" {
		t.Fatalf("json list: %d %q", code, out)
	}

	// A file changed by hand since: refused, then forced.
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("by hand\n"), 0o644)
	code, _, errs := juju(first)
	if code != exitError || !strings.Contains(errs, "a.txt") || !strings.HasSuffix(errs, "Look at the file, then add --force to overwrite it\n") {
		t.Fatalf("conflict: %d %q", code, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "by hand\n" {
		t.Fatal("changed despite the conflict")
	}
	code, out, errs = juju(strings.TrimPrefix(first, "c0000"), "--force")
	if code != 0 || !strings.Contains(out, first) {
		t.Fatalf("forced: %d %q %q", code, out, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "old\n" {
		t.Fatalf("not restored: %q", b)
	}
	// The hand edit --force overwrote comes back by the command it names.
	undo := regexp.MustCompile(`Undo this rollback with: juju rollback (c\d+)\n$`).FindStringSubmatch(out)
	if undo == nil {
		t.Fatalf("the forced rollback does not say how to undo it: %q", out)
	}
	if code, _, errs := juju(undo[1]); code != 0 {
		t.Fatalf("undoing the rollback: %d %q", code, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "by hand\n" {
		t.Fatalf("the hand edit did not come back: %q", b)
	}
	if code, _, errs := juju(strings.TrimPrefix(first, "c0000"), "--force"); code != 0 {
		t.Fatalf("forced again: %d %q", code, errs)
	}
	// --after undoes the later change.
	code, _, errs = juju("--after", first, "--json")
	if code != 0 {
		t.Fatalf("after: %d %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(root, "b.txt")); !os.IsNotExist(err) {
		t.Fatal("b.txt not removed")
	}
	if code, _, _ := juju("a", "b"); code != exitUsage {
		t.Fatalf("two ids: %d", code)
	}
	if code, _, _ := juju("--after"); code != exitUsage {
		t.Fatalf("--after alone: %d", code)
	}
	if code, _, errs := juju("c999"); code != exitError || !strings.Contains(errs, "no change c000999 in this workspace's journal; juju rollback alone lists them") {
		t.Fatalf("unknown: %d %q", code, errs)
	}
}

// --prune prunes to the config file's [journal] limits and says so;
// doctor reports what the journal then holds.
func TestRollbackPrune(t *testing.T) {
	dirs := jujuHome(t)
	root := t.TempDir()
	os.MkdirAll(dirs.Config, 0o700)
	os.WriteFile(dirs.ConfigFile(), []byte("[journal]\nmaxSizeMiB = 1\nmaxAgeDays = 0\n"), 0o600)
	var ids []string
	for _, c := range "abcd" {
		ids = append(ids, writeThroughJournal(t, dirs, root, "a.txt", strings.Repeat(string(c), 600<<10)))
	}
	var out, errw bytes.Buffer
	if code := run(context.Background(), []string{"rollback", "--root", root, "--prune"}, strings.NewReader(""), &out, &errw); code != 0 {
		t.Fatalf("--prune: %d %s", code, errw.String())
	}
	if !strings.Contains(out.String(), "Pruned 3 change(s), "+ids[0]+" to "+ids[2]) || !strings.Contains(out.String(), "up to 1 MiB") {
		t.Fatalf("--prune said:\n%s", out.String())
	}
	out.Reset()
	errw.Reset()
	if code := run(context.Background(), []string{"rollback", "--root", root, ids[0]}, strings.NewReader(""), &out, &errw); code != 1 || !strings.Contains(errw.String(), "was pruned") {
		t.Fatalf("rollback of a pruned change: %d %s", code, errw.String())
	}
	if code := run(context.Background(), []string{"rollback", "--prune", ids[0]}, strings.NewReader(""), &out, &errw); code != 2 {
		t.Fatalf("--prune with a change id: exit %d", code)
	}
	r, _ := doctorJSON(t, &doctorOptions{roots: []string{root}}, doctorEnv{dirs: dirs, open: notBuilt, cwd: root})
	if j := r.Journal; j == nil || j.Changes != 1 || j.OldestID != ids[3] || j.PrunedThrough != ids[2] || j.MaxSizeMiB != 1 || j.Bytes == 0 {
		t.Fatalf("doctor's journal: %+v", r.Journal)
	}
}

// juju rollback run in a subfolder of the workspace juju served finds no
// journal there: it says which workspace it looked at, names the one
// above with the --root to give, and makes no journal for the subfolder.
func TestRollbackInSubfolderPointsAbove(t *testing.T) {
	dirs := jujuHome(t)
	root := t.TempDir()
	id := writeThroughJournal(t, dirs, root, "a.txt", "new\n")
	sub := filepath.Join(root, "src")
	os.Mkdir(sub, 0o755)
	t.Chdir(sub)
	realRoot := config.RealRoot(root)

	var out, errw bytes.Buffer
	if code := run(context.Background(), []string{"rollback"}, strings.NewReader(""), &out, &errw); code != 0 {
		t.Fatalf("list: %d %s", code, errw.String())
	}
	if !strings.Contains(out.String(), "No change has been recorded in the workspace "+config.RealRoot(sub)+".") ||
		!strings.Contains(out.String(), "juju rollback --root "+realRoot) {
		t.Errorf("the list in a subfolder does not point to the workspace above:\n%s", out.String())
	}
	out.Reset()
	errw.Reset()
	if code := run(context.Background(), []string{"rollback", id}, strings.NewReader(""), &out, &errw); code != exitError ||
		!strings.Contains(errw.String(), "juju rollback --root "+realRoot) {
		t.Errorf("a rollback in a subfolder: %d %q", code, errw.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"rollback", "--json"}, strings.NewReader(""), &out, &errw); code != 0 || out.String() != "[]\n" {
		t.Errorf("--json in a subfolder: %d %q", code, out.String())
	}
	if _, err := os.Stat(dirs.Workspace([]string{sub})); !os.IsNotExist(err) {
		t.Errorf("listing made state for the subfolder: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "new\n" {
		t.Fatal("the rollback in a subfolder changed a file")
	}
}

// --limit 0 lists every change, as juju audit --limit 0 does; a negative
// one is a usage error, not "No change has been recorded".
func TestRollbackLimit(t *testing.T) {
	dirs := jujuHome(t)
	root := t.TempDir()
	for _, c := range "abc" {
		writeThroughJournal(t, dirs, root, string(c)+".txt", "x\n")
	}
	list := func(args ...string) (int, []changeJSON, string) {
		var out, errw bytes.Buffer
		code := run(context.Background(), append([]string{"rollback", "--root", root, "--json"}, args...), strings.NewReader(""), &out, &errw)
		var l []changeJSON
		json.Unmarshal(out.Bytes(), &l)
		return code, l, errw.String()
	}
	if code, l, errs := list("--limit", "2"); code != 0 || len(l) != 2 {
		t.Errorf("--limit 2: %d, %d changes, %s", code, len(l), errs)
	}
	if code, l, errs := list("--limit", "0"); code != 0 || len(l) != 3 {
		t.Errorf("--limit 0: %d, %d changes, %s", code, len(l), errs)
	}
	if code, _, errs := list("--limit", "-1"); code != exitUsage || !strings.Contains(errs, "--limit -1 must not be negative") {
		t.Errorf("--limit -1: %d %s", code, errs)
	}
}

// juju rollback --prune in a folder juju never served prunes nothing and,
// as a listing does, makes no journal (nor state) for it.
func TestRollbackPruneMakesNoJournal(t *testing.T) {
	dirs := jujuHome(t)
	root := t.TempDir()
	var out, errw bytes.Buffer
	if code := run(context.Background(), []string{"rollback", "--root", root, "--prune"}, strings.NewReader(""), &out, &errw); code != 0 {
		t.Fatalf("--prune: %d %s", code, errw.String())
	}
	if !strings.Contains(out.String(), "Nothing to prune: no change has been recorded in the workspace "+config.RealRoot(root)+".") {
		t.Errorf("--prune in a new workspace says:\n%s", out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"rollback", "--root", root, "--prune", "--json"}, strings.NewReader(""), &out, &errw); code != 0 ||
		!strings.Contains(out.String(), `"changes": 0`) {
		t.Errorf("--prune --json in a new workspace: %d %q", code, out.String())
	}
	if _, err := os.Stat(dirs.Workspace([]string{config.RealRoot(root)})); !os.IsNotExist(err) {
		t.Errorf("--prune made state for a workspace never served: %v", err)
	}
}
