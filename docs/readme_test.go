//go:build unix

package docs

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
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
