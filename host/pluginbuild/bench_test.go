package pluginbuild

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// The cost of one tool call at the plugin level: the wasm call and its host
// functions, without MCP.
func BenchmarkReadPlugin(b *testing.B) {
	root := b.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("tiny.txt", "hello\nworld\n")
	write("big.txt", strings.Repeat("this is a line of some source code, 50 bytes long\n", 2000))
	var paths []string
	for i := range 10 {
		name := fmt.Sprintf("f%d.go", i)
		write(name, strings.Repeat("package x // some code\n", 40))
		paths = append(paths, `"`+name+`"`)
	}
	if err := os.Mkdir(filepath.Join(root, "list"), 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 80 { // the folder of make bench P4
		write(fmt.Sprintf("list/entry%02d.txt", i), strings.Repeat("x", i*37))
	}
	p := load(b, "plugins/core", root, []abi.Capability{abi.CapFSRead}, nil)
	if err := p.Warm(context.Background()); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ name, tool, args string }{
		{"read_file_tiny", "read_file", `{"path":"tiny.txt"}`},
		{"read_file_100KB", "read_file", `{"path":"big.txt"}`},
		{"read_files_10", "read_files", `{"paths":[` + strings.Join(paths, ",") + `]}`},
		{"file_info", "file_info", `{"path":"tiny.txt"}`},
		{"glob", "glob_files", `{"pattern":"**/*.go"}`},
		{"list_directory_80", "list_directory", `{"path":"list"}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			caller := hostfns.Caller{Plugin: "core", Tool: bc.tool}
			for b.Loop() {
				if res := p.Call(ctx, caller, bc.tool, json.RawMessage(bc.args)); res.Error != nil {
					b.Fatal(res.Error)
				}
			}
		})
	}
}

// The floor of a tool call through the SDK: no host function, no file.
func BenchmarkEcho(b *testing.B) {
	p := load(b, "plugins/testplugins/echo", b.TempDir(), nil, nil)
	if err := p.Warm(context.Background()); err != nil {
		b.Fatal(err)
	}
	caller := hostfns.Caller{Plugin: "test-echo", Tool: "test_echo"}
	for b.Loop() {
		if res := p.Call(context.Background(), caller, "test_echo", json.RawMessage(`{"text":"pong"}`)); res.Error != nil {
			b.Fatal(res.Error)
		}
	}
}
