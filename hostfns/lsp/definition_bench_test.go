//go:build linux

package lsp

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/lspconfig"
	"github.com/jujutools/juju/sdk/abi"
)

// BenchmarkDefinition is one warm definition through the host function,
// against the fake server (which answers at once): juju's own part of a
// go_to_definition, from the decoded request to the converted answer.
// cpu-µs/op is this process's CPU time per call (the server's is its own).
func BenchmarkDefinition(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	m, _ := fakeManager(b, "mute", map[string]string{
		"go.mod":        "module example.com/bench\n\ngo 1.22\n",
		"lib/server.go": "package lib\n\n// Server serves.\ntype Server struct{ Name string }\n",
		"app/main.go":   "package main\n\nimport \"example.com/bench/lib\"\n\nfunc main() {\n\ts := lib.NewServer(\"x\")\n\t_ = s\n}\n",
	}, Options{Servers: []lspconfig.Server{{Name: "fake", Command: []string{exe}, Languages: []string{"go"}, RootMarkers: []string{"go.mod"}}}})
	req := abi.LSPRequest{Op: abi.LSPDefinition, Path: "app/main.go", Line: 6, Column: 11}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The files' stamps are trusted once older than stampSlack, as in a
	// workspace whose files were not written a moment ago.
	time.Sleep(stampSlack + 200*time.Millisecond)
	for range 2 {
		if _, _, e := m.serve(ctx, &req, nil); e != nil {
			b.Fatal(e)
		}
	}
	b.ReportAllocs()
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	b.ResetTimer()
	for b.Loop() {
		r := req
		if _, _, e := m.serve(ctx, &r, nil); e != nil {
			b.Fatal(e)
		}
	}
	b.StopTimer()
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := time.Duration(syscall.TimevalToNsec(after.Utime) - syscall.TimevalToNsec(before.Utime) +
		syscall.TimevalToNsec(after.Stime) - syscall.TimevalToNsec(before.Stime))
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
}
