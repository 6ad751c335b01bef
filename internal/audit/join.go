package audit

import "time"

// Change is one journaled change made by a call, as `juju audit` shows it
// under the call.
type Change struct {
	ID         string    `json:"id"`
	CallID     string    `json:"callId"`
	Time       time.Time `json:"time"`
	Paths      []string  `json:"paths"`
	RolledBack bool      `json:"rolledBack,omitempty"`
}

// ChangeLister lists the journal's changes since a time. It is the seam
// between the audit and the journal: the journal (a separate package)
// provides it, and Join attaches its changes to the calls that made them.
type ChangeLister interface {
	Changes(since time.Time) ([]Change, error)
}

// Entry is a call with the changes it made.
type Entry struct {
	Record
	Changes []Change `json:"changes,omitempty"`
}

// Join attaches to each record the changes with its call id. With a nil
// lister the records come back without changes.
func Join(recs []Record, changes ChangeLister, since time.Time) ([]Entry, error) {
	out := make([]Entry, len(recs))
	for i, r := range recs {
		out[i].Record = r
	}
	if changes == nil || len(recs) == 0 {
		return out, nil
	}
	if since.IsZero() || recs[0].Time.Before(since) {
		since = recs[0].Time
	}
	cs, err := changes.Changes(since)
	if err != nil {
		return out, err
	}
	byCall := map[string][]Change{}
	for _, c := range cs {
		byCall[c.CallID] = append(byCall[c.CallID], c)
	}
	for i := range out {
		out[i].Changes = byCall[out[i].CallID]
	}
	return out, nil
}
