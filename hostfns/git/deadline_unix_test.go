//go:build unix

package git

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// git opens the .gitignore files it reads without O_NONBLOCK, so a FIFO
// of that name holds git status for ever. git stops before the plugin
// call's deadline, and the plugin hears TIMEOUT in time to answer without
// git rather than be stopped with it.
func TestGitStopsBeforeTheCallsDeadline(t *testing.T) {
	_, root := fixture(t)
	if err := syscall.Mkfifo(filepath.Join(root, "sub", ".gitignore"), 0o644); err != nil {
		t.Skip(err)
	}
	p, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	h := New(p, Options{})[0].Handle
	const deadline = deadlineMargin + 700*time.Millisecond
	ctx, cancel := context.WithTimeout(hostfns.WithCaller(context.Background(), hostfns.Caller{Tier: abi.TierRead}), deadline)
	defer cancel()
	b, _ := json.Marshal(abi.GitRequest{Args: []string{"status", "--porcelain"}})
	begin := time.Now()
	rh, _ := h(ctx, b, nil)
	took := time.Since(begin)
	var r abi.GitResult
	json.Unmarshal(rh, &r)
	if r.Error == nil || r.Error.Code != abi.Timeout {
		t.Fatalf("git status over a FIFO: %+v", r)
	}
	if took >= deadline {
		t.Errorf("git answered after the call's deadline (%v, deadline %v)", took, deadline)
	}
}

// TestRepoFilesAreNeverWaitedOn: the files juju reads to find a
// repository (a .git file's gitdir, commondir, a worktree's gitdir, a
// submodule's config) and before each run (objects/info/alternates) are
// workspace content, which a command may make FIFOs; opening one for
// reading waits for a writer, and held every git tool (or juju's start)
// for ever. Each is passed over, or refused, and never opened.
func TestRepoFilesAreNeverWaitedOn(t *testing.T) {
	root := t.TempDir()
	wt, g := filepath.Join(root, "wt"), filepath.Join(root, "g")
	for _, d := range []string{wt, filepath.Join(g, "objects", "info")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: ../g\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(g, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"commondir", "gitdir", "config", "objects/info/alternates"} {
		if err := syscall.Mkfifo(filepath.Join(g, name), 0o644); err != nil {
			t.Skip(err)
		}
	}
	done := make(chan struct{})
	var r *repo
	var rerr error
	var aerr *abi.Error
	go func() {
		defer close(done)
		r, rerr = repoAt(wt, []string{root})
		if rerr == nil {
			p, err := policy.New(policy.Config{Roots: []string{root}})
			if err != nil {
				t.Error(err)
				return
			}
			defer p.Close()
			aerr = checkStore(p, r)
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Minute): // milliseconds; a minute to tell a hang on any machine
		t.Fatal("finding the repository, or checking its store, waits on a FIFO")
	}
	if rerr != nil {
		t.Fatalf("the repository beside FIFOs is not found: %v", rerr)
	}
	if r.common != r.gitDir {
		t.Errorf("a FIFO commondir was read: common %s, git folder %s", r.common, r.gitDir)
	}
	if aerr == nil || aerr.Code != abi.PathDenied || !strings.Contains(aerr.Message, "alternates") {
		t.Errorf("a FIFO for alternates is not refused: %v", aerr)
	}

	// With g outside the roots, it is used only when it names wt back:
	// its gitdir and its config are FIFOs, so it does not.
	done = make(chan struct{})
	go func() {
		defer close(done)
		_, rerr = repoAt(wt, []string{wt})
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("asking whether a repository names its work tree back waits on a FIFO")
	}
	if !errors.Is(rerr, errForeign) {
		t.Errorf("a repository outside the roots whose gitdir and config are FIFOs: %v", rerr)
	}
}

// A commit whose hook never ends is stopped with the call's time, and
// told so: the hook, not the paths, held it, so the advice to narrow the
// request (right for a read held by a FIFO) would only have the model
// wait as long again.
func TestCommitHeldByAHookSaysSo(t *testing.T) {
	_, root := fixture(t)
	hook := filepath.Join(root, ".git", "hooks", "pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\nexec sleep 60\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	h := New(p, Options{Timeout: 500 * time.Millisecond})[0].Handle
	ctx := hostfns.WithCaller(context.Background(), hostfns.Caller{Tier: abi.TierExec})
	call := func(args ...string) abi.GitResult {
		b, _ := json.Marshal(abi.GitRequest{Args: args})
		rh, _ := h(ctx, b, nil)
		var r abi.GitResult
		json.Unmarshal(rh, &r)
		return r
	}
	if err := os.WriteFile(filepath.Join(root, "sub", "b.txt"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := call("add", "--", "sub/b.txt"); r.Error != nil || r.ExitCode != 0 {
		t.Fatalf("add: %+v", r)
	}
	r := call("commit", "--message=m")
	if r.Error == nil || r.Error.Code != abi.Timeout {
		t.Fatalf("commit held by its hook: %+v", r)
	}
	if !strings.Contains(r.Error.Message, "a hook") || strings.Contains(r.Error.Message, "narrow") || strings.Contains(r.Error.Message, "FIFO") {
		t.Errorf("the refusal does not name the hook as the cause: %s", r.Error.Message)
	}
}
