package journal

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/golden"
	store "github.com/jujutools/juju/internal/journal"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/testfs"
	"github.com/jujutools/juju/sdk/abi"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// A patch that applies to src/main.go, and one that does not.
const (
	goodPatch = "--- a/src/main.go\n+++ b/src/main.go\n@@ -3,3 +3,3 @@\n func main() {\n-\tprintln(\"hi\")\n+\tprintln(\"hello\")\n }\n"
	badPatch  = "--- a/src/main.go\n+++ b/src/main.go\n@@ -3,3 +3,3 @@\n func main() {\n-\tprintln(\"bye\")\n+\tprintln(\"hello\")\n }\n"
)

// TestTranscript records a session of the journal's host calls as text,
// "==> fn(request) body=…" and "<== response" per call, and compares it
// with testdata/transcript.golden (go test -update rewrites it). Times and
// the temporary folders are scrubbed; change and plan ids, hashes, modes
// and diffs are the journal's own and stay.
func TestTranscript(t *testing.T) {
	root := testfs.Workspace(t, map[string]string{
		"a.txt":       "one\ntwo\nthree\ntwo\n",
		"src/main.go": "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n",
		"old/x.txt":   "x\n",
		".env":        "S=1\n",
	})
	// Modes appear in results: make them independent of the umask.
	filepath.WalkDir(root, func(p string, d iofs.DirEntry, _ error) error {
		if d.IsDir() {
			return os.Chmod(p, 0o755)
		}
		return os.Chmod(p, 0o644)
	})
	state := filepath.Join(t.TempDir(), "state")
	pol, err := policy.New(policy.Config{Roots: []string{root}, Private: []string{state}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pol.Close() })
	j, err := store.Open(state, pol)
	if err != nil {
		t.Fatal(err)
	}
	fns := map[string]hostfns.Func{}
	for _, fn := range New(j, Options{}) {
		fns[fn.Name] = fn
	}
	ctx := hostfns.WithCaller(context.Background(), hostfns.Caller{
		Plugin: "core", Tool: "edit_file", Tier: abi.TierEdit, Client: "transcript", CallID: "call-1",
	})
	calls := []struct{ fn, req, body string }{
		// Writes, edits and patches: the change, or the code that refuses it.
		{abi.FnFSApply, `{"ops":[{"op":"write","path":"notes/todo.txt","length":8}]}`, "one\ntwo\n"},
		{abi.FnFSApply, `{"ops":[{"op":"edit","path":"a.txt","oldString":"one\n","newString":"uno\n"}]}`, ""},
		{abi.FnFSApply, `{"ops":[{"op":"edit","path":"a.txt","oldString":"four","newString":"cuatro"}]}`, ""},
		{abi.FnFSApply, `{"ops":[{"op":"edit","path":"a.txt","oldString":"two","newString":"dos"}]}`, ""},
		{abi.FnFSApply, `{"ops":[{"op":"edit","path":"a.txt","oldString":"two","newString":"dos","replaceAll":true,"expectedCount":3}]}`, ""},
		{abi.FnFSApply, `{"ops":[{"op":"edit","path":"a.txt","oldString":"two","newString":"dos","replaceAll":true,"expectedCount":2}]}`, ""},
		{abi.FnFSApply, `{"ops":[{"op":"patch","patch":` + quote(badPatch) + `}]}`, ""},
		{abi.FnFSApply, `{"ops":[{"op":"patch","patch":` + quote(goodPatch) + `}]}`, ""},
		{abi.FnFSApply, `{"ops":[{"op":"patch","patch":"not a diff"}]}`, ""},
		{abi.FnFSApply, `{"ops":[{"op":"write","path":"a.txt","length":2,"expectedSha256":"0000000000000000000000000000000000000000000000000000000000000000"}]}`, "x\n"},
		{abi.FnFSApply, `{"ops":[{"op":"write","path":".env","length":4}]}`, "S=2\n"},
		{abi.FnFSApply, `{"ops":[{"op":"write","path":"../outside.txt","length":1}]}`, "x"},
		{abi.FnFSApply, `{"ops":[{"op":"write","path":"short.txt","length":9}]}`, "abc"},
		{abi.FnFSApply, `{"ops":[{"op":"explode","path":"a.txt"}]}`, ""},
		{abi.FnFSApply, `{"opz":[]}`, ""},
		// Several operations, all or nothing; a dry run records nothing.
		{abi.FnFSApply, `{"ops":[{"op":"mkdir","path":"new/dir"},{"op":"move","path":"old/x.txt","to":"new/dir/x.txt"},{"op":"delete","path":"old"}]}`, ""},
		{abi.FnFSApply, `{"ops":[{"op":"write","path":"b.txt","length":2},{"op":"edit","path":"a.txt","oldString":"absent","newString":"x"}]}`, "b\n"},
		{abi.FnFSApply, `{"ops":[{"op":"delete","path":"notes/todo.txt"}],"dryRun":true}`, ""},
		// Plans: kept, applied once, discarded.
		{abi.FnFSPlan, `{"ops":[{"op":"write","path":"plan.txt","length":5}]}`, "plan\n"},
		{abi.FnFSPlanApply, `{"planId":"p000001"}`, ""},
		{abi.FnFSPlanApply, `{"planId":"p000001"}`, ""},
		{abi.FnFSPlan, `{"ops":[{"op":"edit","path":"plan.txt","oldString":"plan","newString":"nalp"}]}`, ""},
		{abi.FnFSPlanDiscard, `{"planId":"p000002"}`, ""},
		{abi.FnFSPlanApply, `{"planId":"p000002"}`, ""},
		{abi.FnFSPlanDiscard, `{"planId":"seven"}`, ""},
		{abi.FnFSPlan, `{"ops":[{"op":"write","path":"plan.txt","length":5}]}`, "plan\n"},
		// History: all, one change with its diff, by path, bounded.
		{abi.FnFSHistory, `{}`, ""},
		{abi.FnFSHistory, `{"changeId":"c000002"}`, ""},
		{abi.FnFSHistory, `{"path":"src/main.go"}`, ""},
		{abi.FnFSHistory, `{"limit":1}`, ""},
		{abi.FnFSHistory, `{"changeId":"c000099"}`, ""},
		{abi.FnFSHistory, `{"path":".env"}`, ""},
		// Rollback: a path changed since is a CONFLICT unless forced.
		{abi.FnFSRollback, `{"changeId":"c000002"}`, ""},
		{abi.FnFSRollback, `{"changeId":"c000003"}`, ""},
		{abi.FnFSRollback, `{"changeId":"c000003"}`, ""},
		{abi.FnFSRollback, `{"changeId":"c000004","after":true}`, ""},
		{abi.FnFSRollback, `{"changeId":"c000002","force":true}`, ""},
		{abi.FnFSRollback, `{"changeId":"c000099"}`, ""},
		{abi.FnFSRollback, `{"changeId":"yesterday"}`, ""},
		{abi.FnFSHistory, `{"limit":3}`, ""},
	}
	paths := strings.NewReplacer(root, "$ROOT", state, "$STATE")
	times := regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`)
	var b strings.Builder
	for _, c := range calls {
		var body []byte
		if c.body != "" {
			body = []byte(c.body)
		}
		out, outBody := fns[c.fn].Handle(ctx, []byte(c.req), body)
		resp := times.ReplaceAllLiteralString(paths.Replace(string(out)), "$TIME")
		fmt.Fprintf(&b, "==> %s(%s)", c.fn, c.req)
		if len(body) > 0 {
			fmt.Fprintf(&b, " body=%q", body)
		}
		fmt.Fprintf(&b, "\n<== %s", resp)
		if len(outBody) > 0 {
			fmt.Fprintf(&b, " body=%q", outBody)
		}
		b.WriteString("\n")
	}
	golden.Check(t, filepath.Join("testdata", "transcript.golden"), b.String(), *update)
}

// quote is s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
