package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/host/mcpserver"
	"github.com/jujutools/juju/test/bench/internal/workload"
)

// BenchmarkTransports is a tiny read_file through each of juju's layers, in
// one process, so that a transport's own cost shows without process
// switches: the host call alone; juju's stdio loop over pipes; juju serve's
// HTTP handler over loopback with a keep-alive net/http client; and, for
// reference, mcp-go's streamable HTTP server with nothing of juju's (a tool
// that answers a fixed text: the library's floor) and with the host call
// as its tool. docs/RATIONALE.md, "What the lines still failing are made
// of", reads these figures.
func BenchmarkTransports(b *testing.B) {
	h := pluginHost(b, workspaceRoot(b))
	// Compile what a handshake would before timing anything: a benchmark
	// that ran beside the compilations would measure them too.
	h.Warm(context.Background())
	warmed(b, h)
	args := workload.Raw(workload.ReadFileArgs)
	call := `{"name":"read_file","arguments":` + string(args) + `}`
	const want = "Tiny" // in the tiny file's text

	b.Run("host", func(b *testing.B) {
		for b.Loop() {
			pluginCall(b, h, "read_file", args)
		}
	})
	b.Run("stdio", func(b *testing.B) {
		rpc := stdioClient(b, h)
		for i := 0; b.Loop(); i++ {
			if out := rpc(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, i+1, call)); !bytes.Contains(out, []byte(want)) {
				b.Fatalf("%s", out)
			}
		}
	})
	b.Run("http", func(b *testing.B) {
		ln := listen(b)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go mcpserver.ServeHTTP(ctx, h, mcpserver.HTTPConfig{Listener: ln, Token: "bench-token"})
		benchHTTP(b, ln, call, want)
	})
	for _, c := range []struct {
		name string
		tool server.ToolHandlerFunc
	}{
		{"mcp-go-fixed-text", func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(want), nil
		}},
		{"mcp-go-host-call", func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := h.Call(ctx, host.Request{Client: workload.Client, Tool: "read_file", Args: args})
			if err != nil || res.Error != nil || len(res.Content) == 0 {
				return nil, fmt.Errorf("read_file: %v %v", err, res.Error)
			}
			return mcp.NewToolResultText(res.Content[0].Text), nil
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := server.NewMCPServer("bench", "1", server.WithToolCapabilities(false))
			s.AddTool(mcp.NewTool("read_file", mcp.WithString("path")), c.tool)
			ln := listen(b)
			srv := &http.Server{Handler: server.NewStreamableHTTPServer(s)}
			go srv.Serve(ln)
			defer srv.Close()
			benchHTTP(b, ln, call, want)
		})
	}
}

func listen(b *testing.B) net.Listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	return ln
}

// warmed waits for the compilations Warm started.
func warmed(b *testing.B, h *host.Host) {
	select {
	case <-h.Warmed():
	case <-time.After(time.Minute):
		b.Fatal("the plugins took more than a minute to compile")
	}
}

// stdioClient serves juju's stdio loop over pipes, makes the handshake, and
// returns a function that sends one request and reads its answer.
func stdioClient(b *testing.B, h *host.Host) func(string) []byte {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(func() { cancel(); inW.Close(); outR.Close() })
	go mcpserver.ServeStdio(ctx, h, inR, outW, nil)
	lines := bufio.NewReader(outR)
	send := func(msg string) {
		if _, err := inW.Write([]byte(msg + "\n")); err != nil {
			b.Fatal(err)
		}
	}
	rpc := func(msg string) []byte {
		send(msg)
		line, err := lines.ReadBytes('\n')
		if err != nil {
			b.Fatal(err)
		}
		return line
	}
	rpc(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	rpc(`{"jsonrpc":"2.0","id":"list","method":"tools/list"}`)
	return rpc
}

// benchHTTP opens a session on the MCP endpoint at ln and times tools/call
// requests on one keep-alive connection.
func benchHTTP(b *testing.B, ln net.Listener, call, want string) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	b.Cleanup(client.CloseIdleConnections)
	url := "http://" + ln.Addr().String() + "/mcp"
	session := ""
	post := func(body string) []byte {
		req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader([]byte(body)))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer bench-token")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		out, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode >= 300 {
			b.Fatalf("HTTP %d: %s %v", res.StatusCode, out, err)
		}
		if session == "" {
			session = res.Header.Get("Mcp-Session-Id")
		}
		return out
	}
	post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i := 0; b.Loop(); i++ {
		if out := post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, i+1, call)); !bytes.Contains(out, []byte(want)) {
			b.Fatalf("%s", out)
		}
	}
}

// BenchmarkHostCallAfterPause is the host call of BenchmarkTransports/host
// made after a pause, as a client's calls come, and the same read done
// natively after the same pause: call-ns/op and native-ns/op are the calls
// alone. In a loop with no pause the caches hold the call's machine code
// and memory; after a few milliseconds much of it has to be fetched again
// (docs/RATIONALE.md, "What the lines still failing are made of").
func BenchmarkHostCallAfterPause(b *testing.B) {
	root := workspaceRoot(b)
	h, f := pluginHost(b, root), nativeFS(b, root)
	args := workload.Raw(workload.ReadFileArgs)
	for _, pause := range []time.Duration{0, 500 * time.Microsecond, 2 * time.Millisecond, 5 * time.Millisecond} {
		b.Run(fmt.Sprintf("pause=%v", pause), func(b *testing.B) {
			var inCall, inNative time.Duration
			for b.Loop() {
				if pause > 0 {
					time.Sleep(pause)
				}
				start := time.Now()
				pluginCall(b, h, "read_file", args)
				inCall += time.Since(start)
				if pause > 0 {
					time.Sleep(pause)
				}
				start = time.Now()
				nativeCall(b, f, "read_file", args)
				inNative += time.Since(start)
			}
			b.ReportMetric(float64(inCall.Nanoseconds())/float64(b.N), "call-ns/op")
			b.ReportMetric(float64(inNative.Nanoseconds())/float64(b.N), "native-ns/op")
		})
	}
}
