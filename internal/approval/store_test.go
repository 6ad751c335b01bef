package approval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// clock is a settable time for the store.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newStore(t *testing.T) (*Store, *clock) {
	c := &clock{t: time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)}
	return Open(filepath.Join(t.TempDir(), "approvals"), Options{Now: c.now, Poll: time.Millisecond}), c
}

// requestArgs are the JSON arguments of request's call.
var requestArgs = []byte(`{"path":"a"}`)

func request() Request {
	return Request{Client: "cli-a", Plugin: "p", Tool: "edit_file", Tier: "E", Args: `{path: "a"}`, ArgsHash: HashArgs(requestArgs)}
}

func TestLifecycle(t *testing.T) {
	s, _ := newStore(t)
	r, err := s.Create(request(), requestArgs)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.ID) != 8 || !validID(r.ID) {
		t.Fatalf("id %q", r.ID)
	}
	if got, _ := s.Get(r.ID); got.State != Pending {
		t.Fatalf("state %s, want pending", got.State)
	}
	got, err := s.Decide(r.ID, true, "cli")
	if err != nil || got.State != Approved || got.By != "cli" {
		t.Fatalf("decide: %+v %v", got, err)
	}
	if _, err := s.Decide(r.ID, false, "cli"); !errors.Is(err, ErrDecided) {
		t.Fatalf("second decision: %v, want ErrDecided", err)
	}
	if err := s.Use(r.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Use(r.ID); !errors.Is(err, ErrUsed) {
		t.Fatalf("second use: %v, want ErrUsed", err)
	}
	if got, _ := s.Get(r.ID); got.State != Used {
		t.Fatalf("state %s, want used", got.State)
	}
	if _, ok := s.Match(r.Principal, r.Client, r.Tool, r.ArgsHash, ""); ok {
		t.Fatal("a used approval must not match a retry")
	}
}

// A retry matches an approval of the same principal, client, tool and
// arguments, described to the owner as it would run: a local client
// sharing an OAuth client's name, or the other way round, matches
// nothing, nor does the same call that another juju on the workspace
// would run otherwise than the owner was told.
func TestMatch(t *testing.T) {
	s, _ := newStore(t)
	req := request()
	req.What = "runs the shell command line \"make\" with bash -c, in the first root; in the sandbox, network denied."
	r, _ := s.Create(req, requestArgs)
	remote := request()
	remote.Client, remote.Principal = "claude [oauth:c_1]", "oauth:c_1"
	rr, _ := s.Create(remote, requestArgs)
	unconfined := "runs the shell command line \"make\" with bash -c, in the first root; unconfined, with your rights and the network."
	for _, tc := range []struct {
		principal, client, tool, hash, what string
		want                                string
	}{
		{"", r.Client, r.Tool, r.ArgsHash, r.What, r.ID},
		{"", "other-client", r.Tool, r.ArgsHash, r.What, ""},
		{"", r.Client, "write_file", r.ArgsHash, r.What, ""},
		{"", r.Client, r.Tool, HashArgs([]byte(`{"path":"b"}`)), r.What, ""},
		{"", r.Client, r.Tool, r.ArgsHash, unconfined, ""},               // run otherwise than the owner read
		{"", r.Client, r.Tool, r.ArgsHash, "", ""},                       // or without saying how
		{"oauth:c_1", r.Client, r.Tool, r.ArgsHash, r.What, ""},          // an OAuth client under the local name
		{"oauth:c_1", remote.Client, r.Tool, r.ArgsHash, rr.What, rr.ID}, // itself
		{"", remote.Client, r.Tool, r.ArgsHash, rr.What, ""},             // a local client under the OAuth client's name
		{"oauth:c_2", remote.Client, r.Tool, r.ArgsHash, rr.What, ""},    // another OAuth client under that name
	} {
		got, ok := s.Match(tc.principal, tc.client, tc.tool, tc.hash, tc.what)
		if ok != (tc.want != "") || ok && got.ID != tc.want {
			t.Errorf("Match(%q, %s, %s, %s, %q) = %s %v, want %q", tc.principal, tc.client, tc.tool, tc.hash, tc.what, got.ID, ok, tc.want)
		}
	}
}

func TestExpiry(t *testing.T) {
	s, c := newStore(t)
	r, _ := s.Create(request(), requestArgs)
	c.add(DefaultTTL + time.Second)
	if got, _ := s.Get(r.ID); got.State != Expired {
		t.Fatalf("state %s, want expired", got.State)
	}
	if _, err := s.Decide(r.ID, true, "cli"); !errors.Is(err, ErrExpired) {
		t.Fatalf("deciding an expired approval: %v", err)
	}
	if _, ok := s.Match(r.Principal, r.Client, r.Tool, r.ArgsHash, ""); ok {
		t.Fatal("an expired approval must not match")
	}
	// Past Keep, the next Create sweeps it away.
	c.add(DefaultKeep)
	if _, err := s.Create(request(), requestArgs); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(r.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("old approval still there: %v", err)
	}
	if recs, _ := s.List(); len(recs) != 1 {
		t.Fatalf("%d approvals kept, want 1", len(recs))
	}
}

func TestWait(t *testing.T) {
	s, _ := newStore(t)
	r, _ := s.Create(request(), requestArgs)
	go func() {
		time.Sleep(20 * time.Millisecond)
		// Another process: a second store over the same folder.
		Open(s.dir, Options{Now: s.opts.Now}).Decide(r.ID, false, "cli")
	}()
	got, err := s.Wait(context.Background(), r.ID)
	if err != nil || got.State != Denied {
		t.Fatalf("wait: %+v %v", got, err)
	}
	r2, _ := s.Create(request(), requestArgs)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if _, err := s.Wait(ctx, r2.ID); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("wait without decision: %v", err)
	}
}

// Racing deciders and users: exactly one decision and one use win.
func TestRaces(t *testing.T) {
	s, _ := newStore(t)
	r, _ := s.Create(request(), requestArgs)
	var wins, uses atomic.Int32
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.Decide(r.ID, i%2 == 0, "cli"); err == nil {
				wins.Add(1)
			}
			if s.Use(r.ID) == nil {
				uses.Add(1)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 || uses.Load() != 1 {
		t.Fatalf("%d decisions and %d uses won, want 1 and 1", wins.Load(), uses.Load())
	}
	// No temporary file is left behind: args, request, decision, use.
	ents, _ := os.ReadDir(filepath.Join(s.dir, r.ID))
	if len(ents) != 4 {
		t.Fatalf("files: %v", ents)
	}
}

func TestBadIDs(t *testing.T) {
	s, _ := newStore(t)
	for _, id := range []string{"", "../x", "A", "a/b", ".", "abc def"} {
		if _, err := s.Get(id); !errors.Is(err, ErrNotFound) {
			t.Errorf("Get(%q) = %v, want ErrNotFound", id, err)
		}
		if _, err := s.Decide(id, true, "cli"); !errors.Is(err, ErrNotFound) {
			t.Errorf("Decide(%q) = %v, want ErrNotFound", id, err)
		}
	}
}

// The whole arguments are kept beside the request, byte for byte, in a
// file only the owner can read; a request without them (recorded by an
// earlier juju) says so.
func TestArgsKeptWhole(t *testing.T) {
	s, _ := newStore(t)
	args := []byte(`{"command":"echo hi` + strings.Repeat(" ", 200) + `; touch PAYLOAD \u001b","content":"` + strings.Repeat("x", 1<<20) + `"}`)
	r, err := s.Create(request(), args)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Args(r.ID)
	if err != nil || !bytes.Equal(got, args) {
		t.Fatalf("Args = %d bytes (%v), want the %d bytes given", len(got), err, len(args))
	}
	info, err := os.Stat(filepath.Join(s.dir, r.ID, argsFile))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("args file: %v %v, want mode 0600", info.Mode(), err)
	}
	if os.Remove(filepath.Join(s.dir, r.ID, argsFile)) != nil {
		t.Fatal("remove")
	}
	if _, err := s.Args(r.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Args of a request without them: %v, want ErrNotFound", err)
	}
	if _, err := s.Args("../x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Args of a bad id: %v, want ErrNotFound", err)
	}
}

// A model may make calls that need approval as fast as it likes: what the
// store keeps is bounded. Arguments past MaxArgs are refused; past
// MaxRecords or MaxStored, settled approvals make room, the oldest first,
// and when none is settled the next is refused.
func TestStoreIsBounded(t *testing.T) {
	now := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	s := Open(t.TempDir(), Options{Now: func() time.Time { return now }})
	if _, err := s.Create(Request{Tool: "write_file"}, make([]byte, MaxArgs+1)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("arguments past MaxArgs: %v", err)
	}
	big := make([]byte, MaxArgs)
	var first Request
	for i := range MaxStored / MaxArgs {
		r, err := s.Create(Request{Client: fmt.Sprint("c", i), Tool: "write_file"}, big) // each in its share
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if i == 0 {
			first = r
		}
		now = now.Add(time.Second)
	}
	if _, err := s.Create(Request{Client: "new", Tool: "write_file"}, big); !errors.Is(err, ErrFull) {
		t.Fatalf("past MaxStored with nothing settled: %v", err)
	}
	// The first is decided and used: it makes room.
	if _, err := s.Decide(first.ID, true, "owner"); err != nil {
		t.Fatal(err)
	}
	if err := s.Use(first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(Request{Client: "new", Tool: "write_file"}, big); err != nil {
		t.Fatalf("with a settled approval to remove: %v", err)
	}
	if _, err := s.Get(first.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("the settled approval was kept: %v", err)
	}
	// Past their TTL, pending ones are settled too.
	now = now.Add(DefaultTTL + time.Minute)
	for i := range MaxRecords {
		if _, err := s.Create(Request{Client: fmt.Sprint("c", i%(MaxRecords/MaxPerClient)), Tool: "t"}, []byte("{}")); err != nil {
			t.Fatalf("small record %d after the others expired: %v", i, err)
		}
	}
	if _, err := s.Create(Request{Client: "new", Tool: "t"}, []byte("{}")); !errors.Is(err, ErrFull) {
		t.Fatalf("past MaxRecords with nothing settled: %v", err)
	}
}

// One client fills its share, not the store: past MaxPerClient waiting
// approvals (or MaxStoredPerClient bytes) it is refused, while another
// client is still asked. An OAuth client has one share whatever names it
// declares; an approval the owner decided frees its place.
func TestClientShare(t *testing.T) {
	s, _ := newStore(t)
	var firstOfFlood Request
	for i := range MaxPerClient {
		r, err := s.Create(Request{Client: "flood", Tool: "run_command"}, []byte(fmt.Sprintf(`{"n":%d}`, i)))
		if err != nil {
			t.Fatalf("approval %d of the flood: %v", i, err)
		}
		if i == 0 {
			firstOfFlood = r
		}
	}
	if _, err := s.Create(Request{Client: "flood", Tool: "run_command"}, []byte(`{}`)); !errors.Is(err, ErrShareFull) {
		t.Fatalf("past the flood's share: %v, want ErrShareFull", err)
	}
	if _, err := s.Create(Request{Client: "victim", Tool: "run_command"}, []byte(`{}`)); err != nil {
		t.Fatalf("another client after the flood: %v", err)
	}
	s.Decide(firstOfFlood.ID, false, "cli") // decided, not used yet: no longer waits for the owner
	if _, err := s.Create(Request{Client: "flood", Tool: "run_command"}, []byte(`{}`)); err != nil {
		t.Fatalf("the flood after the owner decided one of its approvals: %v", err)
	}

	for i := range MaxPerClient {
		if _, err := s.Create(Request{Client: fmt.Sprint("name ", i), Principal: "oauth:c_1", Tool: "t"}, []byte(`{}`)); err != nil {
			t.Fatalf("approval %d of the OAuth client: %v", i, err)
		}
	}
	if _, err := s.Create(Request{Client: "yet another name", Principal: "oauth:c_1", Tool: "t"}, []byte(`{}`)); !errors.Is(err, ErrShareFull) {
		t.Fatalf("an OAuth client under a new name past its share: %v, want ErrShareFull", err)
	}

	// A local client declaring a new name with each call, on one
	// connection, has the connection's share.
	for i := range MaxPerClient {
		if _, err := s.Create(Request{Client: fmt.Sprint("rotating ", i), Conn: "p1 stdio", Tool: "t"}, []byte(`{}`)); err != nil {
			t.Fatalf("approval %d of the connection: %v", i, err)
		}
	}
	if _, err := s.Create(Request{Client: "rotating again", Conn: "p1 stdio", Tool: "t"}, []byte(`{}`)); !errors.Is(err, ErrShareFull) {
		t.Fatalf("a connection under a new name past its share: %v, want ErrShareFull", err)
	}
	if _, err := s.Create(Request{Client: "rotating again", Conn: "p2 stdio", Tool: "t"}, []byte(`{}`)); err != nil {
		t.Fatalf("that name on another connection: %v", err)
	}

	big := make([]byte, MaxArgs)
	for range MaxStoredPerClient / MaxArgs {
		if _, err := s.Create(Request{Client: "bytes", Tool: "write_file"}, big); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Create(Request{Client: "bytes", Tool: "write_file"}, []byte(`{}`)); !errors.Is(err, ErrShareFull) {
		t.Fatalf("past the client's bytes: %v, want ErrShareFull", err)
	}
}

// The yes is to the arguments whole: a retry whose arguments differ only
// past a long run the owner's summary hides, or in one byte at the end of
// megabytes, matches no approval.
func TestMatchComparesTheWholeArguments(t *testing.T) {
	s, _ := newStore(t)
	shown := `{"command":"echo running the tests` + strings.Repeat(" ", 200) + `"}`
	big := `{"content":"` + strings.Repeat("x", 4<<20-20) + `a"}`
	for _, tc := range []struct{ approved, retried string }{
		{shown, `{"command":"echo running the tests` + strings.Repeat(" ", 200) + `; touch PAYLOAD"}`},
		{big, big[:len(big)-3] + `b"}`},
	} {
		r := request()
		r.Tool, r.ArgsHash = "run_command", HashArgs([]byte(tc.approved))
		created, err := s.Create(r, []byte(tc.approved))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Decide(created.ID, true, "cli"); err != nil {
			t.Fatal(err)
		}
		if _, ok := s.Match(r.Principal, r.Client, r.Tool, HashArgs([]byte(tc.approved)), r.What); !ok {
			t.Fatal("the approved call itself does not match")
		}
		if got, ok := s.Match(r.Principal, r.Client, r.Tool, HashArgs([]byte(tc.retried)), r.What); ok {
			t.Errorf("a call with other arguments (%d bytes) matches the approval %s of %d bytes", len(tc.retried), got.ID, len(tc.approved))
		}
	}
}
