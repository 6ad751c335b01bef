package edit

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// Operation is one operation of a planned change.
type Operation struct {
	Op             string `json:"op" jsonschema:"required" enum:"write,edit,delete,move,mkdir" desc:"write: create or replace a file with content; edit: replace oldString by newString; delete; move to destination; mkdir."`
	Path           string `json:"path" jsonschema:"required" min:"1" desc:"The path the operation acts on."`
	Content        string `json:"content,omitempty" desc:"write: the whole new content."`
	OldString      string `json:"oldString,omitempty" desc:"edit: the exact text to replace."`
	NewString      string `json:"newString,omitempty" desc:"edit: the text to put in its place."`
	ReplaceAll     bool   `json:"replaceAll,omitempty" desc:"edit: replace every occurrence."`
	ExpectedSha256 string `json:"expectedSha256,omitempty" desc:"The SHA-256 the file must have now."`
	Destination    string `json:"destination,omitempty" desc:"move: the new path."`
	Recursive      bool   `json:"recursive,omitempty" desc:"delete: a folder with everything inside."`
	Overwrite      bool   `json:"overwrite,omitempty" desc:"move: replace an existing file at destination."`

	given map[string]bool // the keys the operation's JSON object holds
}

// UnmarshalJSON decodes an operation and notes which keys it holds: a
// write without content, or an edit without newString, is a mistake to
// name, where the empty string they would default to planned emptying the
// file, or deleting oldString.
func (o *Operation) UnmarshalJSON(b []byte) error {
	type plain Operation
	if err := json.Unmarshal(b, (*plain)(o)); err != nil {
		return err
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		return err
	}
	o.given = make(map[string]bool, len(keys))
	for k := range keys {
		o.given[k] = true
	}
	return nil
}

// opFields are the keys each op takes beside op and path.
var opFields = map[string][]string{
	abi.OpWrite:  {"content", "expectedSha256"},
	abi.OpEdit:   {"oldString", "newString", "replaceAll", "expectedSha256"},
	abi.OpDelete: {"recursive", "expectedSha256"},
	abi.OpMove:   {"destination", "overwrite", "expectedSha256"},
	abi.OpMkdir:  {},
}

// check refuses operation i (0-based) when it lacks a key its op needs
// or holds one its op does not take (a delete with a destination was a
// delete, its destination unread).
func (o *Operation) check(i int) error {
	need := map[string][]string{abi.OpWrite: {"content"}, abi.OpEdit: {"oldString", "newString"}, abi.OpMove: {"destination"}}
	for _, k := range need[o.Op] {
		if !o.given[k] {
			return juju.Errorf(abi.InvalidArgument, "operation %d (%s %s) has no %s, which a%s %s needs; add it (an empty string is allowed)", i+1, o.Op, juju.PathText(o.Path), k, article(o.Op), o.Op)
		}
	}
	for _, k := range []string{"content", "oldString", "newString", "replaceAll", "expectedSha256", "destination", "overwrite", "recursive"} {
		if o.given[k] && !slices.Contains(opFields[o.Op], k) {
			return juju.Errorf(abi.InvalidArgument, "operation %d (%s %s) has %s, which a%s %s does not take; leave it out, or give the op that takes it", i+1, o.Op, juju.PathText(o.Path), k, article(o.Op), o.Op)
		}
	}
	return nil
}

// article is "n" before an op starting with a vowel, so "an edit".
func article(op string) string {
	if op != "" && strings.IndexByte("aeiou", op[0]) >= 0 {
		return "n"
	}
	return ""
}

// PreviewChangesArgs are the arguments of preview_changes.
type PreviewChangesArgs struct {
	Operations []Operation `json:"operations,omitempty" max:"500" desc:"The operations, applied in order (a later one sees the earlier ones)."`
	Patch      string      `json:"patch,omitempty" desc:"A unified diff to apply after the operations."`
}

func init() {
	juju.Tool("preview_changes", editTool("Preview changes",
		"Plans a change of several operations (write, edit, delete, move, mkdir, and optionally a unified diff) without writing anything, "+
			"and returns a plan id with the unified diff for review. apply_changes applies the plan all-or-nothing, and refuses with FILE_CHANGED "+
			"if any file changed since the preview; discard_changes drops it. Plans expire after an hour.",
		abi.PlanResult{}, false, false), previewChanges)
}

// buildChange turns operations into a journal change.
func buildChange(ops []Operation, patch string) (*juju.Change, error) {
	c := new(juju.Change)
	for i, o := range ops {
		if o.given != nil { // decoded from JSON (a plan built in Go sets no keys)
			if err := o.check(i); err != nil {
				return nil, err
			}
		}
		op := abi.ChangeOp{Op: o.Op, Path: o.Path, ExpectedSHA256: o.ExpectedSha256}
		switch o.Op {
		case abi.OpWrite:
			op.KeepStyle = true
			c.Add(op, []byte(o.Content))
			continue
		case abi.OpEdit:
			op.OldString, op.NewString, op.ReplaceAll = o.OldString, o.NewString, o.ReplaceAll
		case abi.OpMove:
			if o.Destination == "" {
				return nil, juju.Errorf(abi.InvalidArgument, "operation %d moves %s but has no destination", i+1, juju.PathText(o.Path))
			}
			op.To, op.Overwrite = o.Destination, o.Overwrite
		case abi.OpDelete:
			op.Recursive = o.Recursive
		}
		c.Add(op, nil)
	}
	if patch != "" {
		c.Add(abi.ChangeOp{Op: abi.OpPatch, Patch: patch}, nil)
	}
	if c.Len() == 0 {
		return nil, juju.Errorf(abi.InvalidArgument, "pass at least one operation or a patch")
	}
	return c, nil
}

func previewChanges(_ *juju.Call, in PreviewChangesArgs) (*juju.Result, error) {
	c, err := buildChange(in.Operations, in.Patch)
	if err != nil {
		return nil, err
	}
	p, err := c.Plan()
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Plan %s (nothing written yet), %d path(s):\n", p.PlanID, len(p.Files))
	writeListed(&b, &p.Files, "")
	writeOffsets(&b, p.HunkOffsets, p.HunkOffsetsMore)
	fmt.Fprintf(&b, "Apply it with apply_changes planId=%s, or drop it with discard_changes. It expires at %s.\n", p.PlanID, p.Expires)
	writeDiff(&b, p.Diff, p.DiffCut)
	return juju.Text(b.String()).WithStructured(p), nil
}
