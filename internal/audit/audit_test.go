package audit

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

func TestShortArgs(t *testing.T) {
	long := strings.Repeat("x", 5000)
	tests := []struct {
		name, args, want string
	}{
		{"empty", ``, `{}`},
		{"sorted keys", `{"b":1,"a":"x"}`, `{a: "x", b: 1}`},
		{"nested", `{"edits":[{"old":"a","new":"b"}]}`, `{edits: [{new: "b", old: "a"}]}`},
		{"long string cut", `{"content":"` + long + `"}`, `{content: "` + strings.Repeat("x", 79) + `…" (5000 bytes)}`},
		{"long list", `{"paths":[1,2,3,4,5,6,7,8,9,10]}`, `{paths: [1, 2, 3, 4, 5, 6, 7, 8, … 2 more]}`},
		{"not JSON", `{`, `(arguments that are not JSON) "{"`},
		{"controls escaped", `{"path":"ctl\u0001\u001b[31m.txt\u202e"}`, `{path: "ctl\x01\x1b[31m.txt\u202e"}`},
		{"space run shown", `{"command":"a` + strings.Repeat(" ", 50) + `b"}`, `{command: "a⟨50 spaces⟩b"}`},
		// A credential typed into a command shows as a mark, the rest as it is.
		{"bearer masked", `{"command":"curl -H \"Authorization: Bearer tok123abc\" https://x"}`, `{command: "curl -H \"Authorization: Bearer ⟨secret⟩\" https://x"}`},
		{"password flag masked", `{"command":"mysql --password=hunter2 -h db"}`, `{command: "mysql --password=⟨secret⟩ -h db"}`},
		{"URL user masked", `{"command":"git clone https://tok123@github.com/a/b"}`, `{command: "git clone https://⟨secret⟩@github.com/a/b"}`},
		{"URL password once", `{"url":"https://alice:hunter2@example.com/"}`, `{url: "https://alice:⟨password⟩@example.com/"}`},
		{"token past the cut", `{"command":"` + strings.Repeat("a", 70) + ` ghp_abcdefghijklmnopqrstuvwxyz0123456789"}`, `{command: "` + strings.Repeat("a", 70) + ` ⟨secret⟩…" (111 bytes)}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ShortArgs([]byte(tt.args)); got != tt.want {
				t.Errorf("ShortArgs(%.40s) = %q, want %q", tt.args, got, tt.want)
			}
		})
	}
	// Whatever the arguments, the summary stays bounded.
	var b strings.Builder
	b.WriteString(`{`)
	for i := range 200 {
		fmt.Fprintf(&b, `"k%03d":"%s",`, i, strings.Repeat("y", 100))
	}
	b.WriteString(`"z":1}`)
	if got := ShortArgs([]byte(b.String())); utf8.RuneCountInString(got) > 400 { // SECURITY.md: "the whole to 400 characters"
		t.Errorf("summary of %d characters, want at most 400", utf8.RuneCountInString(got))
	}
}

func TestAppendRead(t *testing.T) {
	path := Path(filepath.Join(t.TempDir(), "ws"))
	l := Open(path)
	t0 := time.Date(2026, 1, 2, 15, 0, 0, 0, time.UTC)
	for i := range 5 {
		r := &Record{Time: t0.Add(time.Duration(i) * time.Minute), CallID: fmt.Sprint("c", i), Tool: "read_file", Outcome: OutcomeOK}
		if i == 3 {
			r.Outcome = "APPROVAL_DENIED"
			r.Approval = &Approval{Via: "cli", Decision: "denied", ID: "abcd1234"}
		}
		if err := l.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("audit log mode %v, want 0600", info.Mode().Perm())
	}
	all, err := Read(path, Query{})
	if err != nil || len(all) != 5 {
		t.Fatalf("read %d records, %v", len(all), err)
	}
	if all[3].Approval == nil || all[3].Approval.Decision != "denied" || all[3].Outcome != "APPROVAL_DENIED" {
		t.Errorf("record 3: %+v", all[3])
	}
	since, _ := Read(path, Query{Since: t0.Add(2 * time.Minute)})
	if len(since) != 3 || since[0].CallID != "c2" {
		t.Errorf("since: %+v", since)
	}
	last, _ := Read(path, Query{Limit: 2})
	if len(last) != 2 || last[1].CallID != "c4" {
		t.Errorf("limit: %+v", last)
	}
	if none, err := Read(filepath.Join(t.TempDir(), "missing.jsonl"), Query{}); err != nil || len(none) != 0 {
		t.Errorf("missing log: %v %v", none, err)
	}
}

// Concurrent appends never interleave inside a line.
func TestConcurrentAppend(t *testing.T) {
	path := Path(t.TempDir())
	l := Open(path)
	defer l.Close()
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				l.Append(&Record{Time: time.Now(), CallID: fmt.Sprint(w, "-", i), Args: strings.Repeat("a", 300)})
			}
		}()
	}
	wg.Wait()
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 400 {
		t.Fatalf("%d lines, want 400", len(lines))
	}
	for _, ln := range lines {
		var r Record
		if err := json.Unmarshal([]byte(ln), &r); err != nil {
			t.Fatalf("torn line %q: %v", ln, err)
		}
	}
}

// listerFunc is a ChangeLister over a function.
type listerFunc func(time.Time) ([]Change, error)

func (f listerFunc) Changes(since time.Time) ([]Change, error) { return f(since) }

func TestJoin(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 15, 0, 0, 0, time.UTC)
	recs := []Record{{Time: t0, CallID: "a"}, {Time: t0.Add(time.Second), CallID: "b"}}
	out, err := Join(recs, nil, time.Time{})
	if err != nil || len(out) != 2 || out[0].Changes != nil {
		t.Fatalf("nil lister: %+v %v", out, err)
	}
	var asked time.Time
	lister := listerFunc(func(since time.Time) ([]Change, error) {
		asked = since
		return []Change{{ID: "ch1", CallID: "b", Paths: []string{"x.go"}}, {ID: "ch2", CallID: "b"}, {ID: "ch3", CallID: "zz"}}, nil
	})
	out, err = Join(recs, lister, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if !asked.Equal(t0) {
		t.Errorf("asked for changes since %v, want the first record's time", asked)
	}
	if len(out[0].Changes) != 0 || len(out[1].Changes) != 2 || out[1].Changes[0].ID != "ch1" {
		t.Errorf("joined: %+v", out)
	}
}

// A started record is left out once its call's own record is there; alone,
// it stays (juju stopped while the call ran).
func TestReadSettlesStartedRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	l := Open(path)
	defer l.Close()
	t0 := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	for _, r := range []Record{
		{Time: t0, CallID: "a", Tool: "run_command", Outcome: OutcomeStarted},
		{Time: t0.Add(time.Second), CallID: "b", Tool: "run_command", Outcome: OutcomeStarted},
		{Time: t0, CallID: "a", Tool: "run_command", Outcome: OutcomeOK},
	} {
		if err := l.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Read(path, Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].CallID != "a" || got[0].Outcome != OutcomeOK || got[1].CallID != "b" || got[1].Outcome != OutcomeStarted {
		t.Errorf("read %+v", got)
	}
}

// TestLongNamesHideNothing: a client's name or an unknown tool's of
// megabytes is cut in its record, and a line longer than any record (an
// older juju's, or one written by hand) is skipped: the records after it
// are still read.
func TestLongNamesHideNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	l := Open(path)
	at := time.Now().UTC()
	huge := strings.Repeat("z", 2<<20)
	for i, r := range []Record{
		{CallID: "before", Tool: "read_file"},
		{CallID: "client", Client: huge + "é", Tool: "read_file"},
		{CallID: "tool", Tool: huge, Plugin: huge},
	} {
		r.Time, r.Outcome = at.Add(time.Duration(i)*time.Second), OutcomeOK
		if err := l.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	if fi, _ := os.Stat(path); fi.Size() > 8<<10 {
		t.Errorf("three records take %d bytes", fi.Size())
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	long, _ := json.Marshal(Record{Time: at.Add(3 * time.Second), CallID: "long", Tool: huge})
	fmt.Fprintf(f, "%s\n%s\n", long, `{"time":"`+at.Add(4*time.Second).Format(time.RFC3339Nano)+`","callId":"after","plugin":"core","tool":"read_file","tier":"R","args":"{}","outcome":"ok","durationMs":1}`)
	f.Close()

	recs, err := Read(path, Query{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range recs {
		ids = append(ids, r.CallID)
		if len(r.Client) > maxName+len("…") || r.CallID != "long" && len(r.Tool) > maxName+len("…") || !utf8.ValidString(r.Client) {
			t.Errorf("%s: client of %d bytes, tool of %d", r.CallID, len(r.Client), len(r.Tool))
		}
	}
	if got := strings.Join(ids, " "); got != "before client tool long after" {
		t.Errorf("records read: %s", got)
	}
}
