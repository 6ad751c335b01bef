package bench

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkToolsList is a tools/list of the core catalog (43 tools, a
// 134 KB answer) through juju's stdio loop over pipes, in a warm process,
// the client's reading of the answer included. docs/RATIONALE.md, "The
// tools/list answer is encoded once per catalog", reads it.
func BenchmarkToolsList(b *testing.B) {
	h := pluginHost(b, workspaceRoot(b))
	rpc := stdioClient(b, h)
	for i := 0; b.Loop(); i++ {
		if out := rpc(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, i+1)); !bytes.Contains(out, []byte(`"name":"read_file"`)) {
			b.Fatalf("%.300s", out)
		}
	}
}
