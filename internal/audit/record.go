package audit

import (
	"time"

	"github.com/jujutools/juju/internal/visible"
	"github.com/jujutools/juju/sandbox"
)

// Record is one tool call in the audit log.
type Record struct {
	Time       time.Time `json:"time"`
	CallID     string    `json:"callId"`
	Client     string    `json:"client,omitempty"`
	Plugin     string    `json:"plugin"`
	Tool       string    `json:"tool"`
	Tier       string    `json:"tier"`
	Args       string    `json:"args"`               // ShortArgs of the arguments
	Outcome    string    `json:"outcome"`            // "ok" or the error code
	DurationMs float64   `json:"durationMs"`         // wall time of the call, approval included
	Approval   *Approval `json:"approval,omitempty"` // nil: none was needed
	Fetches    []Fetch   `json:"fetches,omitempty"`  // the web fetches the call made, the first MaxFetches
	// FetchesDropped counts the fetches past MaxFetches, with their hosts.
	FetchesDropped *DroppedFetches `json:"fetchesDropped,omitempty"`
}

// Approval says how a call that needed the owner's approval was decided.
type Approval struct {
	// Via is how the owner was asked: "elicitation" (the MCP client asked
	// them), "cli" (`juju approvals`), or ViaJob.
	Via string `json:"via"`
	// Decision is "approved", "denied", "pending" (no answer in time),
	// "changed" (the owner said yes in the client while the workspace
	// changed through juju, each time asked), "unavailable" (the owner
	// could not be asked), or "followed" (ViaJob).
	Decision string `json:"decision"`
	ID       string `json:"id,omitempty"` // the approval id, for "cli"; the job's, for ViaJob
}

// ViaJob: the call followed or stopped a job the same client started
// (job_status, job_output, job_wait, cancel_job), which the owner let run
// when they approved the command; it asked nothing (Decision "followed").
const ViaJob = "job"

// Outcome "ok": the call succeeded.
const OutcomeOK = "ok"

// Outcome "cancelled": the client gave the call up (MCP's
// notifications/cancelled, or its HTTP request ended) before it finished;
// the client was told nothing, or TIMEOUT.
const OutcomeCancelled = "cancelled"

// Outcome "started": a call of tier X (one that runs programs or reaches
// the network) was about to run. Its own record, written when it ends,
// settles it (Read leaves the started one out); a started record alone
// means juju stopped while the call ran (killed, or a command killed it),
// and whatever the call did is still on record.
const OutcomeStarted = "started"

// Bounds of ShortArgs.
const (
	maxString = 80  // characters of one string value
	maxList   = 8   // elements of one array
	maxArgs   = 400 // characters of the whole summary
)

// ShortArgs renders a call's JSON arguments on one line for the audit:
// the owner's rendering (visible.Args: keys sorted, strings quoted with
// space runs and control characters made visible), each string cut to 80
// characters, each array to 8 elements, the whole to about 400 characters.
// Content arguments (a file's new text) are thus never written out in
// full. A credential in a string, as the environment scrub's value rules
// judge it (sandbox.SecretSpans), shows as visible.SecretMark, the rest of
// the string as it is. The approval prompts show the arguments in full
// instead.
func ShortArgs(args []byte) string {
	return visible.Args(args, visible.Limits{String: maxString, List: maxList, Total: maxArgs, Secrets: sandbox.SecretSpans})
}
