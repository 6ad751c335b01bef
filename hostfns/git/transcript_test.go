package git

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/golden"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/testfs"
	"github.com/jujutools/juju/sdk/abi"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestTranscript records a session of git host calls as text, "==>
// juju_git(request) tier=T" and "<== response body=…" per call, and compares
// it with testdata/transcript.golden (go test -update rewrites it). The
// repository's first commit has fixed names and dates; object names, which
// change with the commit the session makes, become $OBJ1, $OBJ2 … in order
// of appearance, and the workspace becomes $ROOT.
func TestTranscript(t *testing.T) {
	root := testfs.Workspace(t, map[string]string{
		"a.txt": "one\n", "sub/b.txt": "b\n", ".env": "S=1\n", "denied/x": "x\n",
	})
	home := t.TempDir() // an empty global configuration
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C", "LC_ALL=C"}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"config", "user.name", "Owner"},
		{"config", "user.email", "owner@example.com"},
		{"add", "a.txt", "sub"},
		{"commit", "-qm", "one"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(env, "GIT_AUTHOR_DATE=2024-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2024-01-02T03:04:05Z")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644)
	os.WriteFile(filepath.Join(root, "new.txt"), []byte("new\n"), 0o644)
	p, err := policy.New(policy.Config{Roots: []string{root}, Deny: []string{"denied"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	h := New(p, Options{Env: env})[0].Handle

	calls := []struct {
		tier string
		req  abi.GitRequest
	}{
		// Reads, at any tier: secrets and denied paths never show.
		{abi.TierRead, abi.GitRequest{Args: []string{"status", "--porcelain", "-b"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"diff"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"diff", "--stat", "--", "a.txt"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"log", "--format=%h %an <%ae> %ad %s", "--date=iso-strict"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"show", "--stat", "--format=%h %s", "HEAD"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"ls-files"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"ls-files"}, Cwd: "sub"}},
		{abi.TierRead, abi.GitRequest{Args: []string{"rev-parse", "--abbrev-ref", "HEAD"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"branch", "--show-current"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"log", "nosuch"}}},
		// Refused before git runs.
		{abi.TierRead, abi.GitRequest{}},
		{abi.TierRead, abi.GitRequest{Args: []string{"push"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"-c", "core.pager=sh", "status"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"diff", "--ext-diff"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"show", "HEAD:.env"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"diff", "--", ".env"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"diff", "--", "denied/x"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"diff", "--", "../x"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"status"}, Cwd: ".env"}},
		{abi.TierRead, abi.GitRequest{Args: []string{"branch", "evil"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"log", "ext::sh"}}},
		// Writes: exec tier only; add leaves withheld paths out.
		{abi.TierEdit, abi.GitRequest{Args: []string{"add", "--", "a.txt"}}},
		{abi.TierExec, abi.GitRequest{Args: []string{"add"}}},
		{abi.TierExec, abi.GitRequest{Args: []string{"add", "-A"}}},
		{abi.TierExec, abi.GitRequest{Args: []string{"add", "--", ".env", "denied/x"}}},
		{abi.TierExec, abi.GitRequest{Args: []string{"add", "--", "a.txt", "new.txt", ".env"}}},
		{abi.TierExec, abi.GitRequest{Args: []string{"commit", "--amend", "--message=x"}}},
		{abi.TierExec, abi.GitRequest{Args: []string{"commit", "--message=two"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"log", "--format=%h %s"}}},
		{abi.TierRead, abi.GitRequest{Args: []string{"status", "--porcelain"}}},
	}
	objects := regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)
	names := map[string]string{}
	scrub := func(s string) string {
		s = strings.ReplaceAll(s, root, "$ROOT")
		return objects.ReplaceAllStringFunc(s, func(h string) string {
			if _, ok := names[h]; !ok {
				names[h] = fmt.Sprintf("$OBJ%d", len(names)+1)
			}
			return names[h]
		})
	}
	var b strings.Builder
	for _, c := range calls {
		req, _ := json.Marshal(c.req)
		ctx := hostfns.WithCaller(context.Background(), hostfns.Caller{Tier: c.tier})
		out, body := h(ctx, req, nil)
		fmt.Fprintf(&b, "==> %s(%s) tier=%s\n<== %s", abi.FnGit, req, c.tier, scrub(string(out)))
		if len(body) > 0 {
			fmt.Fprintf(&b, " body=%q", scrub(string(body)))
		}
		b.WriteString("\n")
	}
	golden.Check(t, filepath.Join("testdata", "transcript.golden"), b.String(), *update)
}
