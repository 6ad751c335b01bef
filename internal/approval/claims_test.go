package approval

import (
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// claimClock is a settable time for the store.
type claimClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *claimClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *claimClock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// TestClaimApprovedButUnusedApprovalExpiresAfterAnHour holds the claim of
// docs/SECURITY.md (approvals): "Undecided approvals, and approvals never
// used, expire after an hour". An approval the owner approved but that no
// retry used is still usable within the hour, and is no longer usable
// (state expired, not matched by a retry, not decidable again) once the
// hour has passed, with the store's default TTL.
func TestClaimApprovedButUnusedApprovalExpiresAfterAnHour(t *testing.T) {
	if DefaultTTL != time.Hour {
		t.Errorf("DefaultTTL = %v, the claim says an hour", DefaultTTL)
	}
	t0 := time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)
	c := &claimClock{t: t0}
	// No TTL given: the default applies, as juju stdio opens the store.
	s := Open(filepath.Join(t.TempDir(), "approvals"), Options{Now: c.now, Poll: time.Millisecond})

	args := []byte(`{"command":"make deploy"}`)
	req := Request{Client: "claims-client", Plugin: "core-exec", Tool: "run_command", Tier: "X", Args: `{command: "make deploy"}`, ArgsHash: HashArgs(args)}
	r, err := s.Create(req, args)
	if err != nil {
		t.Fatal(err)
	}

	// The owner approves a minute later; nobody retries the call.
	c.set(t0.Add(time.Minute))
	got, err := s.Decide(r.ID, true, "cli")
	if err != nil || got.State != Approved {
		t.Fatalf("approve: %+v %v", got, err)
	}

	// Within the hour the approval is usable: a retry of the same call
	// matches it, approved. (Match does not use it up.)
	c.set(t0.Add(59 * time.Minute))
	if m, ok := s.Match(req.Principal, req.Client, req.Tool, req.ArgsHash, ""); !ok || m.ID != r.ID || m.State != Approved {
		t.Fatalf("within the hour, a retry must find the approved approval: %+v %v", m, ok)
	}

	// An hour (and a second) after the approval — past an hour from its
	// creation too — it has expired: no retry can use it.
	c.set(t0.Add(time.Minute + time.Hour + time.Second))
	if g, err := s.Get(r.ID); err != nil || g.State != Expired {
		t.Fatalf("an approved approval never used, an hour on: state %q (%v), want %q", g.State, err, Expired)
	}
	if m, ok := s.Match(req.Principal, req.Client, req.Tool, req.ArgsHash, ""); ok {
		t.Fatalf("an expired approval still matches a retry: %+v", m)
	}
	if l, err := s.List(); err != nil || len(l) != 1 || l[0].State != Expired {
		t.Fatalf("List: %+v %v, want the one approval, expired", l, err)
	}
	if _, err := s.Decide(r.ID, true, "cli"); !errors.Is(err, ErrExpired) {
		t.Fatalf("deciding the expired approval again: %v, want ErrExpired", err)
	}
	// A waiting call sees it expired, not approved.
	if w, err := s.Wait(t.Context(), r.ID); err != nil || w.State != Expired {
		t.Fatalf("Wait: %+v %v, want expired", w, err)
	}
}
