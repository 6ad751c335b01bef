package approvals

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/approval"
	"github.com/jujutools/juju/sdk/abi"
)

// call runs the host function as client and decodes its answer.
func call(t *testing.T, f hostfns.Func, client, header string) abi.ApprovalStatusResult {
	t.Helper()
	return callAs(t, f, "", client, header)
}

// callAs is call by a client of principal.
func callAs(t *testing.T, f hostfns.Func, principal, client, header string) abi.ApprovalStatusResult {
	t.Helper()
	ctx := hostfns.WithCaller(context.Background(), hostfns.Caller{Client: client, Principal: principal, Tool: "approval_status", Tier: abi.TierRead})
	h, _ := f.Handle(ctx, []byte(header), nil)
	var res abi.ApprovalStatusResult
	if err := json.Unmarshal(h, &res); err != nil {
		t.Fatalf("%s: %v", h, err)
	}
	return res
}

// A client sees its own approvals, never another's.
func TestOwnApprovalsOnly(t *testing.T) {
	store := approval.Open(filepath.Join(t.TempDir(), "approvals"), approval.Options{})
	mine, err := store.Create(approval.Request{Client: "me", Tool: "edit_file", Args: `{path: "a"}`}, []byte(`{"path":"a"}`))
	if err != nil {
		t.Fatal(err)
	}
	theirs, _ := store.Create(approval.Request{Client: "them", Tool: "run_command"}, []byte(`{}`))
	store.Decide(mine.ID, true, "cli")
	f := New(store)
	if f.Capability != "" {
		t.Fatalf("approval status needs capability %q, want none", f.Capability)
	}

	res := call(t, f, "me", `{}`)
	if res.Error != nil || len(res.Approvals) != 1 || res.Approvals[0].ID != mine.ID || res.Approvals[0].State != "approved" || res.Approvals[0].Decided == "" {
		t.Fatalf("my list: %+v", res)
	}
	if res := call(t, f, "me", `{"id":"`+mine.ID+`"}`); res.Error != nil || res.Approvals[0].Tool != "edit_file" {
		t.Fatalf("mine by id: %+v", res)
	}
	for _, id := range []string{theirs.ID, "nosuchid", "../x"} {
		if res := call(t, f, "me", `{"id":"`+id+`"}`); res.Error == nil || res.Error.Code != abi.NotFound {
			t.Errorf("id %q: %+v, want NOT_FOUND", id, res)
		}
	}
	if res := call(t, f, "nobody", `{}`); res.Error != nil || len(res.Approvals) != 0 {
		t.Errorf("a client with none: %+v", res)
	}
	if res := call(t, f, "me", `{"bogus":1}`); res.Error == nil || res.Error.Code != abi.InvalidArgument {
		t.Errorf("unknown field: %+v", res)
	}
}

// A client sees the approvals of its principal only: a local client that
// declares an OAuth client's name sees none of that client's, and an OAuth
// client none of a local client's of the same name.
func TestOwnPrincipalOnly(t *testing.T) {
	store := approval.Open(filepath.Join(t.TempDir(), "approvals"), approval.Options{})
	const name = "claude [oauth:c_1]"
	remote, _ := store.Create(approval.Request{Client: name, Principal: "oauth:c_1", Tool: "run_command"}, []byte(`{}`))
	local, _ := store.Create(approval.Request{Client: name, Tool: "run_command"}, []byte(`{}`))
	f := New(store)
	for _, tc := range []struct{ principal, own, other string }{
		{"", local.ID, remote.ID},
		{"oauth:c_1", remote.ID, local.ID},
	} {
		res := callAs(t, f, tc.principal, name, `{}`)
		if len(res.Approvals) != 1 || res.Approvals[0].ID != tc.own {
			t.Errorf("principal %q lists %+v, want %s alone", tc.principal, res.Approvals, tc.own)
		}
		if res := callAs(t, f, tc.principal, name, `{"id":"`+tc.other+`"}`); res.Error == nil || res.Error.Code != abi.NotFound {
			t.Errorf("principal %q reads %s: %+v, want NOT_FOUND", tc.principal, tc.other, res)
		}
	}
}

// An id of a megabyte is no approval, and the answer quotes it cut: the
// whole of it came back in the message.
func TestLongIDQuotedCut(t *testing.T) {
	f := New(approval.Open(filepath.Join(t.TempDir(), "approvals"), approval.Options{}))
	id := strings.Repeat("x", 1<<20)
	res := call(t, f, "me", `{"id":"`+id+`"}`)
	if res.Error == nil || res.Error.Code != abi.NotFound || len(res.Error.Message) > 1000 || !strings.Contains(res.Error.Message, "call approval_status without an id") {
		t.Fatalf("got %.300v", res.Error)
	}
}
