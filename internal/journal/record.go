package journal

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/jujutools/juju/sdk/abi"
)

// Kinds of a path's state.
const (
	kindAbsent  = "absent"
	kindFile    = "file"
	kindDir     = "dir"
	kindSymlink = "symlink"
)

// image is the state of one path at one time.
type image struct {
	Kind   string      `json:"kind"`
	SHA256 string      `json:"sha256,omitempty"` // file
	Mode   fs.FileMode `json:"mode,omitempty"`   // file, dir
	Target string      `json:"target,omitempty"` // symlink
	// Meta is a file's or folder's owner, group and extended attributes,
	// which a path juju writes anew gets back (applyMeta); not part of
	// the state equal compares. Records made before it have none.
	Meta *meta `json:"meta,omitempty"`
	// OtherLinks is how many other names (hard links) a file had when
	// read: a write renames a new file over this name, so they keep the
	// old content (RATIONALE "A hard link is broken, not written
	// through"). Not part of the state equal compares.
	OtherLinks int `json:"otherLinks,omitempty"`
	// id is the file's device and inode as read, which tells the names
	// of one file apart from others in the same change; not recorded.
	id [2]uint64
}

// equal reports whether a and b are one state: a file's content and mode
// (its permission bits, setuid, setgid and sticky, which a patch may change
// alone), a link's target. A folder is a folder whatever its mode: no
// change sets a folder's mode alone, and the mode a made folder gets is
// the system's (the umask, a default ACL), not one juju chose.
func (a image) equal(b image) bool {
	switch {
	case a.Kind != b.Kind:
		return false
	case a.Kind == kindFile:
		return a.SHA256 == b.SHA256 && fileMode(a.Mode) == fileMode(b.Mode)
	case a.Kind == kindSymlink:
		return a.Target == b.Target
	}
	return true
}

// fileMode is the part of a file's mode the journal keeps and restores.
func fileMode(m fs.FileMode) fs.FileMode {
	return m.Perm() | m&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)
}

// written is the mode of a file whose content a change replaces, mode
// having been its mode: less setuid, and less setgid where its group may
// execute it (without that, setgid marks mandatory locking, not a program
// run as the group), as the kernel drops them at a write by a process
// without CAP_FSETID. The new file is juju's, written with the content the
// AI chose: keeping the bits made an edit of a setuid program a program
// that runs as its owner with that content. File capabilities, which vouch
// for a content too, are dropped beside them (contentBound). A move keeps
// the mode, and a rollback gives back the mode the file had.
func written(mode fs.FileMode) fs.FileMode {
	mode &^= fs.ModeSetuid
	if mode&0o010 != 0 {
		mode &^= fs.ModeSetgid
	}
	return mode
}

// fileRec is one path of a change.
type fileRec struct {
	Root    int    `json:"root"` // index in the policy's roots
	Rel     string `json:"rel"`  // slash path inside the root
	Path    string `json:"path"` // display path
	Before  image  `json:"before"`
	After   image  `json:"after"`
	Temp    string `json:"temp,omitempty"` // the temporary name used while writing (rel)
	Added   int    `json:"added,omitempty"`
	Removed int    `json:"removed,omitempty"`
	Count   int    `json:"count,omitempty"` // replacements made by an edit
	// DiffAt is where the path's part of the change's diff begins (in a
	// record with DiffSplit; it ends where the next path's begins).
	DiffAt int `json:"diffAt,omitempty"`
}

// Record states.
const (
	statePending = "pending"
	stateDone    = "done"
)

// record is one change as stored.
type record struct {
	ID      string    `json:"id"`
	Time    time.Time `json:"time"`
	Client  string    `json:"client,omitempty"`
	Plugin  string    `json:"plugin,omitempty"`
	Tool    string    `json:"tool,omitempty"`
	CallID  string    `json:"callId,omitempty"`
	State   string    `json:"state"`
	Files   []fileRec `json:"files"`
	Diff    string    `json:"diff,omitempty"`
	DiffCut bool      `json:"diffCut,omitempty"`
	// DiffSplit says each path's DiffAt holds where its diff begins
	// (records made before it was kept have none).
	DiffSplit    bool     `json:"diffSplit,omitempty"`
	RolledBackBy string   `json:"rolledBackBy,omitempty"`
	RollbackOf   []string `json:"rollbackOf,omitempty"`
	// RestoredAfter is, for a rollback of every change after a point,
	// that point: each path got back the state it had then, which is not
	// always the state before the last change it undid (see inEffect).
	RestoredAfter string `json:"restoredAfter,omitempty"`
}

// ChangeSummary is one recorded change without its diff.
type ChangeSummary struct {
	ID     string
	CallID string // the audit id of the tool call that made it
	Time   time.Time
	Client string
	Plugin string
	Tool   string
	Paths  []string // display paths, in the order written
	// RolledBack says a later change undid this one: RolledBackBy.
	RolledBack   bool
	RolledBackBy string
	RollbackOf   []string // the changes this one undid, when it is a rollback
}

// Change is one recorded change in full.
type Change struct {
	ChangeSummary
	Files   []abi.FileChange
	Diff    string
	DiffCut bool
}

func (r *record) summary() ChangeSummary {
	s := ChangeSummary{
		ID: r.ID, CallID: r.CallID, Time: r.Time, Client: r.Client, Plugin: r.Plugin, Tool: r.Tool,
		RolledBack: r.RolledBackBy != "", RolledBackBy: r.RolledBackBy, RollbackOf: r.RollbackOf,
	}
	for _, f := range r.Files {
		s.Paths = append(s.Paths, f.Path)
	}
	return s
}

func (r *record) change() *Change {
	return &Change{ChangeSummary: r.summary(), Files: fileChanges(r.Files), Diff: r.Diff, DiffCut: r.DiffCut}
}

func (r *record) info(withDiff bool) abi.ChangeInfo {
	ci := abi.ChangeInfo{
		ID: r.ID, Time: r.Time.UTC().Format(time.RFC3339), Client: r.Client, Plugin: r.Plugin, Tool: r.Tool,
		CallID: r.CallID, Files: fileChanges(r.Files), RolledBack: r.RolledBackBy != "",
		RolledBackBy: r.RolledBackBy, RollbackOf: r.RollbackOf,
	}
	if withDiff {
		ci.Diff, ci.DiffCut = r.Diff, r.DiffCut
	}
	return ci
}

// fileChanges describes the paths of a change on the wire.
func fileChanges(files []fileRec) []abi.FileChange {
	out := make([]abi.FileChange, 0, len(files))
	for _, f := range files {
		fc := abi.FileChange{Path: f.Path, SHA256Before: f.Before.SHA256, SHA256After: f.After.SHA256,
			Added: f.Added, Removed: f.Removed, Replacements: f.Count}
		switch {
		case f.After.Kind == kindDir && f.Before.Kind != kindDir:
			fc.Action = abi.ActionDirCreated
		case f.Before.Kind == kindDir && f.After.Kind != kindDir:
			fc.Action = abi.ActionDirDeleted
		case f.Before.Kind == kindAbsent:
			fc.Action = abi.ActionCreated
		case f.After.Kind == kindAbsent:
			fc.Action = abi.ActionDeleted
		default:
			fc.Action = abi.ActionModified
		}
		if fc.Action == abi.ActionModified && f.Before.Kind == kindFile {
			fc.OtherLinks = f.Before.OtherLinks
		}
		if f.After.Kind == kindFile {
			fc.Mode = f.After.Mode.String()
		} else if f.Before.Kind == kindFile {
			fc.Mode = f.Before.Mode.String()
		}
		out = append(out, fc)
	}
	return out
}

// Change ids are "c" and a sequence number, zero-padded so that they sort
// by time, as bbolt orders its keys (by bytes) and the journal compares
// them: c000042. A number of more than six digits takes the letter after
// c for each digit more, d1000000, e10000000 …, so that it sorts after
// every shorter one: as c1000000 it sorted before c999999, and past a
// million changes history listed the newest last, a rollback after
// c999998 missed c1000000 on, and a prune took the newest changes first.
// Anyone may type 42, c42 or the number behind any of these letters.
func changeID(seq uint64) string {
	s := strconv.FormatUint(seq, 10)
	if len(s) <= 6 {
		return fmt.Sprintf("c%06d", seq)
	}
	return string(rune('c'+len(s)-6)) + s
}

// normalizeID turns what a user typed into a stored id.
func normalizeID(s string) (string, bool) {
	n := changeSeq(strings.ToLower(strings.TrimSpace(s)))
	if n == 0 {
		return "", false
	}
	return changeID(n), true
}

// changeSeq is the number of a change id (c000042 → 42, d1000000 →
// 1000000), 0 for what is not one.
func changeSeq(id string) uint64 {
	if id != "" && 'c' <= id[0] && id[0] <= 'c'+20-6 {
		id = id[1:]
	}
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func getRecord(tx *bolt.Tx, id string) (*record, error) {
	v := tx.Bucket(bucketChanges).Get([]byte(id))
	if v == nil {
		return nil, nil
	}
	r := new(record)
	if err := json.Unmarshal(v, r); err != nil {
		return nil, corrupt("the record of %s cannot be read (%v)", id, err)
	}
	return r, nil
}

func putRecord(tx *bolt.Tx, r *record) error {
	v, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketChanges).Put([]byte(r.ID), v)
}

// ValidID reports whether s has the form of a change id: c000042, c42 or
// 42, as juju rollback and rollback_changes take it.
func ValidID(s string) bool {
	_, ok := normalizeID(s)
	return ok
}
