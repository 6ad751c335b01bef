// Package journal provides the journal's host functions (capability
// fs.write, history with fs.read): every write a plugin makes goes through
// them to the workspace's change journal (package internal/journal), with
// the calling client, plugin, tool and call id recorded as its author.
package journal

import (
	"context"
	"os"

	"github.com/jujutools/juju/hostfns"
	store "github.com/jujutools/juju/internal/journal"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// Options tune the journal's host functions; the zero value is valid.
type Options struct {
	// LiftMemoryLimit, when set, lifts the host's soft memory limit while
	// a large change is made (largeChange) and returns the restore.
	LiftMemoryLimit func() (restore func())
}

// largeChange is the size of new contents from which a change or plan
// lifts the soft memory limit: the journal holds them and as much of old
// contents, which under juju stdio's limit left the collector running
// throughout (300 files of 100 KB: 3.7-4.4 s of CPU for the apply instead
// of 1.2; docs/RATIONALE.md).
const largeChange = 4 << 20

// ObserveReads is the fs host functions' Observe for reads: the read is
// the calling client's, whose changes the journal checks against it.
func ObserveReads(reads *store.ReadLog) func(context.Context, *policy.Resolved, os.FileInfo, uint64, bool) {
	return func(ctx context.Context, r *policy.Resolved, fi os.FileInfo, sum uint64, whole bool) {
		c, _ := hostfns.CallerFrom(ctx)
		reads.SawContent(store.Reader(c.Client, c.Principal, c.Session), r, fi, sum, whole)
	}
}

// New returns the host functions over the journal j.
func New(j *store.Journal, opts Options) []hostfns.Func {
	s := &server{j: j, opts: opts}
	return []hostfns.Func{
		{Name: abi.FnFSApply, Capability: abi.CapFSWrite, Handle: hostfns.Typed(s.apply)},
		{Name: abi.FnFSPlan, Capability: abi.CapFSWrite, Handle: hostfns.Typed(s.plan)},
		{Name: abi.FnFSPlanApply, Capability: abi.CapFSWrite, Handle: hostfns.Typed(s.planApply)},
		{Name: abi.FnFSPlanDiscard, Capability: abi.CapFSWrite, Handle: hostfns.Typed(s.planDiscard)},
		{Name: abi.FnFSHistory, Capability: abi.CapFSRead, Handle: hostfns.Typed(s.history)},
		{Name: abi.FnFSRollback, Capability: abi.CapFSWrite, Handle: hostfns.Typed(s.rollback)},
	}
}

type server struct {
	j    *store.Journal
	opts Options
}

// lift lifts the soft memory limit for a change whose new contents are
// body, when it is large, until the returned function is called.
func (s *server) lift(body []byte) (restore func()) {
	if len(body) < largeChange || s.opts.LiftMemoryLimit == nil {
		return func() {}
	}
	return s.opts.LiftMemoryLimit()
}

// author is the journal's record of the call in ctx.
func author(ctx context.Context) store.Author {
	c, _ := hostfns.CallerFrom(ctx)
	return store.Author{Client: c.Client, Principal: c.Principal, Session: c.Session, Plugin: c.Plugin, Tool: c.Tool, CallID: c.CallID}
}

// made notes the change res made in the call of ctx: once committed, a
// change is reported as made even if the call runs out of time before
// the plugin answers (hostfns.Made).
func made(ctx context.Context, res *abi.ChangeResult) *abi.ChangeResult {
	if res != nil {
		hostfns.NoteMade(ctx, res.ChangeID)
	}
	return res
}

func (s *server) apply(ctx context.Context, req *abi.ChangeRequest, body []byte) (*abi.ChangeResult, []byte, *abi.Error) {
	defer s.lift(body)()
	res, e := s.j.Apply(ctx, author(ctx), req, body)
	return made(ctx, res), nil, e
}

func (s *server) plan(ctx context.Context, req *abi.ChangeRequest, body []byte) (*abi.PlanResult, []byte, *abi.Error) {
	defer s.lift(body)()
	res, e := s.j.Plan(ctx, author(ctx), req, body)
	return res, nil, e
}

func (s *server) planApply(ctx context.Context, req *abi.PlanRequest, _ []byte) (*abi.ChangeResult, []byte, *abi.Error) {
	res, e := s.j.ApplyPlan(ctx, author(ctx), req.PlanID)
	return made(ctx, res), nil, e
}

func (s *server) planDiscard(ctx context.Context, req *abi.PlanRequest, _ []byte) (*abi.Status, []byte, *abi.Error) {
	if e := s.j.DiscardPlan(author(ctx), req.PlanID); e != nil {
		return nil, nil, e
	}
	return &abi.Status{}, nil, nil
}

func (s *server) history(_ context.Context, req *abi.HistoryRequest, _ []byte) (*abi.HistoryResult, []byte, *abi.Error) {
	res, e := s.j.History(req)
	return res, nil, e
}

func (s *server) rollback(ctx context.Context, req *abi.RollbackRequest, _ []byte) (*abi.ChangeResult, []byte, *abi.Error) {
	res, e := s.j.RollbackRequest(ctx, author(ctx), req)
	return made(ctx, res), nil, e
}
