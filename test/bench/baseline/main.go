// Command baseline is the native baseline of juju's benchmarks: a bare
// mcp-go stdio server with the same five read tools as juju's core read
// plugin, done natively in Go (package native), with no wasm and no policy
// beyond keeping paths inside the root. The report builds it into a
// temporary folder and measures it beside juju in the same run.
//
// Usage:
//
//	baseline -root DIR
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/test/bench/internal/native"
)

func main() {
	root := flag.String("root", ".", "the workspace root to serve")
	flag.Parse()
	if err := run(*root); err != nil {
		fmt.Fprintln(os.Stderr, "baseline:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	f, err := native.New(root)
	if err != nil {
		return err
	}
	s := server.NewMCPServer("juju-bench-baseline", "1", server.WithToolCapabilities(false))
	readOnly := mcp.WithToolAnnotation(mcp.ToolAnnotation{
		ReadOnlyHint:    mcp.ToBoolPtr(true),
		DestructiveHint: mcp.ToBoolPtr(false),
		IdempotentHint:  mcp.ToBoolPtr(true),
		OpenWorldHint:   mcp.ToBoolPtr(false),
	})
	s.AddTool(mcp.NewTool("list_directory", mcp.WithDescription("Lists one folder."), readOnly, mcp.WithInputSchema[native.ListDirectoryArgs]()), handler(f))
	s.AddTool(mcp.NewTool("read_file", mcp.WithDescription("Reads a text file."), readOnly, mcp.WithInputSchema[native.ReadFileArgs]()), handler(f))
	s.AddTool(mcp.NewTool("read_files", mcp.WithDescription("Reads several text files."), readOnly, mcp.WithInputSchema[native.ReadFilesArgs]()), handler(f))
	s.AddTool(mcp.NewTool("file_info", mcp.WithDescription("Describes one path."), readOnly, mcp.WithInputSchema[native.FileInfoArgs]()), handler(f))
	s.AddTool(mcp.NewTool("glob_files", mcp.WithDescription("Finds files by glob."), readOnly, mcp.WithInputSchema[native.GlobFilesArgs]()), handler(f))
	return server.ServeStdio(s)
}

// handler serves every tool through native.FS.Call, answering as juju does:
// text content and structured content, or a tool error whose text begins
// with its code.
func handler(f *native.FS) server.ToolHandlerFunc {
	return func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := json.Marshal(req.GetArguments())
		if err != nil {
			return nil, err
		}
		res, err := f.Call(req.Params.Name, args)
		if err != nil {
			e, ok := err.(*native.Error)
			if !ok {
				return nil, err
			}
			sc, _ := json.Marshal(e)
			return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(e.Error())}, RawStructuredContent: sc, IsError: true}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(res.Text)}, RawStructuredContent: res.Structured}, nil
	}
}
