package abi

// Journal host functions (capability fs.write, except FnFSHistory which
// needs fs.read). Every write a plugin makes goes through them: each path's
// pre-image is stored, the files are written atomically, and the change is
// recorded and reversible. A change of several operations is all-or-nothing.
const (
	FnFSApply       = "juju_fs_apply"        // ChangeRequest + contents → ChangeResult; fs.write
	FnFSPlan        = "juju_fs_plan"         // ChangeRequest + contents → PlanResult; fs.write
	FnFSPlanApply   = "juju_fs_plan_apply"   // PlanRequest → ChangeResult; fs.write
	FnFSPlanDiscard = "juju_fs_plan_discard" // PlanRequest → Status; fs.write
	FnFSHistory     = "juju_fs_history"      // HistoryRequest → HistoryResult; fs.read
	FnFSRollback    = "juju_fs_rollback"     // RollbackRequest → ChangeResult; fs.write
)

// Bounds of one change, the same for a dry run, a plan and an apply. A
// plugin that builds a change from many files (replace_in_files) stops at
// them itself, with a sentence of its own, rather than send a request the
// host refuses or cannot take.
const (
	// MaxChangeOps bounds the operations of one change request: each
	// is a path read, diffed and listed in the result.
	MaxChangeOps = 1000
	// MaxChangeBytes bounds the new contents of one change, every path
	// together: each file may hold 32 MiB, and edits with replaceAll
	// multiply a small request into them (ten files of 32 KiB, each "a"
	// made 1,000 "b"s, were 1.9 GB of memory and 450 MB kept by one
	// preview).
	MaxChangeBytes = 64 << 20
)

// Operation kinds of a ChangeOp.
const (
	OpWrite  = "write"  // create or replace a file with the content (Length bytes of the body)
	OpEdit   = "edit"   // replace OldString by NewString in a file, exactly
	OpDelete = "delete" // remove a file, a symlink or an empty folder (Recursive: a folder and all it holds)
	OpMove   = "move"   // rename Path to To (Overwrite: replace an existing To)
	OpMkdir  = "mkdir"  // make a folder and its missing parents
	OpPatch  = "patch"  // apply Patch, a unified diff over one or more files, without fuzz
)

// ChangeOp is one operation of a change. Paths are relative to the first
// root, or absolute inside a root; a symlink is written through (its
// in-root target changes, the link stays).
type ChangeOp struct {
	Op   string `json:"op"`
	Path string `json:"path,omitempty"`
	To   string `json:"to,omitempty"` // move: the new path
	// Length is, for write, how many bytes of the request body hold this
	// operation's content; the contents of the write operations follow
	// each other in the body, in order.
	Length int64 `json:"length,omitempty"`
	// ExpectedSHA256, when set, is the hex sha256 the file must have now;
	// otherwise the change fails with FILE_CHANGED.
	ExpectedSHA256 string `json:"expectedSha256,omitempty"`
	// Edit: the exact text to find and its replacement. OldString must occur
	// once, unless ReplaceAll; the match ignores the file's CRLF line ends,
	// BOM and UTF-16 encoding, which the written file keeps.
	OldString  string `json:"oldString,omitempty"`
	NewString  string `json:"newString,omitempty"`
	ReplaceAll bool   `json:"replaceAll,omitempty"`
	// ExpectedCount, when positive, is how many replacements an edit must
	// make (CONFLICT otherwise).
	ExpectedCount int `json:"expectedCount,omitempty"`
	// KeepStyle, for write over an existing file: keep its BOM, CRLF
	// line ends and UTF-16 encoding when the new content has none of them.
	KeepStyle bool   `json:"keepStyle,omitempty"`
	Overwrite bool   `json:"overwrite,omitempty"` // move: replace an existing destination file
	Recursive bool   `json:"recursive,omitempty"` // delete: a folder with everything in it
	Patch     string `json:"patch,omitempty"`     // patch: the unified diff
}

// ChangeRequest is a list of operations applied all-or-nothing. DryRun
// computes the result and the diff without writing or recording anything.
type ChangeRequest struct {
	Ops    []ChangeOp `json:"ops"`
	DryRun bool       `json:"dryRun,omitempty"`
}

// File change actions.
const (
	ActionCreated    = "created"
	ActionModified   = "modified"
	ActionDeleted    = "deleted"
	ActionDirCreated = "dir-created"
	ActionDirDeleted = "dir-deleted"
)

// FileChange is what a change did, or would do, to one path. Action is one
// of the Action constants.
type FileChange struct {
	Path         string `json:"path" desc:"The path, relative to the first root."`
	Action       string `json:"action" enum:"created,modified,deleted,dir-created,dir-deleted" desc:"What happens to the path."`
	SHA256Before string `json:"sha256Before,omitempty" desc:"SHA-256 of the file before the change."`
	SHA256After  string `json:"sha256After,omitempty" desc:"SHA-256 of the file after the change; pass it as expectedSha256 to a later edit."`
	Mode         string `json:"mode,omitempty" desc:"The file's permissions, e.g. -rw-r--r--."`
	Added        int    `json:"added" desc:"Lines added."`
	Removed      int    `json:"removed" desc:"Lines removed."`
	Replacements int    `json:"replacements,omitempty" desc:"Replacements made in this file."`
	OtherLinks   int    `json:"otherLinks,omitempty" desc:"For a modified file: how many other names (hard links) it had. The change wrote a new file under this path, so those names keep the old content."`
}

// ChangeResult describes an applied (or dry-run) change. The tools that
// change files return it as their structured content.
type ChangeResult struct {
	Status
	ChangeID string       `json:"changeId,omitempty" desc:"The id of the recorded change (empty for a dry run); undo it with rollback_changes."`
	DryRun   bool         `json:"dryRun,omitempty" desc:"Nothing was written: this is what the change would do."`
	Files    []FileChange `json:"files" desc:"Each path the change touches."`
	// Diff is the unified diff of the change, cut at the host's bound
	// (DiffCut then says so).
	Diff    string `json:"diff" desc:"Unified diff of the change."`
	DiffCut bool   `json:"diffCut,omitempty" desc:"The diff was cut at the host's bound."`
	// RolledBack lists the changes a rollback undid, newest first.
	RolledBack []string `json:"rolledBack,omitempty" desc:"For a rollback: the changes it undid."`
	// HunkOffsets lists the hunks of a patch placed at another line than
	// their header names.
	HunkOffsets     []HunkOffset `json:"hunkOffsets,omitempty" desc:"For a patch: the hunks that applied at another line than their header names, as git apply's \"Hunk #2 succeeded at 14 (offset 3 lines)\"."`
	HunkOffsetsMore int          `json:"hunkOffsetsMore,omitempty" desc:"How many more hunks applied at another line than hunkOffsets lists."`
}

// MaxHunkOffsets bounds the hunk offsets a result lists.
const MaxHunkOffsets = 20

// HunkOffset is a hunk of a patch whose old lines were found at another
// line than its @@ header names: the lines above it moved since the patch
// was made. Line counts in the file before the patch; Offset is what git
// apply reports.
type HunkOffset struct {
	Path   string `json:"path" desc:"The file the hunk changes, relative to the first root."`
	Hunk   int    `json:"hunk" desc:"The hunk's number in that file's part of the patch, from 1."`
	Line   int    `json:"line" desc:"The line of the file, before the patch, where the hunk's old lines start."`
	Offset int    `json:"offset" desc:"Line minus the line the hunk's header names: below it when positive, above it when negative."`
}

// PlanRequest names a plan made by FnFSPlan.
type PlanRequest struct {
	PlanID string `json:"planId"`
}

// PlanResult is a stored, not yet applied change: applying it checks that
// no file changed since the plan was made (FILE_CHANGED otherwise).
type PlanResult struct {
	Status
	PlanID  string       `json:"planId" desc:"Pass it to apply_changes (or discard_changes)."`
	Files   []FileChange `json:"files" desc:"Each path the plan touches."`
	Diff    string       `json:"diff" desc:"Unified diff of the plan."`
	DiffCut bool         `json:"diffCut,omitempty" desc:"The diff was cut at the host's bound."`
	Expires string       `json:"expires" desc:"When the plan is forgotten (RFC 3339)."`
	// HunkOffsets is as in ChangeResult.
	HunkOffsets     []HunkOffset `json:"hunkOffsets,omitempty" desc:"For a patch: the hunks that applied at another line than their header names."`
	HunkOffsetsMore int          `json:"hunkOffsetsMore,omitempty" desc:"How many more hunks applied at another line than hunkOffsets lists."`
}

// HistoryRequest lists recorded changes, newest first. With ChangeID, only
// that change, with its diff.
type HistoryRequest struct {
	ChangeID string `json:"changeId,omitempty"`
	Since    string `json:"since,omitempty"`  // RFC 3339
	Limit    int    `json:"limit,omitempty"`  // 0: the host's default
	Offset   int    `json:"offset,omitempty"` // skip this many of the newest changes listed
	Path     string `json:"path,omitempty"`   // only changes touching this path
}

// ChangeInfo is one recorded change. Time is RFC 3339; CallID is the audit
// id of the tool call that made it.
type ChangeInfo struct {
	ID     string       `json:"id" desc:"The change id (pass it to rollback_changes)."`
	Time   string       `json:"time" desc:"When it was made (RFC 3339)."`
	Client string       `json:"client,omitempty" desc:"The MCP client that asked for it."`
	Plugin string       `json:"plugin,omitempty" desc:"The plugin that made it."`
	Tool   string       `json:"tool,omitempty" desc:"The tool that made it."`
	CallID string       `json:"callId,omitempty" desc:"The audit id of the tool call that made it."`
	Files  []FileChange `json:"files" desc:"The paths it touched (in a list, only the first ones: see filesTotal)."`
	// FilesTotal is how many paths it touched, set when a list gives only
	// the first of them in Files.
	FilesTotal int  `json:"filesTotal,omitempty" desc:"How many paths it touched, when files lists only the first ones (ask for the change by changeId to see them all)."`
	RolledBack bool `json:"rolledBack,omitempty" desc:"A later change undid it."`
	// RolledBackBy is the change that undid this one; RollbackOf lists
	// the changes this one undid.
	RolledBackBy string   `json:"rolledBackBy,omitempty" desc:"The change that undid it."`
	RollbackOf   []string `json:"rollbackOf,omitempty" desc:"When it is a rollback: the changes it undid."`
	Diff         string   `json:"diff,omitempty" desc:"With changeId: the unified diff."`
	DiffCut      bool     `json:"diffCut,omitempty" desc:"The diff was cut at the host's bound."`
}

// HistoryResult holds changes, newest first; More says Limit left older
// ones out.
type HistoryResult struct {
	Status
	Changes []ChangeInfo `json:"changes" desc:"The changes, newest first."`
	More    bool         `json:"more,omitempty" desc:"Older changes were left out by limit."`
	// Earlier says why changes older than the journal's oldest are not in
	// it, when the list reaches that oldest one.
	Earlier string `json:"earlier,omitempty" desc:"Why changes made before the oldest the journal holds are not listed: they were pruned, or were in a damaged journal juju set aside."`
}

// RollbackRequest undoes ChangeID, or with After every change recorded
// after it (ChangeID itself stays). A path changed since the change is a
// CONFLICT unless Force.
type RollbackRequest struct {
	ChangeID string `json:"changeId"`
	After    bool   `json:"after,omitempty"`
	Force    bool   `json:"force,omitempty"`
}

// State host functions (capability state): a plugin's own small key-value
// space, per workspace, kept in juju's state folder outside the roots.
const (
	FnStateGet = "juju_state_get" // StateRequest → StateResult + the value as body
	FnStatePut = "juju_state_put" // StateRequest + the value as body → Status
)

// StateRequest names a key (^[A-Za-z0-9._-]{1,64}$). For put, Delete
// removes the key; otherwise the body is the new value.
type StateRequest struct {
	Key    string `json:"key"`
	Delete bool   `json:"delete,omitempty"`
}

// StateResult says whether the key holds a value (the body).
type StateResult struct {
	Status
	Found bool `json:"found"`
}
