package test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// gateHome is a JUJU_HOME with the gated test plugin installed (one E and
// one X tool that only log their text) and approvals timing out after
// timeout.
func gateHome(t *testing.T, timeout time.Duration) string {
	t.Helper()
	home := t.TempDir()
	installForTest(t, home, "plugins/testplugins/gated", nil)
	writeConfig(t, home, fmt.Sprintf("[approvals]\ntimeoutMs = %d\n", timeout.Milliseconds()))
	return home
}

// gateSession is a juju stdio whose log goes to a file, so a test can see
// what the gated tools did.
type gateSession struct {
	*session
	logFile string
}

// ran reports whether the gated tool logged text, i.e. the call ran.
func (g *gateSession) ran(text string) bool {
	data, _ := os.ReadFile(g.logFile)
	return strings.Contains(string(data), ": "+text)
}

// startGate runs `juju stdio --root root --mode mode` in home as a client
// named name; a non-nil elicit declares the elicitation capability. extra
// are more flags of juju stdio.
func startGate(t *testing.T, home, root, mode, name string, elicit client.ElicitationHandler, extra ...string) *gateSession {
	return startGateVersion(t, home, root, mode, name, mcp.LATEST_PROTOCOL_VERSION, elicit, extra...)
}

// startGateVersion is startGate with the protocol version the client asks
// for: from 2026-07-28 on, the client answers questions by retrying the
// call; before, juju asks with a server-initiated request.
func startGateVersion(t *testing.T, home, root, mode, name, version string, elicit client.ElicitationHandler, extra ...string) *gateSession {
	t.Helper()
	if _, err := os.Lstat(filepath.Join(home, "cache")); os.IsNotExist(err) {
		if err := os.Symlink(sharedCache, filepath.Join(home, "cache")); err != nil {
			t.Fatal(err)
		}
	}
	logFile := filepath.Join(t.TempDir(), "juju.log")
	env := append(os.Environ(), "JUJU_HOME="+home)
	tr := transport.NewStdioWithOptions(jujuBin, env, append([]string{"stdio", "--root", root, "--mode", mode, "--log-file", logFile}, extra...))
	if err := tr.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	var opts []client.ClientOption
	if elicit != nil {
		opts = append(opts, client.WithElicitationHandler(elicit))
	}
	c := client.NewClient(tr, opts...)
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, c: c, root: root, home: home}
	s.stderr = func() string { b, _ := os.ReadFile(logFile); return string(b) }
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = version
	req.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1"}
	var err error
	if s.init, err = c.Initialize(ctx, req); err != nil {
		t.Fatalf("initialize: %v\nlog:\n%s", err, s.stderr())
	}
	return &gateSession{session: s, logFile: logFile}
}

// juju runs the built juju with home as JUJU_HOME in dir and returns its
// output; it fails the test when juju fails.
func juju(t *testing.T, home, dir string, args ...string) string {
	t.Helper()
	out, err := jujuErr(home, dir, args...)
	if err != nil {
		t.Fatalf("juju %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func jujuErr(home, dir string, args ...string) (string, error) {
	cmd := exec.Command(jujuBin, args...)
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// The gate's table, end to end: R runs in every mode; E waits in inspect;
// X waits in inspect and edit; trusted asks nothing. A held call that
// nobody approves answers APPROVAL_PENDING and does not run.
func TestGateModes(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	want := map[string]map[string]bool{ // mode → tool → held
		"inspect": {"test_gated_edit": true, "test_gated_exec": true},
		"edit":    {"test_gated_edit": false, "test_gated_exec": true},
		"trusted": {"test_gated_edit": false, "test_gated_exec": false},
	}
	for _, mode := range []string{"inspect", "edit", "trusted"} {
		t.Run(mode, func(t *testing.T) {
			home := gateHome(t, 300*time.Millisecond)
			// In trusted mode a client that could be asked is asked nothing.
			var e *elicitor
			var handler client.ElicitationHandler
			if mode == "trusted" {
				e = &elicitor{action: mcp.ElicitationResponseActionDecline}
				handler = e
			}
			s := startGate(t, home, root, mode, "gate-e2e", handler)
			if got := s.with(t).ok("read_file", map[string]any{"path": "a.txt"}); !strings.Contains(got, "hello") {
				t.Fatalf("read_file in %s: %q", mode, got)
			}
			for _, tool := range []string{"test_gated_edit", "test_gated_exec"} {
				text := mode + "-" + tool
				if !want[mode][tool] {
					if got := s.with(t).ok(tool, map[string]any{"text": text}); !strings.Contains(got, text) {
						t.Fatalf("%s: %q", tool, got)
					}
					if !s.ran(text) {
						t.Errorf("%s in %s: ran, but its log line is missing", tool, mode)
					}
					continue
				}
				msg := s.with(t).fail(tool, map[string]any{"text": text}, "APPROVAL_PENDING")
				if !strings.Contains(msg, "juju approvals approve ") || !strings.Contains(msg, "approval_status") {
					t.Errorf("the pending message must say what to do: %s", msg)
				}
				if s.ran(text) {
					t.Errorf("%s in %s ran without approval", tool, mode)
				}
			}
			if e != nil && len(e.questions()) != 0 {
				t.Errorf("trusted mode asked the owner: %q", e.questions())
			}
		})
	}
}

// elicitor answers elicitations with a fixed action and records them.
type elicitor struct {
	mu     sync.Mutex
	action mcp.ElicitationResponseAction
	asked  []string
}

func (e *elicitor) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.asked = append(e.asked, req.Params.Message)
	res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: e.action}}
	if e.action == mcp.ElicitationResponseActionAccept {
		res.Content = map[string]any{"approve": true}
	}
	return res, nil
}

func (e *elicitor) set(a mcp.ElicitationResponseAction) {
	e.mu.Lock()
	e.action = a
	e.mu.Unlock()
}

func (e *elicitor) questions() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.asked...)
}

// A client that declared elicitation is asked in the client: accept runs
// the call, decline and cancel refuse it and nothing runs. R calls ask
// nothing. Both ways of asking are covered: a server-initiated request
// (protocol versions before 2026-07-28) and a question the client answers
// by retrying the call (2026-07-28 on).
func TestApprovalByElicitation(t *testing.T) {
	for _, version := range []string{mcp.LATEST_PROTOCOL_VERSION, mcp.LATEST_LEGACY_PROTOCOL_VERSION} {
		t.Run(version, func(t *testing.T) { testElicitation(t, version) })
	}
}

func testElicitation(t *testing.T, version string) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	home := gateHome(t, 10*time.Second)
	e := &elicitor{action: mcp.ElicitationResponseActionAccept}
	s := startGateVersion(t, home, root, "inspect", "elicit-e2e", version, e)

	s.ok("read_file", map[string]any{"path": "a.txt"})
	if q := e.questions(); len(q) != 0 {
		t.Fatalf("a read asked the owner: %q", q)
	}
	if res := s.call("test_gated_edit", map[string]any{"text": "accepted-edit"}); res.IsError {
		t.Fatalf("accepted call: %s\nlog:\n%s", text(res), s.stderr())
	} else if got := text(res); !strings.Contains(got, "accepted-edit") {
		t.Fatalf("accepted call: %q\n%s", got, s.stderr())
	}
	if !s.ran("accepted-edit") {
		t.Fatal("the accepted call did not run")
	}
	q := e.questions()
	if len(q) != 1 {
		t.Fatalf("asked %d times, want 1", len(q))
	}
	for _, want := range []string{"elicit-e2e", "test_gated_edit", "tier E", "test-gated", `text: "accepted-edit"`} {
		if !strings.Contains(q[0], want) {
			t.Errorf("the question %q does not name %q", q[0], want)
		}
	}
	for _, action := range []mcp.ElicitationResponseAction{mcp.ElicitationResponseActionDecline, mcp.ElicitationResponseActionCancel} {
		e.set(action)
		text := "refused-by-" + string(action)
		s.fail("test_gated_exec", map[string]any{"text": text}, "APPROVAL_DENIED")
		if s.ran(text) {
			t.Errorf("a call the owner answered %s ran", action)
		}
	}
	if n := len(e.questions()); n != 3 {
		t.Errorf("asked %d times, want 3", n)
	}
	// The audit shows how each call was decided.
	decided := map[string]int{}
	for _, r := range auditJSON(t, home, root) {
		if r.Approval != nil {
			if r.Approval.Via != "elicitation" {
				t.Errorf("approval via %q, want elicitation", r.Approval.Via)
			}
			decided[r.Approval.Decision]++
		}
	}
	if decided["approved"] != 1 || decided["denied"] != 2 {
		t.Errorf("audited decisions %v, want 1 approved and 2 denied", decided)
	}
	if version == mcp.LATEST_PROTOCOL_VERSION && decided["asked"] != 3 {
		t.Errorf("audited decisions %v, want the 3 questions handed to the client", decided)
	}
}

// pendingID waits until juju approvals lists a pending approval of tool
// and returns its id.
func pendingID(t *testing.T, home, root, tool string) string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		out := juju(t, home, root, "approvals")
		for _, line := range strings.Split(out, "\n") {
			f := strings.Fields(line)
			if len(f) > 4 && f[2] == "pending" && f[4] == tool {
				return f[0]
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no pending approval of %s appeared", tool)
	return ""
}

// Without elicitation the call waits while the owner runs juju approvals
// in another terminal: approve runs it, deny refuses it.
func TestApprovalByCLI(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	home := gateHome(t, 20*time.Second)
	s := startGate(t, home, root, "inspect", "cli-e2e", nil)

	for _, approve := range []bool{true, false} {
		marker := fmt.Sprintf("cli-approve-%v", approve)
		type answer struct {
			res *mcp.CallToolResult
			err error
		}
		done := make(chan answer, 1)
		go func() {
			res, err := s.callErr("test_gated_edit", map[string]any{"text": marker})
			done <- answer{res, err}
		}()
		id := pendingID(t, home, t.TempDir(), "test_gated_edit")
		if s.ran(marker) {
			t.Fatal("the call ran before the owner decided")
		}
		verb := "deny"
		if approve {
			verb = "approve"
		}
		out := juju(t, home, t.TempDir(), "approvals", verb, id)
		if !strings.Contains(out, id) {
			t.Errorf("juju approvals %s says: %s", verb, out)
		}
		a := <-done
		if a.err != nil {
			t.Fatal(a.err)
		}
		switch {
		case approve && (a.res.IsError || !s.ran(marker)):
			t.Fatalf("approved call: %s (ran %v)", text(a.res), s.ran(marker))
		case !approve && (!a.res.IsError || !strings.HasPrefix(text(a.res), "APPROVAL_DENIED")):
			t.Fatalf("denied call: %s", text(a.res))
		case !approve && s.ran(marker):
			t.Fatal("the denied call ran")
		}
		// A second decision is refused.
		if out, err := jujuErr(home, root, "approvals", "approve", id); err == nil || !strings.Contains(out, "already decided") {
			t.Errorf("a second decision: %v %s", err, out)
		}
	}
	if out, err := jujuErr(home, root, "approvals", "approve", "nosuchid"); err == nil || !strings.Contains(out, "no approval") {
		t.Errorf("unknown id: %v %s", err, out)
	}
}

// pendingIn returns the approval id an APPROVAL_PENDING message names.
func pendingIn(t *testing.T, msg string) string {
	t.Helper()
	_, rest, ok := strings.Cut(msg, "juju approvals approve ")
	if !ok {
		t.Fatalf("no approval id in %q", msg)
	}
	return strings.TrimRight(strings.Fields(rest)[0], "`,.")
}

// A call nobody approved in time answers APPROVAL_PENDING; once the owner
// approves, the client's retry of the same call runs once, without asking
// again; approval_status shows each step, to this client only. A denial
// after the timeout makes the retry APPROVAL_DENIED.
func TestApprovalPendingThenRetry(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	home := gateHome(t, 300*time.Millisecond)
	s := startGate(t, home, root, "edit", "retry-e2e", nil)
	args := map[string]any{"text": "retried"}

	id := pendingIn(t, s.fail("test_gated_exec", args, "APPROVAL_PENDING"))
	st := structured(t, s.call("approval_status", map[string]any{"id": id}))
	if got := st["approvals"].([]any)[0].(map[string]any); got["state"] != "pending" || got["tool"] != "test_gated_exec" {
		t.Fatalf("approval_status: %v", got)
	}
	// Asked again before the owner decided: still pending, no second approval.
	if again := pendingIn(t, s.fail("test_gated_exec", args, "APPROVAL_PENDING")); again != id {
		t.Errorf("a retry made a new approval %s, want %s", again, id)
	}
	juju(t, home, root, "approvals", "approve", id)
	if got := s.ok("approval_status", map[string]any{}); !strings.Contains(got, id) || !strings.Contains(got, "approved") {
		t.Errorf("approval_status after approval: %s", got)
	}
	// Other arguments are another call: still held.
	s.fail("test_gated_exec", map[string]any{"text": "other"}, "APPROVAL_PENDING")
	if s.ran("other") {
		t.Fatal("an approval ran a call with other arguments")
	}
	if got := s.ok("test_gated_exec", args); !strings.Contains(got, "retried") || !s.ran("retried") {
		t.Fatalf("the approved retry: %q", got)
	}
	// Once: the next identical call is held again.
	s.fail("test_gated_exec", args, "APPROVAL_PENDING")

	// Another client sees none of these.
	other := startGate(t, home, root, "edit", "someone-else", nil)
	if st := structured(t, other.call("approval_status", map[string]any{})); len(st["approvals"].([]any)) != 0 {
		t.Errorf("another client sees %v", st["approvals"])
	}
	other.fail("approval_status", map[string]any{"id": id}, "NOT_FOUND")

	// Denied after the timeout.
	deniedArgs := map[string]any{"text": "denied-later"}
	did := pendingIn(t, s.fail("test_gated_exec", deniedArgs, "APPROVAL_PENDING"))
	juju(t, home, root, "approvals", "deny", did)
	s.fail("test_gated_exec", deniedArgs, "APPROVAL_DENIED")
	if s.ran("denied-later") {
		t.Fatal("a denied call ran")
	}
	out := juju(t, home, root, "approvals", "--all")
	for _, want := range []string{id, did, "used", "test_gated_exec"} {
		if !strings.Contains(out, want) {
			t.Errorf("juju approvals --all does not show %q:\n%s", want, out)
		}
	}
}
