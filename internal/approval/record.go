package approval

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// State is where an approval stands.
type State string

// The states of an approval.
const (
	Pending  State = "pending"  // waiting for the owner
	Approved State = "approved" // the owner said yes; the call runs once
	Denied   State = "denied"   // the owner said no
	Used     State = "used"     // the decision was acted on (the call ran, or was refused)
	Expired  State = "expired"  // nobody decided in time, or an approval was never used
)

// Request is what the owner is asked about: one tool call.
type Request struct {
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	Client  string    `json:"client"`
	// Principal is who the client authenticated as: "" for the owner's
	// local clients, "oauth:<client id>" for an OAuth client of juju serve.
	// A client's approvals are those of its principal and name (Of).
	Principal string `json:"principal,omitempty"`
	Plugin    string `json:"plugin"`
	Tool      string `json:"tool"`
	Tier      string `json:"tier"`
	Args      string `json:"args"`     // the arguments in short (audit.ShortArgs); Store.Args has them whole
	ArgsHash  string `json:"argsHash"` // sha256 of the full arguments, to match a retried call
	CallID    string `json:"callId"`   // the call that asked
	// Epoch is the workspace's epoch when the owner was asked (Store.Epoch):
	// the approval runs its call only while the epoch is the same. It is ""
	// in an approval recorded by a juju that kept no epoch: that one matches
	// none (Unchanged).
	Epoch string `json:"epoch,omitempty"`
	// Note tells the owner why they are asked again, when they are: the
	// workspace changed after they approved the same call.
	Note string `json:"note,omitempty"`
	// Conn is the connection the call came in on, one juju process's
	// stdio or one HTTP session, unique across processes; "" where there
	// is none (an HTTP request of the stateless protocol). Its calls have
	// a share of their own (MaxPerClient), whatever names they declare.
	Conn string `json:"conn,omitempty"`
	// What says what the call will do, as juju wrote it for the owner
	// (host.Question.What), every character visible: the files a plan
	// touches, a command's sandbox. "" for a tool juju does not describe.
	What string `json:"what,omitempty"`
}

// Of reports whether the request was made by the client named client of
// principal: both must be the same, so that no declared name reaches
// another principal's approvals.
func (r Request) Of(principal, client string) bool {
	return r.Principal == principal && r.Client == client
}

// sharer is who the request counts against in the per-client share
// (MaxPerClient): its principal, whatever name the client declared, or,
// for a local client, its declared name.
func (r Request) sharer() string {
	if r.Principal != "" {
		return r.Principal
	}
	return "local " + r.Client
}

// Decision is the owner's answer.
type Decision struct {
	Approve bool      `json:"approve"`
	Time    time.Time `json:"time"`
	By      string    `json:"by"` // how: "cli"
}

// Record is an approval as the store shows it.
type Record struct {
	Request
	State    State     `json:"state"`
	Decided  time.Time `json:"decided,omitzero"`
	By       string    `json:"by,omitempty"`
	UsedTime time.Time `json:"used,omitzero"`
	// Stale: approved, but the workspace changed through juju before the
	// call came back, so it did not run and the owner was asked again
	// (Store.Stale). The state is Used.
	Stale bool `json:"stale,omitempty"`
}

// HashArgs returns the hash that identifies a call's arguments: a retry of
// the same call has the same hash.
func HashArgs(args []byte) string {
	sum := sha256.Sum256(args)
	return hex.EncodeToString(sum[:16])
}
