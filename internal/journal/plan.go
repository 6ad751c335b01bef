package journal

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/jujutools/juju/sdk/abi"
)

// storedPlan is a previewed change kept until applied, discarded or
// expired. It is the client's that made it (its name and principal, as
// approvals know a client): to any other it does not exist.
type storedPlan struct {
	ID        string     `json:"id"`
	Expires   time.Time  `json:"expires"`
	Plugin    string     `json:"plugin,omitempty"`
	Client    string     `json:"client,omitempty"`
	Principal string     `json:"principal,omitempty"`
	Files     []planFile `json:"files"`
}

type planFile struct {
	fileRec
	Post []byte `json:"post,omitempty"`
}

// Plan computes the change req describes and keeps it, unapplied, under a
// plan id; nothing is written to the workspace.
func (j *Journal) Plan(ctx context.Context, by Author, req *abi.ChangeRequest, body []byte) (*abi.PlanResult, *abi.Error) {
	var res *abi.PlanResult
	err := j.withDB(func(db *bolt.DB) error {
		d, e := j.build(ctx, by, req, body)
		if e != nil {
			return e
		}
		p := d.prepare()
		if len(p.steps) == 0 {
			return abi.Errorf(abi.InvalidArgument, "the operations change nothing (every file already holds that content), so there is no plan to make")
		}
		now := j.opts.now().UTC()
		sp := storedPlan{Expires: now.Add(j.opts.planTTL), Plugin: by.Plugin, Client: by.Client, Principal: by.Principal}
		for i, s := range p.steps {
			sp.Files = append(sp.Files, planFile{fileRec: p.recs[i], Post: s.post})
		}
		return db.Update(func(tx *bolt.Tx) error {
			b := tx.Bucket(bucketPlans)
			kept := purgePlans(b, now)
			seq, err := b.NextSequence()
			if err != nil {
				return err
			}
			sp.ID = fmt.Sprintf("p%06d", seq)
			v, err := json.Marshal(sp)
			if err != nil {
				return err
			}
			if kept+int64(len(v)) > maxPlanBytes {
				return abi.Errorf(abi.TooLarge, "the previews not yet applied hold %d MiB, and this one would pass the %d MiB juju keeps; apply or discard some (they expire after an hour), or preview smaller changes", kept>>20, maxPlanBytes>>20)
			}
			res = &abi.PlanResult{PlanID: sp.ID, Files: fileChanges(p.recs), Diff: p.diff, DiffCut: p.cut, Expires: sp.Expires.Format(time.RFC3339), HunkOffsets: p.moved, HunkOffsetsMore: p.movedMore}
			return b.Put([]byte(sp.ID), v)
		})
	})
	if err != nil {
		return nil, j.internal("keep the plan", err)
	}
	return res, nil
}

// maxPlanBytes bounds the plans kept together: each holds every file's new
// content until it is applied, discarded or expires, an hour later.
var maxPlanBytes int64 = 256 << 20

// purgePlans drops the plans that have expired and returns the bytes of
// those kept.
func purgePlans(b *bolt.Bucket, now time.Time) (kept int64) {
	var old [][]byte
	b.ForEach(func(k, v []byte) error {
		var head struct {
			Expires time.Time `json:"expires"`
		}
		if json.Unmarshal(planHead(v), &head) != nil || now.After(head.Expires) {
			old = append(old, append([]byte(nil), k...))
		} else {
			kept += int64(len(v))
		}
		return nil
	})
	for _, k := range old {
		b.Delete(k)
	}
	return kept
}

// planHead is the start of a stored plan up to its files: its id and
// expiry, which come first (storedPlan's field order), read without
// decoding every file's content.
func planHead(v []byte) []byte {
	if i := bytes.Index(v, []byte(`,"files":`)); i > 0 {
		return append(v[:i:i], '}')
	}
	return v
}

func normalizePlanID(s string) (string, bool) {
	s = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "p")
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n == 0 {
		return "", false
	}
	return fmt.Sprintf("p%06d", n), true
}

// loadPlan loads the plan id made by the client of by. Another client's
// plan is NOT_FOUND, as a plan that never was: ids are sequential, and
// the answer must not tell another client that one exists.
func (j *Journal) loadPlan(tx *bolt.Tx, by Author, id string) (*storedPlan, *abi.Error) {
	norm, ok := normalizePlanID(id)
	if !ok {
		return nil, abi.Errorf(abi.InvalidArgument, "%s is not a plan id; plan ids look like p000007 (preview_changes returns one)", abi.Quote(id))
	}
	v := tx.Bucket(bucketPlans).Get([]byte(norm))
	var sp storedPlan
	if v == nil || json.Unmarshal(v, &sp) != nil || j.opts.now().After(sp.Expires) || sp.Client != by.Client || sp.Principal != by.Principal {
		return nil, abi.Errorf(abi.NotFound, "there is no plan %s: it was applied, discarded or has expired; make a new one with preview_changes", norm)
	}
	return &sp, nil
}

// ApplyPlan applies a plan the client of by made with Plan, if no file it touches changed
// since (FILE_CHANGED otherwise), and forgets it.
func (j *Journal) ApplyPlan(ctx context.Context, by Author, planID string) (*abi.ChangeResult, *abi.Error) {
	var res *abi.ChangeResult
	err := j.withLater(func(db *bolt.DB, later *func()) error {
		var sp *storedPlan
		var e *abi.Error
		if err := db.View(func(tx *bolt.Tx) error { sp, e = j.loadPlan(tx, by, planID); return nil }); err != nil {
			return err
		}
		if e != nil {
			return e
		}
		d := j.newDraft(ctx)
		roots := j.pol.Roots()
		for _, f := range sp.Files {
			if f.Root >= len(roots) {
				return abi.Errorf(abi.Conflict, "plan %s names a root juju is not serving now; make a new plan", sp.ID)
			}
			// bbolt checks no page: bytes overwritten in the file since
			// are read back as they are, and were written as planned.
			if f.After.Kind == kindFile && sum(f.Post) != f.After.SHA256 {
				j.log.Error("journal: a plan's content does not match its sha256", "plan", sp.ID, "path", f.Path)
				return abi.Errorf(abi.Internal, "plan %s is damaged in juju's journal (the content planned for %s no longer matches its sha256), so nothing was written; make a new plan with preview_changes, and tell the owner", sp.ID, abi.Quote(f.Path))
			}
			s, e := d.recorded(roots[f.Root], f.Rel, f.Path)
			if e != nil {
				return e
			}
			if !s.before.equal(f.Before) {
				return abi.Errorf(abi.FileChanged, "%s changed since plan %s was made, so the plan no longer describes it; nothing was written. Make a new plan with preview_changes", abi.Quote(f.Path), sp.ID)
			}
			s.after, s.post, s.count = f.After, f.Post, f.Count
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
			return abi.Errorf(abi.FileChanged, "%s changed since plan %s was made: it now holds %s, which the plan would have to delete; nothing was written. Make a new plan with preview_changes", abi.Quote(dir.display), sp.ID, abi.Quote(entry))
		}
		if e := d.expired(); e != nil {
			return e
		}
		p := d.prepare()
		p.plan = sp.ID
		rec, then, e := j.commit(db, by, p, nil, "")
		if e != nil {
			return e
		}
		res, *later = p.result(rec.ID), then
		return nil
	})
	if err != nil {
		return nil, j.internal("apply the plan", err)
	}
	return res, nil
}

// DiscardPlan forgets a plan the client of by made.
func (j *Journal) DiscardPlan(by Author, planID string) *abi.Error {
	err := j.withDB(func(db *bolt.DB) error {
		return db.Update(func(tx *bolt.Tx) error {
			sp, e := j.loadPlan(tx, by, planID)
			if e != nil {
				return e
			}
			return tx.Bucket(bucketPlans).Delete([]byte(sp.ID))
		})
	})
	if err != nil {
		return j.internal("discard the plan", err)
	}
	return nil
}

// PlanView is what a plan will do, as the owner is asked to approve
// applying it: each path it touches, with its lines added and removed.
type PlanView struct {
	ID    string
	Files []abi.FileChange
}

// ViewPlan reads the plan id made by the client of by, writing nothing.
// NOT_FOUND as loadPlan.
func (j *Journal) ViewPlan(by Author, planID string) (*PlanView, *abi.Error) {
	var pv *PlanView
	var e *abi.Error
	err := j.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketPlans)
		if b == nil {
			return nil
		}
		var sp *storedPlan
		if sp, e = j.loadPlan(tx, by, planID); e != nil {
			return nil
		}
		recs := make([]fileRec, len(sp.Files))
		for i, f := range sp.Files {
			recs[i] = f.fileRec
		}
		pv = &PlanView{ID: sp.ID, Files: fileChanges(recs)}
		return nil
	})
	switch {
	case err != nil:
		return nil, j.internal("read the plan", err)
	case e != nil:
		return nil, e
	case pv == nil:
		norm, _ := normalizePlanID(planID)
		return nil, abi.Errorf(abi.NotFound, "there is no plan %s", norm)
	}
	return pv, nil
}
