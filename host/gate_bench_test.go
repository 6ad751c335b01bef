package host

import (
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/audit"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/sdk/abi"
)

// BenchmarkGateAndAudit is what the policy gate and the audit add to an R
// call, such as a tiny read_file: the tier check, a call id, the arguments
// in short and one appended audit line.
func BenchmarkGateAndAudit(b *testing.B) {
	h := &Host{
		cfg:   Config{Mode: config.ModeEdit},
		log:   slog.New(slog.DiscardHandler),
		audit: audit.Open(filepath.Join(b.TempDir(), audit.FileName)),
	}
	defer h.audit.Close()
	args := []byte(`{"limit":20,"offset":1,"path":"src/tiny.go"}`)
	res := &abi.CallResult{Content: []abi.Content{{Type: "text", Text: "x"}}}
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		if NeedsApproval(h.cfg.Mode, abi.TierRead) {
			b.Fatal("an R call needs no approval")
		}
		c := hostfns.Caller{Plugin: "core", Tool: "read_file", Tier: abi.TierRead, Client: "bench", CallID: newCallID()}
		h.record(start, c, args, res, nil)
	}
}
