package pluginbuild

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/wasmtest"
)

// A module whose _initialize never returns (a Go init that loops or
// waits) is stopped at the limit, and the author reads that its start,
// not its juju_describe, is what never finished.
func TestDescribeNamesAStartThatNeverEnds(t *testing.T) {
	old := describeTimeout
	describeTimeout = time.Second
	t.Cleanup(func() { describeTimeout = old })
	for _, abi1 := range []bool{false, true} {
		wasm := wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "t", Start: wasmtest.StartInitialize, ABI1: abi1})
		_, err := Describe(t.Context(), wasm)
		if !errors.Is(err, ErrDescribe) || !strings.Contains(err.Error(), "did not start within 1s") || !strings.Contains(err.Error(), "_initialize") {
			t.Errorf("abi 1: %v: %v", abi1, err)
		}
	}
}
