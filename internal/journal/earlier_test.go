//go:build unix

package journal

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// A history that reaches the oldest change the journal holds says why
// older ones are missing, once some were pruned or lost with a damaged
// journal set aside: the list of a new journal read as though nothing had
// ever been written, and its ids c000001 on as though they were the first.
func TestHistorySaysWhyOlderChangesAreMissing(t *testing.T) {
	list := func(f *fixture, limit int) *abi.HistoryResult {
		t.Helper()
		h, e := f.j.History(&abi.HistoryRequest{Limit: limit})
		if e != nil {
			t.Fatal(e)
		}
		return h
	}

	t.Run("nothing dropped", func(t *testing.T) {
		f := newFixture(t, map[string]string{"a.txt": "0\n"})
		f.mustApply(write("a.txt", "1\n"))
		if h := list(f, 0); h.Earlier != "" {
			t.Fatalf("a journal that dropped nothing says %q", h.Earlier)
		}
		if why, err := f.j.Earlier(); why != "" || err != nil {
			t.Fatalf("Earlier: %q, %v", why, err)
		}
	})

	t.Run("damaged", func(t *testing.T) {
		f, _ := damagedFixture(t)
		if err := os.Truncate(f.j.Path(), 20000); err != nil {
			t.Fatal(err)
		}
		wantDamaged(t, f.j.Recover(), true)
		if h := list(f, 0); len(h.Changes) != 0 || !strings.Contains(h.Earlier, "found the journal damaged") {
			t.Fatalf("the new journal's history: %+v", h)
		}
		f.mustApply(write("a.txt", "new\n"))
		f.mustApply(write("a.txt", "newer\n"))
		if h := list(f, 0); len(h.Changes) != 2 || !strings.Contains(h.Earlier, "ids start again at c000001") {
			t.Fatalf("the history after two changes: %+v", h)
		}
		if h := list(f, 1); !h.More || h.Earlier != "" {
			t.Fatalf("a list cut by its limit, short of the oldest change: %+v", h)
		}
		if why, err := f.j.Earlier(); !strings.Contains(why, "found the journal damaged") || err != nil {
			t.Fatalf("Earlier: %q, %v", why, err)
		}
	})

	t.Run("pruned", func(t *testing.T) {
		c := &clock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
		f := newFixture(t, map[string]string{"a.txt": "0\n"}, withClock(c), WithLimits(Limits{MaxAge: 48 * time.Hour}))
		f.mustApply(write("a.txt", "1\n"))
		c.add(72 * time.Hour)
		if _, err := f.j.Prune(); err != nil {
			t.Fatal(err)
		}
		if h := list(f, 0); len(h.Changes) != 0 || !strings.Contains(h.Earlier, "every change up to c000001 was pruned, as the journal keeps the changes of the last 2 days") {
			t.Fatalf("the history after everything was pruned: %+v", h)
		}
	})
}
