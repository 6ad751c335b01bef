package journal

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/testfs"
	"github.com/jujutools/juju/sdk/abi"
)

// fixture is a workspace with a journal.
type fixture struct {
	t     testing.TB
	root  string
	state string
	pol   *policy.Policy
	j     *Journal
}

var who = Author{Client: "test-client", Plugin: "core", Tool: "edit_file", CallID: "a1"}

func newFixture(t testing.TB, files map[string]string, opts ...Option) *fixture {
	t.Helper()
	root := testfs.Workspace(t, files)
	state := filepath.Join(t.TempDir(), "state")
	pol, err := policy.New(policy.Config{Roots: []string{root}, Private: []string{state}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pol.Close() })
	j, err := Open(state, pol, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, root: root, state: state, pol: pol, j: j}
}

// ops builds a request; write operations take their content from the
// content field of the helper wop.
type wop struct {
	abi.ChangeOp
	content string
}

func (f *fixture) apply(ops ...wop) (*abi.ChangeResult, *abi.Error) {
	f.t.Helper()
	return f.do(false, ops...)
}

// do applies ops and waits for the work after the answer (withLater), so
// that the test finds the journal's file as a later process would.
func (f *fixture) do(dry bool, ops ...wop) (*abi.ChangeResult, *abi.Error) {
	req, body := request(dry, ops)
	defer f.j.Wait()
	return f.j.Apply(context.Background(), who, req, body)
}

// request is the change of ops and its body, the write operations'
// contents one after another.
func request(dry bool, ops []wop) (*abi.ChangeRequest, []byte) {
	req := &abi.ChangeRequest{DryRun: dry}
	var body []byte
	for _, o := range ops {
		if o.Op == abi.OpWrite {
			o.Length = int64(len(o.content))
			body = append(body, o.content...)
		}
		req.Ops = append(req.Ops, o.ChangeOp)
	}
	return req, body
}

func (f *fixture) mustApply(ops ...wop) *abi.ChangeResult {
	f.t.Helper()
	res, e := f.apply(ops...)
	if e != nil {
		f.t.Fatalf("apply: %v", e)
	}
	return res
}

func write(path, content string) wop {
	return wop{ChangeOp: abi.ChangeOp{Op: abi.OpWrite, Path: path}, content: content}
}

func edit(path, old, new string) wop {
	return wop{ChangeOp: abi.ChangeOp{Op: abi.OpEdit, Path: path, OldString: old, NewString: new}}
}

func op(kind, path, to string) wop {
	return wop{ChangeOp: abi.ChangeOp{Op: kind, Path: path, To: to}}
}

func (f *fixture) read(rel string) string {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(f.root, rel))
	if err != nil {
		f.t.Fatalf("read %s: %v", rel, err)
	}
	return string(b)
}

func (f *fixture) missing(rel string) {
	f.t.Helper()
	if _, err := os.Lstat(filepath.Join(f.root, rel)); !os.IsNotExist(err) {
		f.t.Fatalf("%s exists, want it missing (%v)", rel, err)
	}
}

// tree lists every path under the root with its content, for comparing
// whole states.
func tree(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			tgt, _ := os.Readlink(p)
			out[rel] = "->" + tgt
		case fi.IsDir():
			out[rel+"/"] = fi.Mode().Perm().String()
		default:
			b, _ := os.ReadFile(p)
			out[rel] = fi.Mode().Perm().String() + ":" + string(b)
		}
		return nil
	})
	return out
}

// noTemps fails when a temporary file of the journal is left in root.
func noTemps(t testing.TB, root string) {
	t.Helper()
	var left []string
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && strings.HasPrefix(filepath.Base(p), ".juju-") {
			left = append(left, p)
		}
		return nil
	})
	sort.Strings(left)
	if len(left) > 0 {
		t.Fatalf("temporary files left behind: %v", left)
	}
}

func wantCode(t testing.TB, e *abi.Error, code abi.Code) string {
	t.Helper()
	if e == nil {
		t.Fatalf("succeeded, want %s", code)
	}
	if e.Code != code {
		t.Fatalf("code %s, want %s: %s", e.Code, code, e.Message)
	}
	return e.Message
}

func equalTrees(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func diffTrees(got, want map[string]string) string {
	var b strings.Builder
	for k, v := range want {
		if got[k] != v {
			fmt.Fprintf(&b, "  %s: got %q want %q\n", k, got[k], v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			fmt.Fprintf(&b, "  %s: extra %q\n", k, v)
		}
	}
	return b.String()
}
