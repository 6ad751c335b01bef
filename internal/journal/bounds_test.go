package journal

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// A change's new contents are bounded together, whatever each file may
// hold: edits with replaceAll multiply a small request.
func TestChangeContentIsBounded(t *testing.T) {
	defer func(n int64) { maxChangeBytes = n }(maxChangeBytes)
	maxChangeBytes = 1 << 20
	files := map[string]string{}
	for i := range 4 {
		files[fmt.Sprintf("f%d.txt", i)] = strings.Repeat("a", 400)
	}
	f := newFixture(t, files)
	var ops []wop
	for i := range 4 {
		ops = append(ops, wop{ChangeOp: abi.ChangeOp{Op: abi.OpEdit, Path: fmt.Sprintf("f%d.txt", i), OldString: "a", NewString: strings.Repeat("b", 1000), ReplaceAll: true}})
	}
	if _, e := f.apply(ops...); e == nil || e.Code != abi.TooLarge {
		t.Fatalf("1.6 MB of new content against a 1 MiB bound: %v", e)
	}
	if _, e := f.apply(ops[:2]...); e != nil {
		t.Fatalf("0.8 MB: %v", e)
	}
	// A file edited twice counts once, at its last content.
	twice := []wop{
		{ChangeOp: abi.ChangeOp{Op: abi.OpWrite, Path: "g.txt"}, content: strings.Repeat("x", 700<<10)},
		{ChangeOp: abi.ChangeOp{Op: abi.OpWrite, Path: "g.txt"}, content: strings.Repeat("y", 700<<10)},
	}
	if _, e := f.apply(twice...); e != nil {
		t.Fatalf("one file written twice within the bound: %v", e)
	}
}

// The previews kept are bounded together: past the bound a preview is
// TOO_LARGE until others are applied, discarded or expire.
func TestPlansAreBounded(t *testing.T) {
	defer func(n int64) { maxPlanBytes = n }(maxPlanBytes)
	maxPlanBytes = 1 << 20
	f := newFixture(t, nil)
	plan := func(name string) *abi.Error {
		req := &abi.ChangeRequest{Ops: []abi.ChangeOp{{Op: abi.OpWrite, Path: name, Length: 300 << 10}}}
		_, e := f.j.Plan(context.Background(), who, req, []byte(strings.Repeat("z", 300<<10)))
		return e
	}
	for i := range 2 {
		if e := plan(fmt.Sprintf("p%d.txt", i)); e != nil {
			t.Fatalf("preview %d: %v", i, e)
		}
	}
	if e := plan("p2.txt"); e == nil || e.Code != abi.TooLarge {
		t.Fatalf("a preview past the bound: %v", e)
	}
	f.j.opts.now = func() time.Time { return time.Now().Add(2 * time.Hour) }
	if e := plan("p3.txt"); e != nil {
		t.Fatalf("once the others expired: %v", e)
	}
}
