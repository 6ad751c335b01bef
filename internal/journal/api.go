package journal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/jujutools/juju/sdk/abi"
)

// maxOps bounds the operations of one change request (a dry run too).
const maxOps = abi.MaxChangeOps

// build computes the change req describes over the current disk.
func (j *Journal) build(ctx context.Context, by Author, req *abi.ChangeRequest, body []byte) (*draft, *abi.Error) {
	if len(req.Ops) == 0 {
		return nil, abi.Errorf(abi.InvalidArgument, "the change holds no operation; pass at least one")
	}
	if len(req.Ops) > maxOps {
		return nil, abi.Errorf(abi.TooLarge, "the change holds more than %d operations; split it", maxOps)
	}
	d := j.newDraft(ctx)
	d.reader = Reader(by.Client, by.Principal, by.Session)
	var off int64
	for i, op := range req.Ops {
		if e := d.expired(); e != nil {
			return nil, e
		}
		var content []byte
		if op.Op == abi.OpWrite {
			// Compared with what is left, not added to off: a length near
			// 2^63 overflowed the sum, passed, and sliced out of range.
			if op.Length < 0 || op.Length > int64(len(body))-off {
				return nil, abi.Errorf(abi.InvalidArgument, "operation %d says its content is %d bytes, but the request body holds only %d more", i+1, op.Length, int64(len(body))-off)
			}
			content = body[off : off+op.Length]
			off += op.Length
		}
		if e := d.add(op, content); e != nil {
			return nil, e
		}
	}
	if off != int64(len(body)) {
		return nil, abi.Errorf(abi.InvalidArgument, "the request body holds %d bytes more than the write operations claim", int64(len(body))-off)
	}
	if e := d.expired(); e != nil {
		return nil, e
	}
	if e := d.readOnly(); e != nil {
		return nil, e
	}
	return d, nil
}

// Apply makes the change req describes, all-or-nothing, and records it as
// made by caller. body holds the contents of the write operations.
func (j *Journal) Apply(ctx context.Context, by Author, req *abi.ChangeRequest, body []byte) (*abi.ChangeResult, *abi.Error) {
	var res *abi.ChangeResult
	err := j.withLater(func(db *bolt.DB, later *func()) error {
		d, e := j.build(ctx, by, req, body)
		if e != nil {
			return e
		}
		p := d.prepare()
		if req.DryRun || len(p.steps) == 0 {
			res = p.result("")
			res.DryRun = req.DryRun
			return nil
		}
		rec, then, e := j.commit(db, by, p, nil, "")
		if e != nil {
			return e
		}
		res, *later = p.result(rec.ID), then
		return nil
	})
	if err != nil {
		return nil, j.internal("make the change", err)
	}
	return res, nil
}

// Changes lists the recorded changes made at or after since (all when
// zero), oldest first.
func (j *Journal) Changes(since time.Time) ([]ChangeSummary, error) {
	var out []ChangeSummary
	err := j.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketChanges).ForEach(func(k, v []byte) error {
			var r record
			if err := json.Unmarshal(v, &r); err != nil {
				return corrupt("the record of %s cannot be read (%v)", k, err)
			}
			if r.State == stateDone && !r.Time.Before(since) {
				out = append(out, r.summary())
			}
			return nil
		})
	})
	if err != nil {
		return nil, asError(err)
	}
	return out, nil
}

// ErrNotFound is returned by Change for an unknown id.
var ErrNotFound = errors.New("journal: no such change")

// Change returns one recorded change with its diff. id may be typed as
// c000042, c42 or 42.
func (j *Journal) Change(id string) (*Change, error) {
	norm, ok := normalizeID(id)
	if !ok {
		return nil, fmt.Errorf("%w: %q is not a change id (they look like c000042)", ErrNotFound, id)
	}
	var rec *record
	var through string
	err := j.view(func(tx *bolt.Tx) error {
		r, err := getRecord(tx, norm)
		if r != nil && r.State == stateDone {
			rec = r
		}
		through = prunedThrough(tx)
		return err
	})
	if err != nil {
		return nil, asError(err)
	}
	if rec == nil && through != "" && norm <= through {
		return nil, fmt.Errorf("%w: %s was pruned (the journal keeps %s)", ErrNotFound, norm, j.opts.limits)
	}
	if rec == nil {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, norm)
	}
	return rec.change(), nil
}

// maxListedPaths bounds the paths of each change a history list gives
// (FilesTotal says how many there are; a change asked for by id gives them
// all): 200 changes of 5,000 paths were 16 MiB, the most a host answer may
// be. The edit plugin shows the first 10.
const maxListedPaths = 20

// History serves the history host function: changes newest first.
func (j *Journal) History(req *abi.HistoryRequest) (*abi.HistoryResult, *abi.Error) {
	limit := req.Limit
	if limit <= 0 || limit > 200 {
		limit = 20
	}
	var since time.Time
	if req.Since != "" {
		t, err := time.Parse(time.RFC3339, req.Since)
		if err != nil {
			return nil, abi.Errorf(abi.InvalidArgument, "since must be an RFC 3339 time such as 2026-01-02T15:04:05Z")
		}
		since = t
	}
	var path string
	if req.Path != "" {
		r, e := j.pol.ResolveForWrite(req.Path)
		if e != nil {
			return nil, e
		}
		path = r.Display
	}
	if req.Offset < 0 {
		return nil, abi.Errorf(abi.InvalidArgument, "offset must not be negative")
	}
	skip := req.Offset
	res := &abi.HistoryResult{Changes: []abi.ChangeInfo{}}
	if req.ChangeID != "" {
		id, ok := normalizeID(req.ChangeID)
		if !ok {
			return nil, abi.Errorf(abi.InvalidArgument, "%s is not a change id; ids look like c000042 (see change_history)", abi.Quote(req.ChangeID))
		}
		var gone *abi.Error
		missing := unknownChange(nil, id)
		err := j.view(func(tx *bolt.Tx) error {
			r, err := getRecord(tx, id)
			if r != nil && r.State == stateDone {
				ci := r.info(true)
				j.withhold(r, &ci)
				res.Changes = append(res.Changes, ci)
			}
			if through := prunedThrough(tx); r == nil && through != "" && id <= through {
				gone = j.prunedError(id, through)
			}
			missing = unknownChange(tx, id)
			return err
		})
		if err != nil {
			return nil, j.internal("read the history", err)
		}
		if gone != nil {
			return nil, gone
		}
		if len(res.Changes) == 0 {
			return nil, missing
		}
		return res, nil
	}
	err := j.view(func(tx *bolt.Tx) error {
		res.Earlier = j.earlier(tx)
		c := tx.Bucket(bucketChanges).Cursor()
		for k, v := c.Last(); k != nil; k, v = c.Prev() {
			var r record
			if err := json.Unmarshal(v, &r); err != nil {
				return corrupt("the record of %s cannot be read (%v)", k, err)
			}
			if r.State != stateDone || r.Time.Before(since) || (path != "" && !touches(&r, path)) {
				continue
			}
			if skip > 0 {
				skip--
				continue
			}
			if len(res.Changes) == limit {
				res.More = true
				return nil
			}
			ci := r.info(false)
			j.withhold(&r, &ci)
			if len(ci.Files) > maxListedPaths {
				ci.Files, ci.FilesTotal = ci.Files[:maxListedPaths], len(ci.Files)
			}
			res.Changes = append(res.Changes, ci)
		}
		return nil
	})
	if err != nil {
		return nil, j.internal("read the history", err)
	}
	if res.More {
		res.Earlier = "" // the list stops short of the oldest change
	}
	return res, nil
}

// Earlier says why changes made before the oldest the journal holds are
// not in it ("": none was ever dropped), for `juju rollback` to say under
// its list.
func (j *Journal) Earlier() (string, error) {
	var why string
	err := j.view(func(tx *bolt.Tx) error {
		why = j.earlier(tx)
		return nil
	})
	return why, asError(err)
}

// earlier is Earlier within tx: changes before the oldest kept were
// pruned, or were in a damaged journal set aside, after which the new
// journal counts ids again from c000001.
func (j *Journal) earlier(tx *bolt.Tx) string {
	var why []string
	if n := setAsideOf(tx); n.File != "" {
		why = append(why, fmt.Sprintf("juju found the journal damaged on %s and started a new one, so the changes made before then are no longer in it (and ids start again at %s)", n.Time.Format(time.RFC3339), changeID(1)))
	}
	if through := prunedThrough(tx); through != "" {
		why = append(why, fmt.Sprintf("every change up to %s was pruned, as the journal keeps %s", through, j.opts.limits))
	}
	return strings.Join(why, "; ")
}

func touches(r *record, display string) bool {
	for _, f := range r.Files {
		if f.Path == display {
			return true
		}
	}
	return false
}

// asError turns a journal failure into a Go error for the CLI.
func asError(err error) error {
	var ae *abi.Error
	if errors.As(err, &ae) {
		return ae
	}
	return err
}
