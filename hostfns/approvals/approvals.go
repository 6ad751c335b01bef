// Package approvals is the host function behind approval_status: it shows
// a client the state of its own calls held for the owner's approval. It
// needs no capability; a client never sees another client's approvals,
// nor those of another principal under the same name.
package approvals

import (
	"context"
	"errors"
	"time"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/approval"
	"github.com/jujutools/juju/sdk/abi"
)

// maxListed bounds the approvals one answer lists.
const maxListed = 50

// New returns the approval status host function over the store.
func New(store *approval.Store) hostfns.Func {
	return hostfns.Func{Name: abi.FnApprovalStatus, Handle: hostfns.Typed(func(ctx context.Context, req *abi.ApprovalStatusRequest, _ []byte) (*abi.ApprovalStatusResult, []byte, *abi.Error) {
		c, _ := hostfns.CallerFrom(ctx)
		res := &abi.ApprovalStatusResult{Approvals: []abi.ApprovalInfo{}}
		if req.ID != "" {
			r, err := store.Get(req.ID)
			if errors.Is(err, approval.ErrNotFound) || err == nil && !r.Of(c.Principal, c.Client) {
				return nil, nil, abi.Errorf(abi.NotFound, "there is no approval %s for this client; call approval_status without an id to list yours", abi.Quote(req.ID))
			}
			if err != nil {
				return nil, nil, abi.Errorf(abi.Internal, "juju could not read its approvals; tell the owner")
			}
			res.Approvals = append(res.Approvals, info(r))
			return res, nil, nil
		}
		recs, err := store.List()
		if err != nil {
			return nil, nil, abi.Errorf(abi.Internal, "juju could not read its approvals; tell the owner")
		}
		for _, r := range recs {
			if r.Of(c.Principal, c.Client) && len(res.Approvals) < maxListed {
				res.Approvals = append(res.Approvals, info(r))
			}
		}
		return res, nil, nil
	})}
}

func info(r approval.Record) abi.ApprovalInfo {
	i := abi.ApprovalInfo{ID: r.ID, Tool: r.Tool, Args: r.Args, State: string(r.State), Created: r.Created.UTC().Format(time.RFC3339)}
	if !r.Decided.IsZero() {
		i.Decided = r.Decided.UTC().Format(time.RFC3339)
	}
	return i
}
