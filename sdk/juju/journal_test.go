//go:build !wasip1

package juju

import (
	"encoding/json"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

func TestChangeFrames(t *testing.T) {
	var gotFn string
	var got abi.ChangeRequest
	var gotBody string
	withHost(t, func(fn string, header, body []byte) ([]byte, []byte) {
		gotFn, gotBody = fn, string(body)
		if err := json.Unmarshal(header, &got); err != nil {
			t.Fatal(err)
		}
		return []byte(`{"changeId":"c000001","files":[{"path":"a","action":"modified","added":1,"removed":1}],"diff":"d"}`), nil
	})
	c := new(Change).
		Write(abi.ChangeOp{Path: "a"}, []byte("first")).
		Edit(abi.ChangeOp{Path: "b", OldString: "x", NewString: "y"}).
		Write(abi.ChangeOp{Path: "c"}, []byte("second")).
		Add(abi.ChangeOp{Op: abi.OpDelete, Path: "d"}, nil)
	res, err := c.Apply()
	if err != nil || res.ChangeID != "c000001" || res.Files[0].Added != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	if gotFn != abi.FnFSApply || gotBody != "firstsecond" || got.DryRun || len(got.Ops) != 4 {
		t.Fatalf("%s %q %+v", gotFn, gotBody, got)
	}
	if got.Ops[0].Length != 5 || got.Ops[1].Op != abi.OpEdit || got.Ops[1].Length != 0 || got.Ops[2].Length != 6 || got.Ops[3].Op != abi.OpDelete {
		t.Fatalf("ops %+v", got.Ops)
	}
	if _, err := c.DryRun(); err != nil || !got.DryRun {
		t.Fatal("dry run not asked")
	}
	if _, err := c.Plan(); err != nil || gotFn != abi.FnFSPlan {
		t.Fatalf("plan: %s %v", gotFn, err)
	}
}

func TestStateAndJournalCalls(t *testing.T) {
	store := map[string][]byte{}
	withHost(t, func(fn string, header, body []byte) ([]byte, []byte) {
		var req abi.StateRequest
		json.Unmarshal(header, &req)
		switch fn {
		case abi.FnStatePut:
			if req.Delete {
				delete(store, req.Key)
			} else {
				store[req.Key] = append([]byte(nil), body...)
			}
			return []byte(`{}`), nil
		case abi.FnStateGet:
			v, ok := store[req.Key]
			if !ok {
				return []byte(`{"found":false}`), nil
			}
			return []byte(`{"found":true}`), v
		case abi.FnFSRollback:
			return []byte(`{"error":{"code":"CONFLICT","message":"a.txt changed since c000001"}}`), nil
		}
		t.Fatalf("unexpected %s", fn)
		return nil, nil
	})
	if _, found, err := StateGet("k"); found || err != nil {
		t.Fatal("fresh key found")
	}
	if err := StatePut("k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	if v, found, err := StateGet("k"); !found || string(v) != "v" || err != nil {
		t.Fatalf("%q %v %v", v, found, err)
	}
	StatePut("k", nil)
	if _, found, _ := StateGet("k"); found {
		t.Fatal("not deleted")
	}
	if _, err := Rollback(abi.RollbackRequest{ChangeID: "c1"}); !IsCode(err, abi.Conflict) {
		t.Fatalf("rollback: %v", err)
	}
}
