package host

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/approval"
	"github.com/jujutools/juju/internal/audit"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/sdk/abi"
)

// DefaultApprovalTimeout is how long a call held for the owner's approval
// waits before it answers APPROVAL_PENDING: well under the minute MCP
// clients give a tool call.
const DefaultApprovalTimeout = config.DefaultApprovalTimeout

// NeedsApproval reports whether a call to a tool of the given tier waits for
// the owner in the given trust mode (SPEC §5): in inspect every E and X
// call, in edit every X call, in trusted none. R never waits. A tier juju
// does not know is treated as X. Host.Call lets a job tool that follows a
// job the same client started through without asking (followsOwnJob).
func NeedsApproval(mode config.Mode, tier string) bool {
	if tier == abi.TierRead {
		return false
	}
	switch mode {
	case config.ModeTrusted:
		return false
	case config.ModeEdit:
		return tier != abi.TierEdit
	}
	return true // inspect, or a mode juju does not know: the strictest
}

// Question is what the owner is asked about a call.
type Question struct {
	CallID    string
	Client    string
	Principal string // hostfns.Caller.Principal: "" for the owner's local clients
	Plugin    string
	Tool      string
	Tier      string
	Args      []byte // the call's JSON arguments, whole: the owner reads them all (visible.Args)
	ArgsHash  string // identifies the arguments (approval.HashArgs)
	// What says what the call will do, written by juju (describe), every
	// character visible and bounded: "" for a tool juju does not describe.
	What string
	// Epoch is the workspace's epoch as the owner is asked
	// (approval.Store.Epoch): their yes covers the call while it is the same.
	Epoch string
	// Note, when set, tells the owner why they are asked again
	// (ChangedWhileAsked).
	Note string
	// Conn is the connection the call came in on (Host.connOf), which
	// has a share of the approvals that wait, whatever names it declares.
	Conn string
}

// ChangedWhileAsked is the Note of a question asked again because the
// workspace changed through juju while the owner was asked the first time.
const ChangedWhileAsked = "The workspace changed through juju while you were asked about this call (a file was written or a command ran), so juju asks again: read it again."

// maxAsks is how many times one call asks the owner in the client when
// the workspace keeps changing while they are asked: the second question
// says why it comes; a client that changes the workspace again meanwhile
// is refused (changed) rather than keep the owner answering.
const maxAsks = 2

// Answer is what an Asker got from the owner.
type Answer int

// The answers.
const (
	Declined Answer = iota // the owner declined or cancelled
	Accepted               // the owner accepted: the call runs
	Handed                 // the question went to the client, whose retry of the call carries the answer
)

// Asker asks the owner, through the MCP client (elicitation), whether a
// call may run. The MCP front sets Request.Asker when the client declared
// it can be asked.
type Asker interface {
	// Ask returns the owner's answer. An error means the owner could not
	// be asked (the client failed or did not answer in time); the host
	// then falls back to `juju approvals`.
	Ask(ctx context.Context, q Question) (Answer, error)
}

// approve holds a call until the owner decides. It returns how the call
// was decided for the audit, and a non-nil error when the call must not
// run (APPROVAL_DENIED or APPROVAL_PENDING); handed when the question went
// to the client, whose retry carries the answer.
//
// The owner's yes covers the call as the workspace stood when they were
// asked: an approval whose epoch has moved since (a file written, a command
// run through juju) does not run the call; the owner is asked again.
func (h *Host) approve(ctx context.Context, c hostfns.Caller, args []byte, asker Asker) (appr *audit.Approval, refused *abi.Error, handed bool) {
	// What the call does is read before the epoch is (askInClient,
	// newApproval): a plan made meanwhile moves the epoch after it, so a
	// yes to an older view of it does not run it.
	what := h.describe(c, args)
	hash := approval.HashArgs(args)
	q := Question{CallID: c.CallID, Client: c.Client, Principal: c.Principal, Plugin: c.Plugin, Tool: c.Tool, Tier: c.Tier, Args: args, ArgsHash: hash, What: what, Conn: h.connOf(c.Session)}

	// A retry of a call the owner already decided on, or is deciding on,
	// told what it does as it would do it here.
	if r, ok := h.approvals.Match(c.Principal, c.Client, c.Tool, hash, what); ok {
		switch r.State {
		case approval.Approved:
			if r.Epoch != h.approvals.Epoch() {
				return h.askAgain(ctx, q, r.Request)
			}
			if h.approvals.Use(r.ID) == nil {
				return &audit.Approval{Via: "cli", Decision: "approved", ID: r.ID}, nil, false
			}
		case approval.Denied:
			h.approvals.Use(r.ID)
			return &audit.Approval{Via: "cli", Decision: "denied", ID: r.ID}, denied(c.Tool), false
		case approval.Pending:
			appr, refused = h.wait(ctx, q, r.Request)
			return appr, refused, false
		}
	}

	if asker != nil {
		if appr, refused, handed, asked := h.askInClient(ctx, q, asker); asked {
			return appr, refused, handed
		}
	}

	q.Epoch = h.approvals.Epoch()
	req, err := h.newApproval(q)
	if err != nil {
		return &audit.Approval{Via: "cli", Decision: "unavailable"}, err, false
	}
	appr, refused = h.wait(ctx, q, req)
	return appr, refused, false
}

// askInClient asks the owner through the client. asked is false when
// the client could not ask and the owner has time left: the call then
// waits for `juju approvals`. A yes given while the workspace's epoch
// moved is not taken: the owner is asked again, told why, up to maxAsks
// times.
func (h *Host) askInClient(ctx context.Context, q Question, asker Asker) (appr *audit.Approval, refused *abi.Error, handed, asked bool) {
	actx, cancel := context.WithTimeout(ctx, h.approvalTimeout())
	defer cancel()
	for ask := 1; ; ask++ {
		q.Epoch = h.approvals.Epoch()
		answer, err := asker.Ask(actx, q)
		switch {
		case err == nil && answer == Handed:
			return &audit.Approval{Via: "elicitation", Decision: "asked"}, nil, true, true
		case err == nil && answer == Accepted && h.approvals.Epoch() != q.Epoch:
			if ask < maxAsks {
				q.Note = ChangedWhileAsked
				continue
			}
			return &audit.Approval{Via: "elicitation", Decision: "changed"}, changed(q.Tool), false, true
		case err == nil && answer == Accepted:
			return &audit.Approval{Via: "elicitation", Decision: "approved"}, nil, false, true
		case err == nil:
			return &audit.Approval{Via: "elicitation", Decision: "denied"}, denied(q.Tool), false, true
		case ctx.Err() != nil:
			return &audit.Approval{Via: "elicitation", Decision: "cancelled"}, cancelled(q.Tool), false, true
		}
		h.log.Warn("the client could not ask the owner; waiting for juju approvals instead", "tool", q.Tool, "err", err)
		if !errors.Is(err, context.DeadlineExceeded) {
			return nil, nil, false, false
		}
		// The owner had their time already: record the call for the
		// terminal and answer at once.
		q.Epoch, q.Note = h.approvals.Epoch(), ""
		req, cerr := h.newApproval(q)
		if cerr != nil {
			return &audit.Approval{Via: "cli", Decision: "unavailable"}, cerr, false, true
		}
		return &audit.Approval{Via: "cli", Decision: "pending", ID: req.ID}, pending(req), false, true
	}
}

// askAgain answers a retry of a call the owner approved in a workspace
// that has changed since: the approval is spent without running the call
// (marked stale), and a new one, saying why, waits for the owner.
func (h *Host) askAgain(ctx context.Context, q Question, old approval.Request) (*audit.Approval, *abi.Error, bool) {
	next, aerr := h.renew(q, old)
	if aerr != nil {
		return &audit.Approval{Via: "cli", Decision: "unavailable"}, aerr, false
	}
	appr, refused := h.wait(ctx, q, next)
	return appr, refused, false
}

// renew marks old stale and records a new pending approval of the same
// call at the workspace's present epoch, its note naming old.
func (h *Host) renew(q Question, old approval.Request) (approval.Request, *abi.Error) {
	h.approvals.Stale(old.ID) // taken by a retry at the same moment: it asks again too
	q.Epoch = h.approvals.Epoch()
	q.Note = fmt.Sprintf("the workspace changed through juju (a file was written or a command ran) after the owner approved this call as %s, so that approval no longer covers it", old.ID)
	h.log.Warn("an approved call came back after the workspace changed; asking you again", "id", old.ID, "tool", q.Tool, "client", q.Client)
	return h.newApproval(q)
}

// newApproval records a pending approval, with the whole arguments for
// `juju approvals`, and tells the owner's log.
func (h *Host) newApproval(q Question) (approval.Request, *abi.Error) {
	short := audit.ShortArgs(q.Args)
	req, err := h.approvals.Create(approval.Request{
		Client: q.Client, Principal: q.Principal, Plugin: q.Plugin, Tool: q.Tool, Tier: q.Tier,
		Args: short, ArgsHash: q.ArgsHash, CallID: q.CallID, Epoch: q.Epoch, Note: q.Note, What: q.What, Conn: q.Conn,
	}, q.Args)
	switch {
	case errors.Is(err, approval.ErrTooLarge):
		return req, abi.Errorf(abi.TooLarge, "this call needs the owner's approval, and its arguments (%d bytes) are more than the %d MiB the owner can be asked to approve; make the change in smaller parts", len(q.Args), approval.MaxArgs>>20)
	case errors.Is(err, approval.ErrShareFull):
		if ok, more := h.fullWarning(); ok {
			h.log.Warn("approvals: one client's calls fill its share of the approvals; decide them with `juju approvals`, or refuse them all with `juju approvals deny --client NAME`", "client", q.Client, "err", err, "refused_since_last_warning", more)
		}
		return req, abi.Errorf(abi.TooLarge, "this call needs the owner's approval, and %d of this client's calls (or %d MiB of their arguments) already wait for the owner; do not make more such calls now: ask the owner to decide them (juju approvals), or wait for them, then call again", approval.MaxPerClient, approval.MaxStoredPerClient>>20)
	case errors.Is(err, approval.ErrFull):
		if ok, more := h.fullWarning(); ok {
			h.log.Warn("approvals: too many wait for you; decide them with `juju approvals`", "err", err, "refused_since_last_warning", more)
		}
		return req, abi.Errorf(abi.TooLarge, "this call needs the owner's approval, and %d approvals (or %d MiB of arguments) already wait for the owner; ask the owner to decide them (juju approvals), then call again", approval.MaxRecords, approval.MaxStored>>20)
	case err != nil:
		h.log.Error("recording an approval", "err", err)
		return req, abi.Errorf(abi.Internal, "juju could not record the approval this call needs; tell the owner (see juju's log)")
	}
	h.log.Warn("a call waits for your approval: run `juju approvals` to see it, `juju approvals approve "+req.ID+"` to let it run",
		"id", req.ID, "tool", q.Tool, "client", q.Client, "args", short)
	return req, nil
}

// wait polls a pending approval until the owner decides or the approval
// timeout passes. An approval given after the workspace changed is
// renewed (renew) and waited for in turn.
func (h *Host) wait(ctx context.Context, q Question, req approval.Request) (*audit.Approval, *abi.Error) {
	wctx, cancel := context.WithTimeout(ctx, h.approvalTimeout())
	defer cancel()
	for {
		r, err := h.approvals.Wait(wctx, req.ID)
		if err != nil || r.State != approval.Approved || r.Epoch == h.approvals.Epoch() {
			return h.waited(ctx, req, r, err)
		}
		next, aerr := h.renew(q, req)
		if aerr != nil {
			return &audit.Approval{Via: "cli", Decision: "unavailable"}, aerr
		}
		req = next
	}
}

// waited is what became of a call wait held: r and err are what
// approval.Store.Wait returned.
func (h *Host) waited(ctx context.Context, req approval.Request, r approval.Record, err error) (*audit.Approval, *abi.Error) {
	a := &audit.Approval{Via: "cli", ID: req.ID}
	switch {
	case err == nil && r.State == approval.Approved:
		if h.approvals.Use(req.ID) == nil {
			a.Decision = "approved"
			return a, nil
		}
		// Another call with the same arguments took this approval.
		a.Decision = "pending"
		return a, pending(req)
	case err == nil && r.State == approval.Denied:
		h.approvals.Use(req.ID)
		a.Decision = "denied"
		return a, denied(req.Tool)
	case ctx.Err() != nil:
		a.Decision = "cancelled"
		return a, cancelled(req.Tool)
	case err == nil && r.State == approval.Expired:
		a.Decision = "expired"
		return a, abi.Errorf(abi.ApprovalDenied, "the approval %s for %s expired before the owner decided; call the tool again to ask anew", req.ID, req.Tool)
	}
	a.Decision = "pending"
	return a, pending(req)
}

// connOf names the connection of a call that came in on session, for
// the approvals' share of one connection (approval.Request.Conn): this
// process and the session, "" without a session.
func (h *Host) connOf(session string) string {
	if session == "" {
		return ""
	}
	return h.process + " " + session
}

// fullWarning reports whether the warning that approvals are full may be
// logged now, at most once a minute (logWindow), and how many calls were
// refused for it since the last one was.
func (h *Host) fullWarning() (bool, int) {
	ok, dropped, _ := h.fullLog.take("approvals", logBudget)
	return ok, dropped
}

// bumpEpoch notes that the workspace may have changed through juju: the
// approvals asked before no longer run their calls (approval.Store.Epoch).
// A failure is logged; the store then matches no approval.
func (h *Host) bumpEpoch() {
	if err := h.approvals.Bump(); err != nil {
		h.log.Warn("approvals: juju could not note a change of the workspace; approved calls ask you again", "err", err)
	}
}

func (h *Host) approvalTimeout() time.Duration {
	if h.cfg.ApprovalTimeout > 0 {
		return h.cfg.ApprovalTimeout
	}
	return DefaultApprovalTimeout
}

func denied(tool string) *abi.Error {
	return abi.Errorf(abi.ApprovalDenied,
		"the owner denied this call to %s, and nothing was done; do not retry it as it is: ask the owner what they want instead", tool)
}

func cancelled(tool string) *abi.Error {
	return abi.Errorf(abi.ApprovalDenied, "the call to %s was cancelled before the owner approved it, and nothing was done", tool)
}

// changed refuses a call the owner accepted in the client while the
// workspace changed, twice (maxAsks).
func changed(tool string) *abi.Error {
	return abi.Errorf(abi.ApprovalDenied,
		"the workspace changed through juju while the owner was asked about this call to %s, each time it was asked, so their answer does not cover it and nothing was done; finish the other changes first, then call it again to ask the owner anew", tool)
}

func pending(req approval.Request) *abi.Error {
	why := ""
	if req.Note != "" {
		why = req.Note + "; "
	}
	return abi.Errorf(abi.ApprovalPending,
		"%sthe call to %s is waiting for the owner's approval (id %s) and has not run. Ask the owner to run `juju approvals approve %s` in a terminal, then retry this same call with the same arguments, or check it with approval_status",
		why, req.Tool, req.ID, req.ID)
}
