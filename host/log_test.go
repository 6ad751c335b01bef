package host

import (
	"strings"
	"testing"
	"time"
)

// TestLogBudget: a plugin writes at most logBudget bytes of log a minute;
// past it its lines are dropped and counted, the first drop and the count
// are said once, and the next minute it logs again. Plugins are counted
// apart.
func TestLogBudget(t *testing.T) {
	now := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	b := &logBudgets{byPlugin: map[string]*logUse{}, now: func() time.Time { return now }}
	line := strings.Repeat("x", maxLogMessage)
	written := 0
	for range logBudget / maxLogMessage {
		if ok, _, _ := b.take("loud", len(line)); !ok {
			t.Fatal("a line within the budget was dropped")
		}
		written++
	}
	ok, _, first := b.take("loud", len(line))
	if ok || !first {
		t.Fatalf("the first line past the budget: written %v, first drop %v", ok, first)
	}
	for range 9 {
		if ok, _, first := b.take("loud", len(line)); ok || first {
			t.Fatalf("a later line past the budget: written %v, first drop %v", ok, first)
		}
	}
	if ok, _, _ := b.take("quiet", 10); !ok {
		t.Fatal("another plugin's line was dropped")
	}
	now = now.Add(logWindow)
	ok, dropped, _ := b.take("loud", len(line))
	if !ok || dropped != 10 {
		t.Fatalf("the next minute: written %v, dropped before %d, want true and 10", ok, dropped)
	}
}
