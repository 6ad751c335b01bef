package journal

import (
	"bytes"
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// TestDamagedPlanIsNotApplied: a plan's new content is kept in the
// journal's file until apply_changes, and bbolt reads it back unchecked.
// Bytes overwritten there since are not written to the workspace: the
// plan is refused, saying to make a new one, and nothing changes. They
// were written, recorded under the sha256 of the content planned.
func TestDamagedPlanIsNotApplied(t *testing.T) {
	f := newFixture(t, map[string]string{"a.txt": "old\n"})
	content := strings.Repeat("the planned content\n", 30)
	p, e := f.j.Plan(context.Background(), who, &abi.ChangeRequest{Ops: []abi.ChangeOp{{Op: abi.OpWrite, Path: "a.txt", Length: int64(len(content))}}}, []byte(content))
	if e != nil {
		t.Fatal(e)
	}
	db := filepath.Join(f.state, FileName)
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	enc := []byte(base64.StdEncoding.EncodeToString([]byte(content))[:40])
	i := bytes.Index(b, enc)
	if i < 0 {
		t.Fatal("the planned content is not in the journal's file as base64")
	}
	b[i] ^= 'd' ^ 'e' // still base64, another content
	if err := os.WriteFile(db, b, 0o600); err != nil {
		t.Fatal(err)
	}
	_, e = f.j.ApplyPlan(context.Background(), who, p.PlanID)
	if msg := wantCode(t, e, abi.Internal); !strings.Contains(msg, "preview_changes") {
		t.Fatalf("the answer does not say to make a new plan: %s", msg)
	}
	if got, _ := os.ReadFile(filepath.Join(f.root, "a.txt")); string(got) != "old\n" {
		t.Fatalf("a damaged plan was written: %.40q", got)
	}
	noTemps(t, f.root)
}
