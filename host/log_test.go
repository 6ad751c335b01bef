package host

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
	"log/slog"
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

// A line costs what it writes, not only its message: a plugin logging
// empty messages without end stays within its budget too.
func TestLogBudgetCountsWholeLines(t *testing.T) {
	var out bytes.Buffer
	fn := logFunc(slog.New(slog.NewTextHandler(&out, nil)))
	ctx := hostfns.WithCaller(context.Background(), hostfns.Caller{Plugin: "evil", Tool: "evil_r"})
	req, _ := json.Marshal(abi.LogRequest{Level: "info", Message: ""})
	for range 100_000 {
		fn.Handle(ctx, req, nil)
	}
	if n := out.Len(); n > logBudget+64<<10 {
		t.Fatalf("100,000 empty messages wrote %d bytes, past the %d-byte budget", n, logBudget)
	}
	if !strings.Contains(out.String(), "past its budget") {
		t.Error("the drop was not said")
	}
}
