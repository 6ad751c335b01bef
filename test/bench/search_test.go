package bench

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/jujutools/juju/test/bench/internal/workload"
)

// searchArgs is the search of the report's lines 5c and 5d: every match of
// a regular expression over Go's tree.
var searchArgs = workload.Raw(map[string]any{"pattern": `func \w+Context\(`, "maxResults": 2000, "caseSensitive": true, "timeoutMs": 25000})

// fallbackArgs is the same search over src/net only: the plugin's own
// search reads every file through the fs host functions, too slowly for
// the whole tree.
var fallbackArgs = workload.Raw(map[string]any{"pattern": `func \w+Context\(`, "path": "net", "maxResults": 2000, "caseSensitive": true, "timeoutMs": 25000})

func searchMatches(tb testing.TB, raw json.RawMessage) (int, bool) {
	var res struct {
		Matches int  `json:"matches"`
		Partial bool `json:"partial"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		tb.Fatal(err)
	}
	return res.Matches, res.Partial
}

// BenchmarkSearchCode is search_code in-process over Go's tree, through
// ripgrep on the host.
func BenchmarkSearchCode(b *testing.B) {
	if _, err := exec.LookPath("rg"); err != nil {
		b.Skip("rg is not installed")
	}
	h := pluginHost(b, goTreeRoot(b))
	pluginCall(b, h, "search_code", searchArgs) // compile the plugin before timing
	var n int
	for b.Loop() {
		n, _ = searchMatches(b, pluginCall(b, h, "search_code", searchArgs))
	}
	b.ReportMetric(float64(n), "matches")
}

// BenchmarkSearchCodeFallback is the search of fallbackArgs by the plugin
// itself: the host is made with no rg on PATH.
func BenchmarkSearchCodeFallback(b *testing.B) {
	src := goTreeRoot(b)
	b.Setenv("PATH", b.TempDir())
	h, err := workload.NewHost(src, filepath.Join(tmp, "home"))
	if err != nil {
		b.Skip(err)
	}
	defer h.Close(context.Background())
	pluginCall(b, h, "search_code", fallbackArgs)
	var n int
	var partial bool
	for b.Loop() {
		n, partial = searchMatches(b, pluginCall(b, h, "search_code", fallbackArgs))
	}
	if partial {
		b.Log("the search ran out of time: partial")
	}
	b.ReportMetric(float64(n), "matches")
}
