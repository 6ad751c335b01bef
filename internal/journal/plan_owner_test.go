package journal

import (
	"context"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// A plan is the client's that made it, known by its name and principal as
// approvals know a client: another client, another OAuth principal of the
// same name, or another juju process serving another client can neither
// apply nor discard it, and is told it does not exist, in the very words
// of a plan that never was.
func TestPlansAreTheirClients(t *testing.T) {
	f := newFixture(t, map[string]string{"a.txt": "a\n"})
	other, err := Open(f.state, f.pol) // a second juju process
	if err != nil {
		t.Fatal(err)
	}
	p, e := f.j.Plan(context.Background(), who, &abi.ChangeRequest{Ops: []abi.ChangeOp{{Op: abi.OpEdit, Path: "a.txt", OldString: "a", NewString: "b"}}}, nil)
	if e != nil {
		t.Fatal(e)
	}
	_, e = f.j.ApplyPlan(context.Background(), who, "p999999")
	never := wantCode(t, e, abi.NotFound)
	for _, by := range []Author{
		{Client: "another-client", Plugin: who.Plugin, Tool: "apply_changes"},
		{Client: who.Client, Principal: "oauth:c_1", Plugin: who.Plugin, Tool: "apply_changes"},
		{Plugin: who.Plugin, Tool: "apply_changes"},
	} {
		for _, j := range []*Journal{f.j, other} {
			_, e := j.ApplyPlan(context.Background(), by, p.PlanID)
			if msg := wantCode(t, e, abi.NotFound); msg != strings.Replace(never, "p999999", p.PlanID, 1) {
				t.Errorf("%+v: apply answered %q, unlike a plan that never was (%q)", by, msg, never)
			}
			wantCode(t, j.DiscardPlan(by, p.PlanID), abi.NotFound)
		}
	}
	if f.read("a.txt") != "a\n" {
		t.Fatal("another client applied the plan")
	}
	if _, e := other.ApplyPlan(context.Background(), who, p.PlanID); e != nil {
		t.Fatalf("the plan's own client: %v", e)
	}
	if f.read("a.txt") != "b\n" {
		t.Fatal("the plan was not applied")
	}
}
