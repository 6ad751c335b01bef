package journal

import (
	"context"
	"encoding/json"
	"sort"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/jujutools/juju/sdk/abi"
)

// Rollback undoes the change id (typed c000042, c42 or 42) as one new
// change, recorded as made by by. A path changed since (it no longer holds
// what the change left) is a CONFLICT unless force. The error is an
// *abi.Error.
func (j *Journal) Rollback(ctx context.Context, by Author, id string, force bool) (*abi.ChangeResult, error) {
	res, e := j.RollbackRequest(ctx, by, &abi.RollbackRequest{ChangeID: id, Force: force})
	if e != nil {
		return nil, e
	}
	return res, nil
}

// RollbackAfter undoes every change recorded after id (id itself stays),
// as one new change: each path gets back the state it had before the first
// of them. A path changed since the last of them is a CONFLICT unless force.
func (j *Journal) RollbackAfter(ctx context.Context, by Author, id string, force bool) (*abi.ChangeResult, error) {
	res, e := j.RollbackRequest(ctx, by, &abi.RollbackRequest{ChangeID: id, After: true, Force: force})
	if e != nil {
		return nil, e
	}
	return res, nil
}

// target is what a rollback wants of one path.
type target struct {
	f       fileRec // Before: the state to restore
	after   image   // the state the undone changes left
	content []byte
	order   int
}

// RollbackRequest serves the rollback host function.
func (j *Journal) RollbackRequest(ctx context.Context, by Author, req *abi.RollbackRequest) (*abi.ChangeResult, *abi.Error) {
	id, ok := normalizeID(req.ChangeID)
	if !ok && req.After && strings.Trim(strings.ToLower(strings.TrimSpace(req.ChangeID)), "c0") == "" {
		id, ok = changeID(0), true // after the start: every change
	}
	if !ok {
		return nil, abi.Errorf(abi.InvalidArgument, "%s is not a change id; ids look like c000042 (see change_history)", abi.Quote(req.ChangeID))
	}
	var res *abi.ChangeResult
	err := j.withLater(func(db *bolt.DB, later *func()) error {
		recs, targets, e := j.targets(db, id, req.After)
		if e != nil {
			return e
		}
		d := j.newDraft(ctx)
		d.undoing = true
		roots := j.pol.Roots()
		var conflicts []string
		for _, t := range targets {
			if t.f.Root >= len(roots) {
				return abi.Errorf(abi.Conflict, "%s was recorded in a workspace root juju is not serving now; start juju with the same roots to roll it back", abi.Quote(t.f.Path))
			}
			s, e := d.recorded(roots[t.f.Root], t.f.Rel, t.f.Path)
			if e != nil {
				return e
			}
			if !s.before.equal(t.after) {
				conflicts = append(conflicts, t.f.Path)
			}
			s.after, s.post = t.f.Before, t.content
		}
		if e := d.foldersBack(); e != nil {
			return e
		}
		if e := d.readOnly(); e != nil {
			return e
		}
		if dir, entry, e := d.stray(); e != nil {
			return e
		} else if dir != nil {
			return abi.Errorf(abi.Conflict, "rolling back %s removes the folder %s, which now holds %s, something %s did not make; juju does not delete what it did not record, with force or not, so nothing was changed. Move or delete %s first, then roll back again",
				what(id, req.After), abi.Quote(dir.display), abi.Quote(entry), what(id, req.After), abi.Quote(entry))
		}
		if req.After && len(d.steps()) == 0 {
			// Every change in the range is undone already (or they undo one
			// another): an empty change would only mark the last rollback
			// as undone while the files keep its work.
			return abi.Errorf(abi.Conflict, "every path %s touched already holds what it held before them (they were rolled back already, or undo one another), so there is nothing to roll back; nothing was changed. See change_history for the changes in effect",
				what(id, true))
		}
		if len(conflicts) > 0 && !req.Force {
			return abi.Errorf(abi.Conflict, "%s changed since %s (it no longer holds what the change left), so rolling back would lose that work; nothing was changed. Look at the file, then roll back with force to overwrite it",
				strings.Join(quoteAll(conflicts, 5), ", "), what(id, req.After))
		}
		var undone []string
		for i := len(recs) - 1; i >= 0; i-- {
			if recs[i].RolledBackBy == "" || !req.After {
				undone = append(undone, recs[i].ID) // targets checked the one change is in effect
			}
		}
		if e := d.expired(); e != nil {
			return e
		}
		p := d.prepare()
		var restoredAfter string
		if req.After {
			restoredAfter = id
		}
		rec, then, e := j.commit(db, by, p, undone, restoredAfter)
		if e != nil {
			return e
		}
		res, *later = p.result(rec.ID), then
		res.RolledBack = undone
		return nil
	})
	if err != nil {
		return nil, j.internal("roll back", err)
	}
	return res, nil
}

func what(id string, after bool) string {
	if after {
		return "the changes after " + id
	}
	return id
}

func quoteAll(paths []string, max int) []string {
	var out []string
	for i, p := range paths {
		if i == max {
			out = append(out, "…")
			break
		}
		out = append(out, abi.Quote(p))
	}
	return out
}

// maxRollbackChain bounds how far inEffect follows rollbacks of rollbacks.
const maxRollbackChain = 10_000

// inEffect says whether r's effect is on disk as far as the journal knows.
// Each rollback records itself as RolledBackBy of the changes it undid, so
// r, r.RolledBackBy, its RolledBackBy … is the chain of the changes that
// undid or redid r. A rollback of one change puts back the state before
// it, so r's standing after it is its standing before the link it undid:
// undone, redone, undone … alternately. A rollback of every change after
// a point puts back the state at that point instead: r's standing after
// the last link made by then, or not in effect when r itself came later.
// Taken alternately, c1 undone by c2, and c2 undone by a rollback of
// everything since c1, read as c1 redone, and the reverse (c1 undone by c2,
// redone by c3, and everything after c1 rolled back) as c1 undone.
func inEffect(tx *bolt.Tx, r *record) (bool, error) {
	seqs := []uint64{changeSeq(r.ID)}
	in := []bool{true}
	for n := 0; r.RolledBackBy != "" && n < maxRollbackChain; n++ {
		next, err := getRecord(tx, r.RolledBackBy)
		if err != nil {
			return false, err
		}
		if next == nil {
			break
		}
		now := false // before the first link: r not yet made
		if next.RestoredAfter != "" {
			point := changeSeq(next.RestoredAfter)
			for i := len(seqs) - 1; i >= 0; i-- {
				if seqs[i] <= point {
					now = in[i]
					break
				}
			}
		} else if len(in) >= 2 {
			now = in[len(in)-2]
		}
		seqs, in = append(seqs, changeSeq(next.ID)), append(in, now)
		r = next
	}
	return in[len(in)-1], nil
}

// targets loads the changes to undo (oldest first) and, per path, the
// state to restore and the state they left, in the order to restore them.
func (j *Journal) targets(db *bolt.DB, id string, after bool) ([]*record, []*target, *abi.Error) {
	var recs []*record
	byKey := map[key]*target{}
	var list []*target
	var e *abi.Error
	err := db.View(func(tx *bolt.Tx) error {
		first, err := getRecord(tx, id)
		if err != nil {
			return err
		}
		if through := prunedThrough(tx); through != "" && (after && id < through || !after && id <= through && first == nil) {
			if after {
				e = abi.Errorf(abi.NotFound, "the changes after %s include changes pruned from the journal (every change up to %s is gone; it keeps %s), so the workspace cannot be put back to that point; the earliest point left is after %s",
					id, through, j.opts.limits, through)
			} else {
				e = j.prunedError(id, through)
			}
			return nil
		}
		if !after && (first == nil || first.State != stateDone) {
			e = unknownChange(tx, id)
			return nil
		}
		if !after {
			in, err := inEffect(tx, first)
			if err != nil {
				return err
			}
			if !in {
				e = abi.Errorf(abi.Conflict, "%s was already rolled back by %s; roll back %s to redo it", id, first.RolledBackBy, first.RolledBackBy)
				return nil
			}
			recs = []*record{first}
		} else {
			c := tx.Bucket(bucketChanges).Cursor()
			for k, v := c.Seek([]byte(id)); k != nil; k, v = c.Next() {
				if string(k) == id {
					continue
				}
				r := new(record)
				if err := json.Unmarshal(v, r); err != nil {
					return corrupt("the record of %s cannot be read (%v)", k, err)
				}
				if r.State == stateDone {
					recs = append(recs, r)
				}
			}
			if len(recs) == 0 {
				e = abi.Errorf(abi.NotFound, "no change was recorded after %s, so there is nothing to roll back", id)
				return nil
			}
		}
		n := 0
		for _, r := range recs {
			for _, f := range r.Files {
				k := key{f.Root, f.Rel}
				t, ok := byKey[k]
				if !ok {
					t = &target{f: f}
					if f.Before.Kind == kindFile {
						b := tx.Bucket(bucketBlobs).Get([]byte(f.Before.SHA256))
						if b == nil {
							e = abi.Errorf(abi.Internal, "the journal lost the old content of %s, so %s cannot be rolled back; tell the owner", abi.Quote(f.Path), r.ID)
							return nil
						}
						if sum(b) != f.Before.SHA256 {
							return corrupt("the stored old content of %s (in %s) does not match its sha256", f.Path, r.ID)
						}
						t.content = append([]byte(nil), b...)
					}
					byKey[k] = t
					list = append(list, t)
				}
				t.after = f.After
				n++
				t.order = n
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, j.internal("read the journal", err)
	}
	if e != nil {
		return nil, nil, e
	}
	// Restore the paths changed last first.
	sort.SliceStable(list, func(a, b int) bool { return list[a].order > list[b].order })
	return recs, list, nil
}
