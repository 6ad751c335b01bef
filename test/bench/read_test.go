package bench

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/test/bench/internal/native"
	"github.com/jujutools/juju/test/bench/internal/workload"
)

// pluginCall calls a tool in h and fails on any error.
func pluginCall(tb testing.TB, h *host.Host, tool string, args json.RawMessage) json.RawMessage {
	res, err := h.Call(context.Background(), host.Request{Client: workload.Client, Tool: tool, Args: args})
	if err != nil {
		tb.Fatal(err)
	}
	if res.Error != nil {
		tb.Fatalf("%s: %v", tool, res.Error)
	}
	return res.Structured
}

// nativeCall does the same work natively and fails on any error.
func nativeCall(tb testing.TB, f *native.FS, tool string, args json.RawMessage) json.RawMessage {
	res, err := f.Call(tool, args)
	if err != nil {
		tb.Fatalf("%s: %v", tool, err)
	}
	return res.Structured
}

// sameAnswer fails when the plugin and the native function answer a call
// with different text: a ratio between them means something only if they
// do the same work.
func sameAnswer(tb testing.TB, h *host.Host, f *native.FS, tool string, args json.RawMessage) {
	tb.Helper()
	got, err := workload.Call(context.Background(), h, tool, args)
	if err != nil {
		tb.Fatal(err)
	}
	want, err := f.Call(tool, args)
	if err != nil {
		tb.Fatal(err)
	}
	if got != want.Text {
		tb.Fatalf("%s answers differ:\nplugin: %q\nnative: %q", tool, got, want.Text)
	}
}

// BenchmarkPluginReadFile is a tiny read_file through the core plugin,
// in-process: host.Host.Call, a pooled wasm instance, the fs host function
// and the path policy.
func BenchmarkPluginReadFile(b *testing.B) {
	root := workspaceRoot(b)
	h := pluginHost(b, root)
	args := workload.Raw(workload.ReadFileArgs)
	sameAnswer(b, h, nativeFS(b, root), "read_file", args)
	b.ReportAllocs()
	for b.Loop() {
		pluginCall(b, h, "read_file", args)
	}
}

// BenchmarkNativeReadFile is the same read_file done natively: decode the
// arguments, read the file, format the text and the structured content.
func BenchmarkNativeReadFile(b *testing.B) {
	f := nativeFS(b, workspaceRoot(b))
	args := workload.Raw(workload.ReadFileArgs)
	b.ReportAllocs()
	for b.Loop() {
		nativeCall(b, f, "read_file", args)
	}
}

// BenchmarkReadFiles is read_files of ten small files, plugin and native.
func BenchmarkReadFiles(b *testing.B) {
	root := workspaceRoot(b)
	f := nativeFS(b, root)
	args := workload.Raw(workload.ReadFilesArgs)
	b.Run("impl=plugin", func(b *testing.B) {
		h := pluginHost(b, root)
		sameAnswer(b, h, f, "read_files", args)
		b.ReportAllocs()
		for b.Loop() {
			pluginCall(b, h, "read_files", args)
		}
	})
	b.Run("impl=native", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			nativeCall(b, f, "read_files", args)
		}
	})
}

// BenchmarkGlobGoTree is glob_files **/*_test.go over Go's source tree
// (about 11,500 files), through the plugin and natively (filepath.WalkDir
// and doublestar.Match, each match described). It reports the matches found:
// the plugin skips .gitignored files and secrets, the native walk does not.
func BenchmarkGlobGoTree(b *testing.B) {
	root := goTreeRoot(b)
	args := workload.Raw(workload.GlobArgs)
	b.Run("impl=plugin", func(b *testing.B) {
		h := pluginHost(b, root)
		var total int
		for b.Loop() {
			total = structuredTotal(b, pluginCall(b, h, "glob_files", args))
		}
		b.ReportMetric(float64(total), "matches")
	})
	b.Run("impl=native", func(b *testing.B) {
		f := nativeFS(b, root)
		var total int
		for b.Loop() {
			total = structuredTotal(b, nativeCall(b, f, "glob_files", args))
		}
		b.ReportMetric(float64(total), "matches")
	})
}

func structuredTotal(tb testing.TB, raw json.RawMessage) int {
	var v struct {
		Total int `json:"total"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		tb.Fatal(err)
	}
	return v.Total
}

// BenchmarkReadLarge is read_file of a 100 KB file (workload.LargeFile),
// through the core plugin in-process and natively. It reports the plugin's
// throughput in MB/s of file content.
func BenchmarkReadLarge(b *testing.B) {
	root := workspaceRoot(b)
	f := nativeFS(b, root)
	args := workload.Raw(workload.LargeReadArgs)
	b.Run("impl=plugin", func(b *testing.B) {
		h := pluginHost(b, root)
		sameAnswer(b, h, f, "read_file", args)
		b.SetBytes(workload.LargeSize)
		b.ReportAllocs()
		for b.Loop() {
			pluginCall(b, h, "read_file", args)
		}
	})
	b.Run("impl=native", func(b *testing.B) {
		b.SetBytes(workload.LargeSize)
		b.ReportAllocs()
		for b.Loop() {
			nativeCall(b, f, "read_file", args)
		}
	})
}

// BenchmarkListDirectory is list_directory of a folder of
// workload.ListEntries entries through the core plugin, in-process.
func BenchmarkListDirectory(b *testing.B) {
	h := pluginHost(b, workspaceRoot(b))
	args := workload.Raw(map[string]any{"path": workload.ListDir})
	b.ReportAllocs()
	for b.Loop() {
		pluginCall(b, h, "list_directory", args)
	}
}
