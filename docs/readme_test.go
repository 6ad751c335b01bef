//go:build unix

package docs

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// TestReadmeShowsWhatMakeRunPrints checks that each stdio client snippet
// README.md shows (Claude Code's command, Codex's TOML, the JSON of Cursor
// and Claude Desktop) is the one `make run` prints (scripts/connect-help.sh)
// for the same paths, so an owner who copies either gets a working line.
func TestReadmeShowsWhatMakeRunPrints(t *testing.T) {
	const bin, root = "/path/to/bin/juju", "/path/to/project"
	out, err := exec.Command("../scripts/connect-help.sh", bin, root).CombinedOutput()
	if err != nil {
		t.Fatalf("connect-help.sh: %v\n%s", err, out)
	}
	help := string(out)
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	intro, _, _ := strings.Cut(string(readme), "## Clients that connect by URL")
	blocks := regexp.MustCompile("(?s)```([a-z]+)\n(.*?)```").FindAllStringSubmatch(intro, -1)
	shown := map[string]string{}
	for _, b := range blocks {
		shown[b[1]] += b[2]
	}
	fields := func(s string) string { return strings.Join(strings.Fields(s), " ") }

	claude := regexp.MustCompile(`(?m)^claude mcp add .*$`).FindString(shown["sh"])
	if claude == "" || !strings.Contains(fields(help), fields(claude)) {
		t.Errorf("README shows Claude Code's line %q; make run prints:\n%s", claude, help)
	}
	if toml := shown["toml"]; toml == "" || !strings.Contains(fields(help), fields(toml)) {
		t.Errorf("README shows Codex's TOML %q; make run prints:\n%s", toml, help)
	}
	var readmeJSON, helpJSON any
	if err := json.Unmarshal([]byte(shown["json"]), &readmeJSON); err != nil {
		t.Errorf("README shows no JSON for Cursor and Claude Desktop that parses (%v): %q", err, shown["json"])
	}
	line := regexp.MustCompile(`\{"mcpServers".*\}`).FindString(help)
	if err := json.Unmarshal([]byte(line), &helpJSON); err != nil {
		t.Fatalf("make run prints no JSON that parses (%v):\n%s", err, help)
	}
	a, _ := json.Marshal(readmeJSON)
	b, _ := json.Marshal(helpJSON)
	if string(a) != string(b) {
		t.Errorf("README shows %s; make run prints %s", a, line)
	}
}

// TestClientSnippetsAreValid checks every client configuration README.md and
// CLI.md show, in the format each client reads: the JSON of Cursor and
// Claude Desktop ("mcpServers", each server a command with args or a url
// with headers), Codex's config.toml ([mcp_servers.NAME] with command and
// args, or url and bearer_token_env_var, and no key Codex does not know),
// and Claude Code's `claude mcp add` lines (options, the name, then `--`
// and the command, or the URL). A command a JSON client starts is an
// absolute path: Claude Desktop starts its servers without the shell's
// PATH, so a bare "juju" is not found there.
func TestClientSnippetsAreValid(t *testing.T) {
	codexKeys := map[string]bool{"command": true, "args": true, "env": true, "cwd": true, "url": true,
		"bearer_token_env_var": true, "http_headers": true, "env_http_headers": true,
		"startup_timeout_sec": true, "tool_timeout_sec": true, "enabled": true}
	checkArgs := func(doc string, args []any) {
		if len(args) == 0 || args[0] != "stdio" {
			t.Errorf("%s: a client starts juju with args %v; the first must be stdio", doc, args)
		}
		for i := 1; i < len(args); i++ {
			s, _ := args[i].(string)
			if strings.HasPrefix(s, "--") && s != "--root" && s != "--mode" && s != "--sandbox" && s != "--config" {
				t.Errorf("%s: args %v hold %s, which the snippet should not need", doc, args, s)
			}
		}
	}
	seen := map[string]int{}
	for _, doc := range []string{"../README.md", "CLI.md"} {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range regexp.MustCompile("(?s)```(json|toml|sh)\n(.*?)```").FindAllStringSubmatch(string(text), -1) {
			switch b[1] {
			case "json":
				var cfg struct {
					MCPServers map[string]map[string]any `json:"mcpServers"`
				}
				if !strings.Contains(b[2], "mcpServers") {
					continue
				}
				if err := json.Unmarshal([]byte(b[2]), &cfg); err != nil || len(cfg.MCPServers) == 0 {
					t.Errorf("%s: a client's JSON does not parse (%v):\n%s", doc, err, b[2])
					continue
				}
				for name, s := range cfg.MCPServers {
					seen["json"]++
					cmd, hasCmd := s["command"].(string)
					url, hasURL := s["url"].(string)
					switch {
					case hasCmd && !hasURL:
						if !filepath.IsAbs(cmd) {
							t.Errorf("%s: server %q starts %q, not an absolute path: Claude Desktop does not search the shell's PATH", doc, name, cmd)
						}
						args, _ := s["args"].([]any)
						checkArgs(doc, args)
					case hasURL && !hasCmd:
						h, _ := s["headers"].(map[string]any)
						if !strings.HasSuffix(url, "/mcp") || !strings.HasPrefix(fmt.Sprint(h["Authorization"]), "Bearer ") {
							t.Errorf("%s: server %q: url %q with headers %v; want juju's /mcp and an Authorization: Bearer header", doc, name, url, h)
						}
					default:
						t.Errorf("%s: server %q has neither a command nor a url alone: %v", doc, name, s)
					}
				}
			case "toml":
				if !strings.Contains(b[2], "[mcp_servers.") {
					continue
				}
				var cfg struct {
					MCPServers map[string]map[string]any `toml:"mcp_servers"`
				}
				if err := toml.Unmarshal([]byte(b[2]), &cfg); err != nil || len(cfg.MCPServers) == 0 {
					t.Errorf("%s: Codex's TOML does not parse (%v):\n%s", doc, err, b[2])
					continue
				}
				for name, s := range cfg.MCPServers {
					seen["toml"]++
					for k := range s {
						if !codexKeys[k] {
							t.Errorf("%s: [mcp_servers.%s] sets %q, which Codex does not read", doc, name, k)
						}
					}
					if _, ok := s["command"].(string); ok {
						args, _ := s["args"].([]any)
						checkArgs(doc, args)
					} else if url, _ := s["url"].(string); !strings.HasSuffix(url, "/mcp") || s["bearer_token_env_var"] == nil {
						t.Errorf("%s: [mcp_servers.%s] has no command, nor a url of juju's /mcp with bearer_token_env_var: %v", doc, name, s)
					}
				}
			case "sh":
				joined := strings.ReplaceAll(b[2], "\\\n", " ")
				for _, line := range regexp.MustCompile(`(?m)^claude mcp add .*$`).FindAllString(joined, -1) {
					seen["claude"]++
					f := strings.Fields(line)[3:]
					if len(f) >= 2 && f[0] == "--transport" {
						if f[1] != "http" || len(f) < 4 || f[2] != "juju" || !strings.HasSuffix(f[3], "/mcp") ||
							!strings.Contains(line, `--header "Authorization: Bearer `) {
							t.Errorf("%s: %q is not claude mcp add --transport http NAME URL --header \"Authorization: Bearer …\"", doc, line)
						}
						continue
					}
					if len(f) < 4 || f[0] != "juju" || f[1] != "--" || !strings.HasSuffix(f[2], "juju") {
						t.Errorf("%s: %q is not claude mcp add NAME -- JUJU stdio …", doc, line)
						continue
					}
					args := []any{}
					for _, a := range f[3:] {
						args = append(args, a)
					}
					checkArgs(doc, args)
				}
			}
		}
	}
	if seen["json"] < 4 || seen["toml"] < 4 || seen["claude"] < 4 {
		t.Errorf("found %d JSON servers, %d TOML servers and %d claude mcp add lines; the documents show more", seen["json"], seen["toml"], seen["claude"])
	}
}

// TestReadmeLSPLinesAreCLIs checks that each `juju lsp add` line README.md
// shows is, word for word, the registration CLI.md's table gives for that
// server, so the two never register a server differently.
func TestReadmeLSPLinesAreCLIs(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	cli, err := os.ReadFile("CLI.md")
	if err != nil {
		t.Fatal(err)
	}
	fields := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	table := map[string]string{}
	for _, m := range regexp.MustCompile("`(juju lsp add ([a-z0-9.-]+) [^`]*)`").FindAllStringSubmatch(string(cli), -1) {
		table[m[2]] = fields(m[1])
	}
	joined := strings.ReplaceAll(string(readme), "\\\n", " ")
	lines := regexp.MustCompile(`(?m)^juju lsp add ([a-z0-9.-]+) .*$`).FindAllStringSubmatch(joined, -1)
	if len(lines) == 0 || len(table) < 5 {
		t.Fatalf("found %d lsp add lines in README.md and %d in CLI.md's table", len(lines), len(table))
	}
	for _, l := range lines {
		if want, ok := table[l[1]]; !ok || fields(l[0]) != want {
			t.Errorf("README.md registers %s with\n  %s\nCLI.md's table with\n  %s", l[1], fields(l[0]), want)
		}
	}
}
