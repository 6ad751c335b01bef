package search

import (
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/testfs"
	"github.com/jujutools/juju/sdk/abi"
)

// A search the cap cuts is run again in path order; when that second run
// cannot end in time, the first run's answer stands, whole under the cap
// and marked truncated, rather than a partial answer of what the second
// run had found when time ran out.
func TestCutSearchKeepsItsFirstAnswerWhenTheOrderedRunRunsOut(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("f%02d.txt", i)] = "needle\n"
	}
	p := newPolicy(t, testfs.Workspace(t, files))
	engines := map[string]Options{"juju": noRG}
	if _, err := exec.LookPath("rg"); err == nil {
		engines["ripgrep"] = Options{}
	}
	for engine, opts := range engines {
		reordered := false
		beforeReorder = func() {
			reordered = true
			time.Sleep(1500 * time.Millisecond) // past the search's timeoutMs
		}
		res := call(t, p, opts, abi.SearchRequest{Pattern: "needle", Mode: abi.SearchFiles, MaxResults: 3, TimeoutMs: 1000})
		beforeReorder = nil
		if !reordered {
			t.Fatalf("%s: the cut search was not run again in path order", engine)
		}
		if res.Error != nil || res.Engine != engine || res.Partial || !res.Truncated || len(res.Files) != 3 {
			t.Errorf("%s: want the first run's three files, truncated, not partial: engine %s, error %v, partial %v, truncated %v, files %v",
				engine, res.Engine, res.Error, res.Partial, res.Truncated, res.Files)
		}
	}
}
