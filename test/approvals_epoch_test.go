package test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// The script the held command runs, before and after a client rewrites it.
const (
	benignScript = "touch BENIGN_RAN\n"
	evilScript   = "touch EVIL_RAN\n"
)

// exists reports whether root holds name.
func exists(root, name string) bool {
	_, err := os.Stat(filepath.Join(root, name))
	return err == nil
}

// An approval covers the call as the workspace stood when the owner was
// asked: "bash s.sh" approved, then s.sh rewritten through juju (here by
// another juju process, as a second client could), does not run; the
// owner is asked again, told why, and the old approval shows as stale.
// Approved again, the call runs.
func TestApprovalIsSpentWhenTheWorkspaceChanged(t *testing.T) {
	root := workspace(t, map[string]string{"s.sh": benignScript})
	home := gateHome(t, 300*time.Millisecond)
	s := startGate(t, home, root, "edit", "epoch-e2e", nil)
	args := map[string]any{"command": "bash s.sh"}

	id := pendingIn(t, s.fail("run_command", args, "APPROVAL_PENDING"))
	juju(t, home, root, "approvals", "approve", id)
	writer := startGate(t, home, root, "edit", "writer-e2e", nil)
	writer.ok("write_file", map[string]any{"path": "s.sh", "content": evilScript})

	msg := s.fail("run_command", args, "APPROVAL_PENDING")
	if exists(root, "EVIL_RAN") {
		t.Fatal("the approved command ran the script rewritten after the approval")
	}
	again := pendingIn(t, msg)
	if again == id || !strings.Contains(msg, "workspace changed") || !strings.Contains(msg, id) {
		t.Errorf("the retry after the change must ask again, saying why and naming %s: %s", id, msg)
	}
	list := juju(t, home, root, "approvals", "--all")
	if !strings.Contains(list, "stale") || !strings.Contains(list, again+": the workspace changed") {
		t.Errorf("juju approvals --all does not show %s stale and why %s asks again:\n%s", id, again, list)
	}

	juju(t, home, root, "approvals", "approve", again)
	s.ok("run_command", args)
	if !exists(root, "EVIL_RAN") {
		t.Fatal("approved again after the change, the command did not run")
	}
}

// Workspaces may overlap: the owner's other client serves a folder inside
// this workspace (its own state folder, its own epoch). A script it
// rewrites after the owner approved running it here is a change to this
// workspace too: the approval is spent, and the owner asked again.
func TestApprovalIsSpentWhenAnOverlappingWorkspaceChanged(t *testing.T) {
	root := workspace(t, map[string]string{"sub/s.sh": benignScript})
	home := gateHome(t, 300*time.Millisecond)
	s := startGate(t, home, root, "edit", "epoch-e2e", nil)
	args := map[string]any{"command": "bash sub/s.sh"}

	id := pendingIn(t, s.fail("run_command", args, "APPROVAL_PENDING"))
	juju(t, home, root, "approvals", "approve", id)
	writer := startGate(t, home, filepath.Join(root, "sub"), "edit", "writer-e2e", nil)
	writer.ok("write_file", map[string]any{"path": "s.sh", "content": evilScript})

	msg := s.fail("run_command", args, "APPROVAL_PENDING")
	if exists(root, "EVIL_RAN") {
		t.Fatal("the approved command ran the script another workspace over the same folder rewrote after the approval")
	}
	if again := pendingIn(t, msg); again == id || !strings.Contains(msg, "workspace changed") {
		t.Errorf("the retry after the change must ask again, saying why: %s", msg)
	}
}

// The same while the call waits: the workspace changes after the call was
// held and before the owner approves it; their approval does not run it,
// a new approval waits, and approving that one runs it.
func TestApprovalWhileWaitingIsRenewedWhenTheWorkspaceChanged(t *testing.T) {
	root := workspace(t, map[string]string{"s.sh": benignScript})
	home := gateHome(t, 30*time.Second)
	s := startGate(t, home, root, "edit", "epoch-wait-e2e", nil)
	writer := startGate(t, home, root, "edit", "writer-e2e", nil)

	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, _ := s.callErr("run_command", map[string]any{"command": "bash s.sh"})
		done <- res
	}()
	first := pendingID(t, home, t.TempDir(), "run_command")
	writer.ok("write_file", map[string]any{"path": "s.sh", "content": evilScript})
	juju(t, home, root, "approvals", "approve", first)

	var second string
	deadline := time.Now().Add(15 * time.Second)
	for second == "" || second == first {
		if time.Now().After(deadline) {
			t.Fatalf("no new approval after the change:\n%s", juju(t, home, root, "approvals", "--all"))
		}
		second = pendingID(t, home, t.TempDir(), "run_command")
	}
	if exists(root, "EVIL_RAN") {
		t.Fatal("the command ran on an approval given after the workspace changed")
	}
	juju(t, home, root, "approvals", "approve", second)
	if res := <-done; res == nil || res.IsError || !exists(root, "EVIL_RAN") {
		t.Fatalf("approved again, the waiting command: %v", res)
	}
}

// changingElicitor accepts every question and, while the first writes
// questions are open, rewrites s.sh through another juju process: a
// concurrent write landing while the owner reads the prompt.
type changingElicitor struct {
	mu     sync.Mutex
	asked  []string
	writes int
	writer *gateSession
}

func (e *changingElicitor) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.asked = append(e.asked, req.Params.Message)
	if len(e.asked) <= e.writes {
		e.writer.callErr("write_file", map[string]any{"path": "s.sh", "content": evilScript})
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"approve": true}}}, nil
}

func (e *changingElicitor) questions() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.asked...)
}

// A yes given in the client while the workspace changed through juju is
// not taken: the owner is asked again, the question saying why, and their
// second yes runs the call. With both ways of asking.
func TestElicitationAnswerGivenWhileTheWorkspaceChanged(t *testing.T) {
	for _, version := range []string{mcp.LATEST_PROTOCOL_VERSION, mcp.LATEST_LEGACY_PROTOCOL_VERSION} {
		t.Run(version, func(t *testing.T) {
			root := workspace(t, map[string]string{"s.sh": benignScript})
			home := gateHome(t, 20*time.Second)
			e := &changingElicitor{writes: 1, writer: startGate(t, home, root, "edit", "writer-e2e", nil)}
			s := startGateVersion(t, home, root, "edit", "epoch-elicit-e2e", version, e)

			s.ok("run_command", map[string]any{"command": "bash s.sh"})
			q := e.questions()
			if len(q) != 2 {
				t.Fatalf("asked %d times, want twice: %q", len(q), q)
			}
			if strings.Contains(q[0], "workspace changed") || !strings.HasPrefix(q[1], "The workspace changed through juju while you were asked") {
				t.Errorf("only the second question says the workspace changed: %q", q)
			}
			if !exists(root, "EVIL_RAN") || exists(root, "BENIGN_RAN") {
				t.Error("the call did not run the script as it stood when the owner said yes the second time")
			}
		})
	}
}

// A client that changes the workspace each time the owner is asked is
// refused once the owner was asked twice, saying why, and nothing runs.
func TestElicitationRefusedWhileTheWorkspaceKeepsChanging(t *testing.T) {
	root := workspace(t, map[string]string{"s.sh": benignScript})
	home := gateHome(t, 20*time.Second)
	e := &changingElicitor{writes: 1000, writer: startGate(t, home, root, "edit", "writer-e2e", nil)}
	s := startGateVersion(t, home, root, "edit", "epoch-elicit-e2e", mcp.LATEST_LEGACY_PROTOCOL_VERSION, e)

	msg := s.fail("run_command", map[string]any{"command": "bash s.sh"}, "APPROVAL_DENIED")
	if !strings.Contains(msg, "workspace changed") || !strings.Contains(msg, "nothing was done") {
		t.Errorf("the refusal must say why: %s", msg)
	}
	if n := len(e.questions()); n != 2 {
		t.Errorf("asked %d times, want 2", n)
	}
	if exists(root, "EVIL_RAN") || exists(root, "BENIGN_RAN") {
		t.Error("a call refused for the changes ran")
	}
}

// An approval recorded by a juju that kept no epoch has none: the files
// may have changed through that juju after the owner approved, unnoted.
// After the upgrade its retry does not run under it, even in a workspace
// no juju has noted a change of since: the owner is asked again.
func TestApprovalWithoutEpochIsSpent(t *testing.T) {
	root := workspace(t, map[string]string{"s.sh": benignScript})
	home := gateHome(t, 300*time.Millisecond)
	s := startGate(t, home, root, "edit", "epoch-old-e2e", nil)
	args := map[string]any{"command": "bash s.sh"}

	id := pendingIn(t, s.fail("run_command", args, "APPROVAL_PENDING"))
	dirs, _ := filepath.Glob(filepath.Join(home, "state", "workspaces", "*", "approvals"))
	if len(dirs) != 1 {
		t.Fatalf("approvals folders: %v", dirs)
	}
	// The folder as the older juju left it: no epoch in the request, no
	// epoch file.
	reqFile := filepath.Join(dirs[0], id, "request.json")
	b, err := os.ReadFile(reqFile)
	if err != nil {
		t.Fatal(err)
	}
	var req map[string]any
	if err := json.Unmarshal(b, &req); err != nil {
		t.Fatal(err)
	}
	delete(req, "epoch")
	b, _ = json.Marshal(req)
	if err := os.WriteFile(reqFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dirs[0], "epoch"))
	juju(t, home, root, "approvals", "approve", id)
	// What the older juju wrote after the approval, unnoted.
	os.WriteFile(filepath.Join(root, "s.sh"), []byte(evilScript), 0o644)

	msg := s.fail("run_command", args, "APPROVAL_PENDING")
	if exists(root, "EVIL_RAN") {
		t.Fatal("an approval recorded without an epoch ran its call after the upgrade")
	}
	if again := pendingIn(t, msg); again == id || !strings.Contains(msg, id) {
		t.Errorf("the retry must ask again, naming %s: %s", id, msg)
	}
}
