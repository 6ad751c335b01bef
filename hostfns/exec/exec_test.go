package exec

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/testfs"
	"github.com/jujutools/juju/sandbox"
	"github.com/jujutools/juju/sdk/abi"
)

func newManagerB(b *testing.B) (*Manager, string) {
	return newManager(b, Options{})
}

func newManager(t testing.TB, opts Options) (*Manager, string) {
	t.Helper()
	root := testfs.Workspace(t, map[string]string{"sub/a.txt": "a", ".env": "S=1"})
	p, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	if opts.JobsDir == "" {
		opts.JobsDir = filepath.Join(t.TempDir(), "jobs")
	}
	if opts.Env == nil {
		opts.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=/nowhere", "GITHUB_TOKEN=x"}
	}
	m := New(p, opts)
	t.Cleanup(func() { m.Close(context.Background()) })
	return m, root
}

func TestHeadTail(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "log")
	os.WriteFile(p, []byte("short"), 0o600)
	if s, n, cut := headTail(p, 100, "job-1", "stdout", false); s != "short" || n != 5 || cut != nil {
		t.Errorf("short: %q %d %v", s, n, cut)
	}
	// Multi-byte runes across both cut points.
	content := strings.Repeat("é", 50) + strings.Repeat("x", 1000) + strings.Repeat("€", 50)
	os.WriteFile(p, []byte(content), 0o600)
	s, n, cut := headTail(p, 101, "job-1", "stderr", false)
	if cut == nil || n != int64(len(content)) || !utf8.ValidString(s) {
		t.Fatalf("cut=%v n=%d valid=%v", cut, n, utf8.ValidString(s))
	}
	// The cut says where the head ends and the tail starts, in the stream
	// and so in the text.
	if cut.From != 50 || cut.To != int64(len(content))-48 || s[:cut.From] != strings.Repeat("é", 25) ||
		!strings.HasSuffix(s, content[cut.To:]) || len(s)-int(n-cut.To) <= int(cut.From) {
		t.Errorf("cut %+v of %q", *cut, s)
	}
	head, rest, _ := strings.Cut(s, "\n[… juju cut bytes ")
	if head != strings.Repeat("é", 25) || !strings.HasSuffix(rest, ") …]\n"+strings.Repeat("€", 16)) {
		t.Errorf("head %q rest %q", head, rest)
	}
	if !strings.Contains(s, `stream "stderr", offset 50)`) {
		t.Errorf("marker: %q", s)
	}
	if _, n, _ := headTail(p, 0, "job-1", "stdout", false); n != int64(len(content)) {
		t.Errorf("size only: %d", n)
	}
}

// A running job's log may end inside a character its program has not
// written whole yet: the text ends before it, whether the log is shown
// whole or cut, and the size counts every byte. A job that ended shows
// its last bytes as they are.
func TestHeadTailOfARunningJobEndsOnACharacter(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log")
	half := "€"[:2]
	for _, c := range []struct {
		name, content string
		maxOut        int64
	}{
		{"whole", "price: 5" + half, 100},
		{"cut", strings.Repeat("x", 300) + "price: 5" + half, 101},
	} {
		os.WriteFile(p, []byte(c.content), 0o600)
		s, n, _ := headTail(p, c.maxOut, "job-1", "stdout", true)
		if !utf8.ValidString(s) || !strings.HasSuffix(s, "price: 5") || n != int64(len(c.content)) {
			t.Errorf("%s, running: %q (size %d)", c.name, s, n)
		}
		if s, _, _ := headTail(p, c.maxOut, "job-1", "stdout", false); !strings.HasSuffix(s, half) {
			t.Errorf("%s, ended: %q lost its last bytes", c.name, s)
		}
	}
}

func call[Res any](t *testing.T, h func(context.Context, []byte, []byte) ([]byte, []byte), req any) (*Res, []byte, *abi.Error) {
	t.Helper()
	b, _ := json.Marshal(req)
	rh, body := h(context.Background(), b, nil)
	var st abi.Status
	json.Unmarshal(rh, &st)
	if st.Error != nil {
		return nil, nil, st.Error
	}
	res := new(Res)
	if err := json.Unmarshal(rh, res); err != nil {
		t.Fatal(err)
	}
	return res, body, nil
}

func TestRunAndJobs(t *testing.T) {
	m, root := newManager(t, Options{BackgroundAfter: 5 * time.Second})
	fns := m.Funcs()
	argv, shell, job := fns[0].Handle, fns[1].Handle, fns[2].Handle

	r, _, err := call[abi.ExecResult](t, argv, abi.ExecRequest{Program: "sh", Args: []string{"-c", "env; pwd"}, Cwd: "sub"})
	if err != nil {
		t.Fatal(err)
	}
	if r.State != abi.JobExited || *r.ExitCode != 0 || strings.Contains(r.Stdout, "GITHUB_TOKEN") ||
		!strings.Contains(r.Stdout, "HOME=/nowhere") || !strings.HasSuffix(strings.TrimSpace(r.Stdout), "/sub") || r.Cwd != "sub" {
		t.Errorf("%+v", r)
	}
	// Argv only: a Command is refused by FnExec, a Program by FnExecShell.
	if _, _, err := call[abi.ExecResult](t, argv, abi.ExecRequest{Command: "ls"}); err == nil || err.Code != abi.InvalidArgument {
		t.Errorf("argv with a command: %v", err)
	}
	if _, _, err := call[abi.ExecResult](t, shell, abi.ExecRequest{Program: "ls"}); err == nil || err.Code != abi.InvalidArgument {
		t.Errorf("shell with a program: %v", err)
	}
	if _, _, err := call[abi.ExecResult](t, argv, abi.ExecRequest{Program: "echo", Args: []string{"a\x00b"}}); err == nil || err.Code != abi.InvalidArgument {
		t.Errorf("NUL: %v", err)
	}
	if _, _, err := call[abi.ExecResult](t, argv, abi.ExecRequest{Program: "ls", Cwd: ".env"}); err == nil || err.Code != abi.SecretDenied {
		t.Errorf("secret cwd: %v", err)
	}
	if _, _, err := call[abi.ExecResult](t, argv, abi.ExecRequest{Program: "ls", TimeoutMs: -1}); err == nil || err.Code != abi.InvalidArgument {
		t.Errorf("negative timeout: %v", err)
	}

	// The wait is bounded by the call's deadline as well as waitMs.
	ctx, cancel := context.WithTimeout(context.Background(), deadlineMargin+200*time.Millisecond)
	defer cancel()
	b, _ := json.Marshal(abi.ExecRequest{Command: "sleep 5"})
	begin := time.Now()
	rh, _ := shell(ctx, b, nil)
	var bg abi.ExecResult
	json.Unmarshal(rh, &bg)
	if bg.State != abi.JobRunning || time.Since(begin) > 2*time.Second {
		t.Errorf("deadline: %+v after %v", bg, time.Since(begin))
	}
	jr, _, err := call[abi.JobResult](t, job, abi.JobRequest{Op: abi.JobCancel, JobID: bg.JobID})
	if err != nil || jr.Job.State != abi.JobKilled || jr.Job.Signal == "" {
		t.Errorf("cancel: %+v %v", jr, err)
	}
	if _, _, err := call[abi.JobResult](t, job, abi.JobRequest{Op: "explode", JobID: bg.JobID}); err == nil || err.Code != abi.InvalidArgument {
		t.Errorf("bad op: %v", err)
	}
	if _, _, err := call[abi.JobResult](t, job, abi.JobRequest{Op: abi.JobOutput, JobID: bg.JobID, Stream: "stdin"}); err == nil {
		t.Error("stream stdin accepted")
	}
	// An offset past the end names the stream read, the default one too,
	// and says which offsets can be read (SPEC §10: what to do next).
	for stream, name := range map[string]string{"": "stdout", "stderr": "stderr"} {
		_, _, err := call[abi.JobResult](t, job, abi.JobRequest{Op: abi.JobOutput, JobID: bg.JobID, Stream: stream, Offset: 1 << 20})
		if err == nil || err.Code != abi.InvalidArgument || !strings.Contains(err.Message, "past the end of "+name+" (") ||
			!strings.Contains(err.Message, "pass an offset from 0 to ") {
			t.Errorf("offset past the end of %q: %v", stream, err)
		}
	}

	// Logs live in JobsDir, outside the root, and go with Close.
	if _, err := os.Stat(filepath.Join(m.opts.JobsDir, bg.JobID+".out")); err != nil {
		t.Error(err)
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "job-") {
			t.Errorf("a log in the root: %s", e.Name())
		}
	}
	m.Close(context.Background())
	if _, err := os.Stat(m.opts.JobsDir); !os.IsNotExist(err) {
		t.Errorf("jobs folder left: %v", err)
	}
	if _, _, err := call[abi.ExecResult](t, argv, abi.ExecRequest{Program: "true"}); err == nil {
		t.Error("a command started after Close")
	}
}

func TestCloseKillsRunningJobs(t *testing.T) {
	m, _ := newManager(t, Options{})
	fns := m.Funcs()
	r, _, err := call[abi.ExecResult](t, fns[1].Handle, abi.ExecRequest{Command: "sleep 60", Background: true})
	if err != nil {
		t.Fatal(err)
	}
	m.mu.Lock()
	j := m.jobs[r.JobID]
	m.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if j.State() != abi.JobKilled {
		t.Errorf("state %s", j.State())
	}
}

// A call cancelled while its command runs (the client's
// notifications/cancelled) stops the command, rather than leave it running
// as a job nobody was told of; a call that reaches its wait leaves it
// running in the background, as before.
func TestCancelledCallKillsItsCommand(t *testing.T) {
	m, _ := newManager(t, Options{BackgroundAfter: 300 * time.Millisecond})
	shell := m.Funcs()[1].Handle
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	b, _ := json.Marshal(abi.ExecRequest{Command: "sleep 60"})
	begin := time.Now()
	rh, _ := shell(ctx, b, nil)
	var res abi.ExecResult
	if err := json.Unmarshal(rh, &res); err != nil || res.State != abi.JobKilled {
		t.Fatalf("cancelled call: %s", rh)
	}
	if took := time.Since(begin); took > killGrace+5*time.Second {
		t.Fatalf("the cancelled call took %v", took)
	}
	r, _, aerr := call[abi.ExecResult](t, shell, abi.ExecRequest{Command: "sleep 60"})
	if aerr != nil || r.State != abi.JobRunning {
		t.Fatalf("a call past its wait: %+v %v", r, aerr)
	}
}

func TestPruneKeepsMaxJobs(t *testing.T) {
	m, _ := newManager(t, Options{MaxJobs: 3})
	fns := m.Funcs()
	var ids []string
	for range 5 {
		r, _, err := call[abi.ExecResult](t, fns[0].Handle, abi.ExecRequest{Program: "true"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.JobID)
	}
	l, _, _ := call[abi.JobResult](t, fns[2].Handle, abi.JobRequest{Op: abi.JobList})
	if len(l.Jobs) != 3 || l.Jobs[0].JobID != ids[4] {
		t.Errorf("list: %+v", l.Jobs)
	}
	if _, _, err := call[abi.JobResult](t, fns[2].Handle, abi.JobRequest{Op: abi.JobStatus, JobID: ids[0]}); err == nil || err.Code != abi.NotFound {
		t.Errorf("pruned job: %v", err)
	}
	if _, err := os.Stat(filepath.Join(m.opts.JobsDir, ids[0]+".out")); !os.IsNotExist(err) {
		t.Errorf("pruned log left: %v", err)
	}
}

// TestPruneCountsFinishedJobsOnly checks that MaxJobs bounds the finished
// jobs, not the running ones with them: with more jobs running than
// MaxJobs, a command that ended was dropped at once, before its caller
// could read its status.
func TestPruneCountsFinishedJobsOnly(t *testing.T) {
	m, _ := newManager(t, Options{MaxJobs: 2})
	fns := m.Funcs()
	for range 3 {
		if _, _, err := call[abi.ExecResult](t, fns[1].Handle, abi.ExecRequest{Command: "sleep 60", Background: true}); err != nil {
			t.Fatal(err)
		}
	}
	r, _, err := call[abi.ExecResult](t, fns[1].Handle, abi.ExecRequest{Command: "echo kept"})
	if err != nil || r.State != abi.JobExited {
		t.Fatalf("a command beside three running: %+v %v", r, err)
	}
	if s, _, err := call[abi.JobResult](t, fns[2].Handle, abi.JobRequest{Op: abi.JobStatus, JobID: r.JobID}); err != nil || s.Job.Stdout != "kept\n" {
		t.Errorf("the finished job beside three running: %+v %v", s, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestPruneKeepsMaxKept checks that the finished jobs' logs together stay
// under MaxKept, the first to end dropped first, and that the last to end
// is kept whatever its size.
func TestPruneKeepsMaxKept(t *testing.T) {
	m, _ := newManager(t, Options{MaxKept: 1000})
	fns := m.Funcs()
	list := func() []string {
		l, _, _ := call[abi.JobResult](t, fns[2].Handle, abi.JobRequest{Op: abi.JobList})
		var ids []string
		for _, j := range l.Jobs {
			ids = append(ids, j.JobID)
		}
		return ids
	}
	settled := func(want ...string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for !slices.Equal(list(), want) {
			if time.Now().After(deadline) {
				t.Fatalf("jobs kept: %v, want %v", list(), want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	run := func(n int) string {
		t.Helper()
		r, _, err := call[abi.ExecResult](t, fns[0].Handle, abi.ExecRequest{Program: "head", Args: []string{"-c", fmt.Sprint(n), "/dev/zero"}})
		if err != nil || r.State != abi.JobExited || r.StdoutBytes != int64(n) {
			t.Fatalf("head -c %d: %+v %v", n, r, err)
		}
		return r.JobID
	}
	a, b := run(400), run(500)
	settled(b, a) // 900 bytes: both kept
	c := run(300)
	settled(c, b) // 1200: the first to end goes
	if _, err := os.Stat(filepath.Join(m.opts.JobsDir, a+".out")); !os.IsNotExist(err) {
		t.Errorf("a dropped job's log is left: %v", err)
	}
	d := run(5000)
	settled(d) // the last to end stays, over the bound alone
	if r, _, err := call[abi.JobResult](t, fns[2].Handle, abi.JobRequest{Op: abi.JobStatus, JobID: d}); err != nil || r.Job.StdoutBytes != 5000 {
		t.Errorf("the job kept over the bound: %+v %v", r, err)
	}
}

// The logs of running jobs are bound each (MaxLog), not together: a
// command is never killed, nor its log dropped, for what other commands
// wrote, and MaxKept counts the finished jobs only. So at most MaxRunning
// jobs of MaxLog each are written at once, as docs/SECURITY.md says.
func TestRunningJobsLogsAreBoundEachNotTogether(t *testing.T) {
	m, _ := newManager(t, Options{MaxKept: 1000})
	fns := m.Funcs()
	var ids []string
	for range 2 {
		r, _, err := call[abi.ExecResult](t, fns[1].Handle, abi.ExecRequest{Command: "head -c 3000 /dev/zero; exec sleep 60", Background: true})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.JobID)
	}
	deadline := time.Now().Add(20 * time.Second)
	for _, id := range ids {
		for {
			r, _, err := call[abi.JobResult](t, fns[2].Handle, abi.JobRequest{Op: abi.JobStatus, JobID: id})
			if err != nil || r.Job.State != abi.JobRunning {
				t.Fatalf("job %s: %+v %v", id, r, err)
			}
			if r.Job.StdoutBytes == 3000 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("job %s wrote %d bytes, want 3000", id, r.Job.StdoutBytes)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	// 6,000 bytes running, six times MaxKept, for several log watches.
	time.Sleep(4 * logWatch)
	for _, id := range ids {
		r, _, err := call[abi.JobResult](t, fns[2].Handle, abi.JobRequest{Op: abi.JobStatus, JobID: id})
		if err != nil || r.Job.State != abi.JobRunning || r.Job.StdoutBytes != 3000 {
			t.Errorf("job %s, running past MaxKept with another: %+v %v", id, r, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestConfine(t *testing.T) {
	m, root := newManager(t, Options{Sandbox: sandbox.Require})
	// No Sandboxer: require fails closed.
	if _, _, err := call[abi.ExecResult](t, m.Funcs()[0].Handle, abi.ExecRequest{Program: "true"}); err == nil || err.Code != abi.SandboxUnavailable {
		t.Errorf("require: %v", err)
	}
	m.opts.Sandbox = sandbox.Prefer
	r, _, err := call[abi.ExecResult](t, m.Funcs()[0].Handle, abi.ExecRequest{Program: "true"})
	if err != nil || r.Sandbox != sandbox.MechNone || !strings.Contains(r.Note, "ran unconfined") {
		t.Errorf("prefer: %+v %v", r, err)
	}
	m.opts.Sandbox = sandbox.Off
	r, _, err = call[abi.ExecResult](t, m.Funcs()[0].Handle, abi.ExecRequest{Program: "true"})
	if err != nil || r.Note != "" {
		t.Errorf("off: %+v %v", r, err)
	}
	if _, _, err := call[abi.ExecResult](t, m.Funcs()[0].Handle, abi.ExecRequest{Program: "true", Sandbox: true}); err == nil || err.Code != abi.SandboxUnavailable {
		t.Errorf("off, asked: %v", err)
	}
	// The policy is built for each command: a .git made since is guarded.
	if err := os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := m.sandboxPolicy(false, false)
	var want sandbox.Policy
	want.AddRoot(m.pol.Roots()[0].Real)
	want.Write = append(want.Write, m.opts.Caches...)
	if !slices.Equal(p.Write, want.Write) || !slices.Equal(p.Pinned, want.Pinned) || !slices.Equal(p.ReadOnly, want.ReadOnly) || p.Network {
		t.Errorf("policy %+v, want %+v", p, want)
	}
	if !slices.ContainsFunc(p.Pinned, func(d string) bool { return strings.HasSuffix(d, "/.git") }) ||
		!slices.ContainsFunc(p.ReadOnly, func(d string) bool { return strings.HasSuffix(d, "/.git/hooks") }) {
		t.Errorf("policy %+v: .git not pinned or its hooks not read-only", p)
	}
}

func TestDisplayArgv(t *testing.T) {
	if got := displayArgv([]string{"printf", "%s\n", "a b", "it's", ""}); got != `printf '%s`+"\n"+`' 'a b' 'it'\''s' ''` {
		t.Errorf("got %s", got)
	}
}

// TestConcurrentJobs runs commands, status, output and list calls from
// many goroutines at once (run it with -race).
func TestConcurrentJobs(t *testing.T) {
	m, _ := newManager(t, Options{MaxJobs: 8})
	fns := m.Funcs()
	done := make(chan error, 16)
	for i := range 16 {
		go func() {
			r, _, err := call[abi.ExecResult](t, fns[1].Handle, abi.ExecRequest{Command: "echo " + strings.Repeat("x", i)})
			if err != nil {
				done <- err
				return
			}
			if r.State != abi.JobExited || r.Stdout != strings.Repeat("x", i)+"\n" {
				done <- abi.Errorf(abi.Internal, "job %d: %+v", i, r)
				return
			}
			call[abi.JobResult](t, fns[2].Handle, abi.JobRequest{Op: abi.JobList})
			call[abi.JobResult](t, fns[2].Handle, abi.JobRequest{Op: abi.JobOutput, JobID: r.JobID})
			done <- nil
		}()
	}
	for range 16 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
	l, _, _ := call[abi.JobResult](t, fns[2].Handle, abi.JobRequest{Op: abi.JobList})
	if len(l.Jobs) > 8 {
		t.Errorf("%d jobs kept, want at most 8", len(l.Jobs))
	}
}

// A command that writes without end is killed once its logs pass the
// output cap, and says so; one that writes less is left alone.
func TestOutputCapKillsAFlood(t *testing.T) {
	m, _ := newManager(t, Options{MaxLog: 1 << 20})
	shell := m.Funcs()[1].Handle
	begin := time.Now()
	r, _, aerr := call[abi.ExecResult](t, shell, abi.ExecRequest{Command: "yes juju >&2 & yes juju; wait", WaitMs: 20_000})
	if aerr != nil || r.State != abi.JobKilled || !strings.Contains(r.Note, "output passed 1 MiB") {
		t.Fatalf("a flood: %+v, %v", r, aerr)
	}
	if took := time.Since(begin); took > 10*time.Second {
		t.Fatalf("the flood ran %v", took)
	}
	if r.StdoutBytes+r.StderrBytes <= 1<<20 {
		t.Fatalf("killed at %d bytes, under the cap", r.StdoutBytes+r.StderrBytes)
	}
	r, _, aerr = call[abi.ExecResult](t, shell, abi.ExecRequest{Command: "head -c 900000 /dev/zero; sleep 0.6"})
	if aerr != nil || r.State != abi.JobExited || r.Note != "" {
		t.Fatalf("under the cap: %+v, %v", r, aerr)
	}
}

// A command killed at its timeout says so in its note, with what to do
// when it needs longer: the state alone leaves the model to guess.
func TestTimeoutSaysWhatToDo(t *testing.T) {
	m, _ := newManager(t, Options{BackgroundAfter: 5 * time.Second})
	shell := m.Funcs()[1].Handle
	r, _, err := call[abi.ExecResult](t, shell, abi.ExecRequest{Command: "sleep 30", TimeoutMs: 300})
	if err != nil {
		t.Fatal(err)
	}
	if r.State != abi.JobTimeout || !strings.Contains(r.Note, "timeout (300ms)") || !strings.Contains(r.Note, "larger timeoutMs") {
		t.Errorf("state %s, note %q", r.State, r.Note)
	}
	r, _, err = call[abi.ExecResult](t, shell, abi.ExecRequest{Command: "true", TimeoutMs: 5000})
	if err != nil || r.State != abi.JobExited || r.Note != "" {
		t.Errorf("a command that ended in time: %+v %v", r, err)
	}
}

// A command asked to run in the background has no timeout unless it was
// given one: a server or a watcher runs until it ends, is cancelled, or
// juju ends. One that only outlasted its wait keeps the default timeout,
// and so does one given timeoutMs.
func TestBackgroundHasNoTimeout(t *testing.T) {
	m, _ := newManager(t, Options{Timeout: 300 * time.Millisecond})
	shell := m.Funcs()[1].Handle
	job := m.Funcs()[2].Handle
	start := func(req abi.ExecRequest) string {
		t.Helper()
		r, _, err := call[abi.ExecResult](t, shell, req)
		if err != nil {
			t.Fatal(err)
		}
		return r.JobID
	}
	served := start(abi.ExecRequest{Command: "sleep 30", Background: true})
	bounded := start(abi.ExecRequest{Command: "sleep 30", Background: true, TimeoutMs: 300})
	waited := start(abi.ExecRequest{Command: "sleep 30", WaitMs: 1})
	for _, id := range []string{bounded, waited} {
		r, _, err := call[abi.JobResult](t, job, abi.JobRequest{Op: abi.JobWait, JobID: id, WaitMs: 20000})
		if err != nil || r.Job.State != abi.JobTimeout {
			t.Errorf("%s: %+v %v", id, r, err)
		}
	}
	r, _, err := call[abi.JobResult](t, job, abi.JobRequest{Op: abi.JobStatus, JobID: served})
	if err != nil || r.Job.State != abi.JobRunning || !strings.Contains(r.Job.Note, "no timeout") {
		t.Fatalf("the background job, past the default timeout: %+v %v", r, err)
	}
	r, _, err = call[abi.JobResult](t, job, abi.JobRequest{Op: abi.JobCancel, JobID: served})
	if err != nil || r.Job.State != abi.JobKilled || r.Job.Note != "" {
		t.Errorf("cancelled: %+v %v", r, err)
	}
}
