//go:build unix

package journal

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// damagedFixture is a workspace whose journal holds 30 changes, as the
// reviewer's damaged journals did.
func damagedFixture(t *testing.T) (*fixture, []byte) {
	t.Helper()
	f := newFixture(t, map[string]string{"a.txt": strings.Repeat("a\n", 1000)})
	for i := range 30 {
		f.mustApply(write(fmt.Sprintf("f%d.txt", i), strings.Repeat(fmt.Sprintf("content %d\n", i), 200)))
	}
	good, err := os.ReadFile(f.j.Path())
	if err != nil {
		t.Fatal(err)
	}
	return f, good
}

// asides lists the damaged journals set aside beside the database.
func asides(t *testing.T, f *fixture) []string {
	t.Helper()
	m, err := filepath.Glob(f.j.Path() + damagedSuffix + "*")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// wantDamaged checks err is the journal's stable report of a damaged
// database, set aside or not.
func wantDamaged(t *testing.T, err error, setAside bool) *DamagedError {
	t.Helper()
	var d *DamagedError
	if !errors.As(err, &d) {
		t.Fatalf("got %v, want a damaged journal", err)
	}
	if setAside != (d.Aside != "") {
		t.Fatalf("set aside %q, want set aside %v: %v", d.Aside, setAside, d)
	}
	if !strings.Contains(d.Error(), "the journal at "+d.Path+" is damaged: ") {
		t.Fatalf("unstable message: %v", d)
	}
	return d
}

// A journal cut short, overwritten, emptied, or replaced by a folder or a
// FIFO: a read reports it and leaves it; what a server does at start
// (Recover) sets it aside, keeps its bytes, and starts a new journal, in
// which a write works and an old change id says what happened.
func TestDamagedJournalIsSetAside(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(t *testing.T, path string, good []byte)
		keeps  bool // the set-aside file holds the damaged bytes
		// pagesOnly: the damage may lie in pages a read does not need
		pagesOnly bool
	}{
		{"truncated", func(t *testing.T, p string, _ []byte) { os.Truncate(p, 20000) }, true, false},
		{"half", func(t *testing.T, p string, good []byte) { os.Truncate(p, int64(len(good)/2)) }, true, false},
		{"garbage over the free-page list", func(t *testing.T, p string, good []byte) {
			scribble(t, p, good, int(pageOf(t, p, "freelist")), 4096, 1)
		}, true, true},
		{"garbage over the root page", func(t *testing.T, p string, good []byte) {
			scribble(t, p, good, int(pageOf(t, p, "root")), 4096, 2)
		}, true, false},
		{"garbage headers", func(t *testing.T, p string, good []byte) { scribble(t, p, good, 0, 8192, 3) }, true, false},
		{"empty", func(t *testing.T, p string, _ []byte) { os.Truncate(p, 0) }, true, false},
		{"folder", func(t *testing.T, p string, _ []byte) { os.Remove(p); os.Mkdir(p, 0o700) }, false, false},
		{"fifo", func(t *testing.T, p string, _ []byte) { os.Remove(p); syscall.Mkfifo(p, 0o600) }, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, good := damagedFixture(t)
			path := f.j.Path()
			c.damage(t, path, good)
			var damagedBytes []byte
			if c.keeps {
				damagedBytes, _ = os.ReadFile(path)
			}

			// A read reports what it reads of the damage (bbolt reads
			// the free-page list only to write).
			if _, err := f.j.Changes(time.Time{}); err != nil || !c.pagesOnly {
				wantDamaged(t, err, false)
			}
			if _, err := f.j.Stats(); err != nil || !c.pagesOnly {
				wantDamaged(t, err, false)
			}
			if len(asides(t, f)) != 0 {
				t.Fatal("a read set the journal aside")
			}

			d := wantDamaged(t, f.j.Recover(), true)
			if got := asides(t, f); len(got) != 1 || got[0] != d.Aside {
				t.Fatalf("set aside as %v, reported %q", got, d.Aside)
			}
			if c.keeps {
				if kept, _ := os.ReadFile(d.Aside); string(kept) != string(damagedBytes) {
					t.Fatal("the file set aside is not the damaged journal")
				}
			}

			res := f.mustApply(write("a.txt", "new\n"))
			if res.ChangeID != "c000001" {
				t.Fatalf("the new journal's first change is %s", res.ChangeID)
			}
			_, e := f.j.History(&abi.HistoryRequest{ChangeID: "c3"})
			if msg := wantCode(t, e, abi.NotFound); !strings.Contains(msg, "found the journal damaged") {
				t.Fatalf("an old change id does not say the journal was replaced: %s", msg)
			}
			st, err := f.j.Stats()
			if err != nil || !strings.Contains(st.SetAside, filepath.Base(d.Aside)) {
				t.Fatalf("stats %+v, %v: want the set-aside journal named", st, err)
			}
		})
	}
}

// A change on a damaged journal fails with the stable message, without a
// host path, and the next one works.
func TestDamagedJournalApply(t *testing.T) {
	f, _ := damagedFixture(t)
	os.Truncate(f.j.Path(), 20000)
	_, e := f.apply(write("a.txt", "x\n"))
	msg := wantCode(t, e, abi.Internal)
	if !strings.Contains(msg, "change journal for this workspace was damaged") || strings.Contains(msg, f.state) {
		t.Fatalf("message: %s", msg)
	}
	if f.read("a.txt") == "x\n" {
		t.Fatal("a change was made on a damaged journal")
	}
	f.mustApply(write("a.txt", "x\n"))
}

// pageOf returns the offset of the root or free-list page of the
// database at path.
func pageOf(t *testing.T, path, which string) int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m0, _ := readMeta(f, 0)
	m, ok := readMeta(f, int64(m0.pageSize))
	if !ok || m0.txid > m.txid {
		m = m0
	}
	if which == "root" {
		return int64(m.root * m.pageSize)
	}
	return int64(m.freelist * m.pageSize)
}

// scribble writes n random bytes (seeded) at off into a copy of good at
// path.
func scribble(t *testing.T, path string, good []byte, off, n int, seed uint64) {
	t.Helper()
	b := append([]byte(nil), good...)
	r := rand.New(rand.NewPCG(seed, 7))
	for i := off; i < off+n && i < len(b); i++ {
		b[i] = byte(r.Uint32())
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Random bytes over each page of a journal in turn, and cuts at many
// lengths: no operation panics or faults, and each either works or
// reports the damage.
//
// guard alone (without checkFile) must hold too: faults and panics in
// bbolt become the same report.
func TestDamagedJournalFuzz(t *testing.T) {
	for _, check := range []bool{true, false} {
		t.Run(fmt.Sprintf("checkFile=%v", check), func(t *testing.T) { fuzzDamage(t, check) })
	}
}

func fuzzDamage(t *testing.T, check bool) {
	f, good := damagedFixture(t)
	f.j.opts.noFileCheck = !check
	path := f.j.Path()
	ctx := context.Background()
	var cases []func()
	for off := 0; off < len(good); off += 4096 {
		for _, n := range []int{16, 4096} {
			cases = append(cases, func() { scribble(t, path, good, off, n, uint64(off+n)) })
		}
	}
	for cut := int64(0); cut < int64(len(good)); cut += int64(len(good)) / 17 {
		cases = append(cases, func() { os.WriteFile(path, good[:cut], 0o600) })
	}
	ok := func(err error) {
		t.Helper()
		var d *DamagedError
		var ae *abi.Error
		switch {
		case err == nil, errors.As(err, &d):
		case errors.As(err, &ae) && ae.Code != abi.Internal:
		case errors.As(err, &ae) && strings.Contains(ae.Message, "journal for this workspace"):
		default:
			t.Fatalf("unexpected failure: %v", err)
		}
	}
	damaged := 0
	for i, damage := range cases {
		for _, m := range asides(t, f) {
			os.Remove(m)
		}
		damage()
		_, err := f.j.Changes(time.Time{})
		ok(err)
		_, err = f.j.Stats()
		ok(err)
		_, e := f.j.History(&abi.HistoryRequest{})
		ok(asErr(e))
		_, err = f.j.Rollback(ctx, who, "c3", true)
		ok(err)
		_, e = f.apply(write("a.txt", fmt.Sprintf("%d\n", i)))
		ok(asErr(e))
		if len(asides(t, f)) > 0 {
			damaged++
			// Set aside: the new journal works.
			f.mustApply(write("a.txt", fmt.Sprintf("after %d\n", i)))
		}
	}
	if damaged == 0 {
		t.Fatal("no damage was noticed at all")
	}
	t.Logf("%d of %d damaged files were set aside", damaged, len(cases))
}

func asErr(e *abi.Error) error {
	if e == nil {
		return nil
	}
	return e
}
