package test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// maxMistakeMessage bounds the message of a refused call: it quotes what
// was sent cut to 200 bytes (abi.Quote), never the whole of it.
const maxMistakeMessage = 1000

// Arguments no tool can act on are the client's mistakes, answered with
// the code SPEC §10 gives them and a bounded message, never INTERNAL: a
// NUL byte or an over-long name in a path delete_path and move_path
// resolve in parts, a NUL byte or a size past the kernel's bound in a
// string that becomes a program's argument (git, ripgrep, bash), integers
// past what a float64 holds exactly or git's int reads. The log stays
// bounded too: a 10 MB path made a 20 MB line.
func TestClientMistakesHaveTheirCodes(t *testing.T) {
	root := gitRepo(t)
	logFile := filepath.Join(t.TempDir(), "juju.log")
	s := start(t, root, "--mode", "trusted", "--log-file", logFile)
	long := func(c string, n int) string { return strings.Repeat(c, n) }
	for _, c := range []struct {
		name, tool string
		args       map[string]any
		code       string
	}{
		{"delete a NUL", "delete_path", map[string]any{"path": "a\x00b"}, "INVALID_ARGUMENT"},
		{"delete a 300-byte name", "delete_path", map[string]any{"path": long("x", 300)}, "INVALID_ARGUMENT"},
		{"delete a 5000-byte path", "delete_path", map[string]any{"path": long("x", 5000)}, "INVALID_ARGUMENT"},
		{"delete a 10 MB path", "delete_path", map[string]any{"path": long("y", 10<<20)}, "INVALID_ARGUMENT"},
		{"move a NUL", "move_path", map[string]any{"path": "README.md\x00x", "destination": "b.md"}, "INVALID_ARGUMENT"},
		{"move to a NUL", "move_path", map[string]any{"path": "README.md", "destination": "a\x00b"}, "INVALID_ARGUMENT"},
		{"move to a 300-byte name", "move_path", map[string]any{"path": "README.md", "destination": long("x", 300)}, "INVALID_ARGUMENT"},
		{"preview a delete of a NUL", "preview_changes", map[string]any{"operations": []any{map[string]any{"op": "delete", "path": "a\x00"}}}, "INVALID_ARGUMENT"},
		{"log a NUL revision", "git_log", map[string]any{"revision": "a\x00b"}, "INVALID_ARGUMENT"},
		{"diff a NUL revision", "git_diff", map[string]any{"revision": "a\x00b"}, "INVALID_ARGUMENT"},
		{"commit a NUL message", "git_commit", map[string]any{"message": "a\x00b"}, "INVALID_ARGUMENT"},
		{"log a 128 KiB revision", "git_log", map[string]any{"revision": long("x", 128<<10)}, "INVALID_ARGUMENT"},
		{"commit a 128 KiB message", "git_commit", map[string]any{"message": long("m", 128<<10)}, "INVALID_ARGUMENT"},
		// Within maxLength, which counts characters, yet 128 KiB of bytes:
		// the host's own check answers.
		{"commit 128 KiB of é", "git_commit", map[string]any{"message": long("é", 64<<10)}, "TOO_LARGE"},
		{"search a 128 KiB pattern", "search_code", map[string]any{"pattern": long("x", 128<<10)}, "INVALID_ARGUMENT"},
		{"search 40 KB of é", "search_code", map[string]any{"pattern": long("é", 20000)}, "TOO_LARGE"},
		{"search a NUL glob", "search_code", map[string]any{"pattern": "hello", "fileGlob": "a\x00b"}, "INVALID_ARGUMENT"},
		{"find a 128 KiB symbol", "find_symbol", map[string]any{"symbol": long("s", 128<<10)}, "INVALID_ARGUMENT"},
		{"find a 128 KiB query", "find_symbol", map[string]any{"query": long("q", 128<<10)}, "INVALID_ARGUMENT"},
		{"run a 10 MB command", "run_command", map[string]any{"command": "echo " + long("z", 10<<20)}, "INVALID_ARGUMENT"},
		{"run 128 KiB of é", "run_command", map[string]any{"command": long("é", 64<<10)}, "TOO_LARGE"},
		{"log from offset 2^32", "git_log", map[string]any{"offset": uint64(1) << 32}, "INVALID_ARGUMENT"},
		{"log from offset 2^63", "git_log", map[string]any{"offset": uint64(1) << 63}, "INVALID_ARGUMENT"},
		{"read from offset 2^63", "read_file", map[string]any{"path": "README.md", "offset": uint64(1) << 63}, "INVALID_ARGUMENT"},
		{"list from offset 2^60", "list_directory", map[string]any{"path": ".", "offset": uint64(1) << 60}, "INVALID_ARGUMENT"},
		// Numbers JSON allows and no float64 holds: mcp-go cannot decode
		// the call, so the front refuses it as a result of its own.
		{"read from offset 1e400", "read_file", map[string]any{"path": "README.md", "offset": json.Number("1e400")}, "INVALID_ARGUMENT"},
		{"list with a limit of -1e999", "list_directory", map[string]any{"path": ".", "limit": json.Number("-1e999")}, "INVALID_ARGUMENT"},
		{"read 400 digits of offset", "read_file", map[string]any{"path": "README.md", "offset": json.Number(long("9", 400))}, "INVALID_ARGUMENT"},
		{"a 1e400 deep in an operation", "preview_changes", map[string]any{"operations": []any{map[string]any{"op": "delete", "path": "x", "n": json.Number("25e307")}}}, "INVALID_ARGUMENT"},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := s.with(t).fail(c.tool, c.args, c.code)
			if len(msg) > maxMistakeMessage {
				t.Errorf("a message of %d bytes: %.300s…", len(msg), msg)
			}
			if strings.Contains(msg, "must be an integer") {
				t.Errorf("an integer past the range is not said to be one: %s", msg)
			}
		})
	}

	// An offset past the last commit is past the end, however large.
	for _, off := range []int{2, 100_000_000} {
		res := s.call("git_log", map[string]any{"offset": off})
		if res.IsError || !strings.Contains(text(res), "no commits after the newest") {
			t.Errorf("git_log from offset %d: %s", off, text(res))
		}
	}

	// Every integer argument of every tool has a range.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := s.c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		raw, _ := json.Marshal(tool)
		var wire struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		json.Unmarshal(raw, &wire)
		var walk func(at string, node map[string]any)
		walk = func(at string, node map[string]any) {
			if node["type"] == "integer" {
				if _, ok := node["minimum"]; !ok {
					t.Errorf("%s%s: an integer argument without a minimum", tool.Name, at)
				}
				if max, ok := node["maximum"].(float64); !ok || max > 1<<53-1 {
					t.Errorf("%s%s: an integer argument without a maximum of at most 2^53-1: %v", tool.Name, at, node["maximum"])
				}
			}
			props, _ := node["properties"].(map[string]any)
			for k, v := range props {
				if m, ok := v.(map[string]any); ok {
					walk(at+"."+k, m)
				}
			}
			if items, ok := node["items"].(map[string]any); ok {
				walk(at+"[]", items)
			}
		}
		var schema map[string]any
		json.Unmarshal(wire.InputSchema, &schema)
		walk("", schema)
	}

	// No log line holds what a call sent whole.
	s.c.Close()
	f, err := os.Open(logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if n := len(sc.Bytes()); n > 10_000 {
			t.Errorf("a log line of %d bytes: %.200s…", n, sc.Bytes())
		}
	}
}
