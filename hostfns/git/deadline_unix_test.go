//go:build unix

package git

import (
	"context"
	"encoding/json"
	"path/filepath"
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
