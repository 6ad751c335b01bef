package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkSearchCodeSmall is the plugin's share of search_code: 85
// matching lines from one small file, so that rg's own time is a few
// milliseconds and the rest is the call, the answer's decoding in wasm and
// the result's formatting.
func BenchmarkSearchCodeSmall(b *testing.B) {
	dir := filepath.Join(tmp, "small")
	os.MkdirAll(dir, 0o755)
	var s strings.Builder
	for i := range 85 {
		fmt.Fprintf(&s, "func handler%dContext(ctx context.Context, w http.ResponseWriter, r *http.Request) error {\n\treturn nil\n}\n", i)
	}
	os.WriteFile(filepath.Join(dir, "a.go"), []byte(s.String()), 0o644)
	h := pluginHost(b, dir)
	pluginCall(b, h, "search_code", searchArgs)
	for b.Loop() {
		pluginCall(b, h, "search_code", searchArgs)
	}
}
