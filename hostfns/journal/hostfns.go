package journal

import (
	"context"
	"errors"
	"os"
	"sync"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// Lazy opens a journal on first use, so a server that never writes never
// touches the state folder.
type Lazy struct {
	once     sync.Once
	stateDir string
	pol      *policy.Policy
	opts     []Option
	j        *Journal
	err      error
	reads    *ReadLog
}

// NewLazy returns a Lazy over Open(stateDir, pol, opts...).
// Files read through Saw are checked for changes before an edit (see
// ReadLog).
func NewLazy(stateDir string, pol *policy.Policy, opts ...Option) *Lazy {
	reads := NewReadLog()
	return &Lazy{stateDir: stateDir, pol: pol, opts: append(opts, WithReadLog(reads)), reads: reads}
}

// Saw records a read of a file (wire it to fs.Options.Observe).
func (l *Lazy) Saw(r *policy.Resolved, fi os.FileInfo) { l.reads.Saw(r, fi) }

// Get opens the journal the first time and returns it.
func (l *Lazy) Get() (*Journal, error) {
	l.once.Do(func() { l.j, l.err = Open(l.stateDir, l.pol, l.opts...) })
	return l.j, l.err
}

// Close closes the journal if it was opened, waiting for an opening in
// progress; after Close, Get fails.
func (l *Lazy) Close() error {
	l.once.Do(func() { l.err = errors.New("journal: closed") })
	if l.j != nil {
		return l.j.Close()
	}
	return nil
}

// New returns the journal's host functions.
func New(l *Lazy) []hostfns.Func {
	s := &server{l: l}
	return []hostfns.Func{
		{Name: abi.FnFSApply, Capability: abi.CapFSWrite, Handle: hostfns.Typed(s.apply)},
		{Name: abi.FnFSPlan, Capability: abi.CapFSWrite, Handle: hostfns.Typed(s.plan)},
		{Name: abi.FnFSPlanApply, Capability: abi.CapFSWrite, Handle: hostfns.Typed(s.planApply)},
		{Name: abi.FnFSPlanDiscard, Capability: abi.CapFSWrite, Handle: hostfns.Typed(s.planDiscard)},
		{Name: abi.FnFSHistory, Capability: abi.CapFSRead, Handle: hostfns.Typed(s.history)},
		{Name: abi.FnFSRollback, Capability: abi.CapFSWrite, Handle: hostfns.Typed(s.rollback)},
	}
}

type server struct{ l *Lazy }

func (s *server) journal() (*Journal, *abi.Error) {
	j, err := s.l.Get()
	if err != nil {
		return nil, abi.Errorf(abi.Internal, "juju could not open its change journal, so no file can be changed; tell the owner (juju doctor)")
	}
	return j, nil
}

func caller(ctx context.Context) hostfns.Caller {
	c, _ := hostfns.CallerFrom(ctx)
	return c
}

func (s *server) apply(ctx context.Context, req *abi.ChangeRequest, body []byte) (*abi.ChangeResult, []byte, *abi.Error) {
	j, e := s.journal()
	if e != nil {
		return nil, nil, e
	}
	res, e := j.Apply(ctx, caller(ctx), req, body)
	return res, nil, e
}

func (s *server) plan(ctx context.Context, req *abi.ChangeRequest, body []byte) (*abi.PlanResult, []byte, *abi.Error) {
	j, e := s.journal()
	if e != nil {
		return nil, nil, e
	}
	res, e := j.Plan(ctx, caller(ctx), req, body)
	return res, nil, e
}

func (s *server) planApply(ctx context.Context, req *abi.PlanRequest, _ []byte) (*abi.ChangeResult, []byte, *abi.Error) {
	j, e := s.journal()
	if e != nil {
		return nil, nil, e
	}
	res, e := j.ApplyPlan(ctx, caller(ctx), req.PlanID)
	return res, nil, e
}

func (s *server) planDiscard(ctx context.Context, req *abi.PlanRequest, _ []byte) (*abi.Status, []byte, *abi.Error) {
	j, e := s.journal()
	if e != nil {
		return nil, nil, e
	}
	if e := j.DiscardPlan(req.PlanID); e != nil {
		return nil, nil, e
	}
	return &abi.Status{}, nil, nil
}

func (s *server) history(ctx context.Context, req *abi.HistoryRequest, _ []byte) (*abi.HistoryResult, []byte, *abi.Error) {
	j, e := s.journal()
	if e != nil {
		return nil, nil, e
	}
	res, e := j.History(req)
	return res, nil, e
}

func (s *server) rollback(ctx context.Context, req *abi.RollbackRequest, _ []byte) (*abi.ChangeResult, []byte, *abi.Error) {
	j, e := s.journal()
	if e != nil {
		return nil, nil, e
	}
	res, e := j.RollbackRequest(ctx, caller(ctx), req)
	return res, nil, e
}
