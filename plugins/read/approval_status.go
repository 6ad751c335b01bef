package read

// approval_status tells the client what became of its calls held for the
// owner's approval. Its host function needs no capability and shows only
// the calling client's approvals. It lives in the core plugin, with the other
// tier R tools, rather than in a plugin of its own: every Go plugin costs a
// compilation and several MB of memory (see docs/RATIONALE.md).

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// StatusArgs are the arguments of approval_status.
type StatusArgs struct {
	ID string `json:"id,omitempty" desc:"An approval id from an APPROVAL_PENDING error; empty lists your recent approvals."`
}

func init() {
	juju.Tool("approval_status", juju.ToolOptions{
		Title: "Approval status",
		Description: "Shows what became of your calls that juju held for the owner's approval (APPROVAL_PENDING): " +
			"pending, approved (retry the same call with the same arguments to run it, once), denied (do not retry), " +
			"used or expired. Give the id from the APPROVAL_PENDING message, or nothing to list your recent ones.",
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
		Output:      abi.ApprovalStatusResult{},
	}, status)
}

// next tells the client what to do about an approval in each state.
var next = map[string]string{
	"pending":  "the owner has not decided yet; ask them to run `juju approvals approve %s`",
	"approved": "approved: retry the same call with the same arguments, and it runs once",
	"denied":   "denied by the owner: do not retry it",
	"used":     "done: the decision was acted on",
	"expired":  "expired: nobody decided in time; call the tool again to ask anew",
}

func status(_ *juju.Call, in StatusArgs) (*juju.Result, error) {
	res, err := juju.ApprovalStatus(abi.ApprovalStatusRequest{ID: in.ID})
	if err != nil {
		return nil, err
	}
	if res.Approvals == nil {
		res.Approvals = []abi.ApprovalInfo{}
	}
	var b strings.Builder
	if len(res.Approvals) == 0 {
		b.WriteString("No approvals: none of your calls is held for the owner.\n")
	}
	for _, a := range res.Approvals {
		what := next[a.State]
		if strings.Contains(what, "%s") {
			what = fmt.Sprintf(what, a.ID)
		}
		fmt.Fprintf(&b, "%s  %s  %s %s — %s\n", a.ID, a.State, a.Tool, a.Args, what)
	}
	return juju.Text(b.String()).WithStructured(res), nil
}
