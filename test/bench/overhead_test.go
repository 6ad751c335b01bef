package bench

import (
	"testing"
	"time"

	"github.com/jujutools/juju/test/bench/internal/workload"
)

// BenchmarkHostCallOverhead is what running a tool as a plugin costs over
// running the same code natively, per call: ns/op is the plugin call, and
// the metrics are the native call (native-ns/op), the difference
// (overhead-ns/op) and the ratio (x-native; SPEC §11 asks for under 2).
// The native calls are timed in the same benchmark, after the plugin's, so
// both see the same machine.
func BenchmarkHostCallOverhead(b *testing.B) {
	root := workspaceRoot(b)
	h, f := pluginHost(b, root), nativeFS(b, root)
	for _, c := range []struct {
		name, tool string
		args       map[string]any
	}{
		{"read_file", "read_file", workload.ReadFileArgs},
		{"read_files", "read_files", workload.ReadFilesArgs},
		{"file_info", "file_info", map[string]any{"path": workload.TinyFile}},
		{"list_directory", "list_directory", map[string]any{"path": "."}},
	} {
		args := workload.Raw(c.args)
		b.Run(c.name, func(b *testing.B) {
			n := 0
			start := time.Now()
			for b.Loop() {
				pluginCall(b, h, c.tool, args)
				n++
			}
			plugin := time.Since(start)
			start = time.Now()
			for range n {
				nativeCall(b, f, c.tool, args)
			}
			nat := time.Since(start)
			perPlugin := float64(plugin.Nanoseconds()) / float64(n)
			perNative := float64(nat.Nanoseconds()) / float64(n)
			b.ReportMetric(perNative, "native-ns/op")
			b.ReportMetric(perPlugin-perNative, "overhead-ns/op")
			b.ReportMetric(perPlugin/perNative, "x-native")
		})
	}
}
