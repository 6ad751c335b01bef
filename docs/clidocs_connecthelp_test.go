//go:build unix

package docs

import (
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// TestMakeRunQuotesPaths checks that the lines `make run` prints
// (scripts/connect-help.sh) name juju and the workspace exactly when their
// paths hold a space, quotes or a backslash, as a folder such as
// "~/Documents/My Project" does: Claude Code's command split as a shell
// splits it, Codex's TOML and the JSON of Cursor and Claude Desktop
// decoded, each gives back the paths it was made from.
func TestMakeRunQuotesPaths(t *testing.T) {
	const bin, root = `/home/me/my tools/bin/juju`, `/home/me/Documents/My "Pro'ject" \x`
	out, err := exec.Command("../scripts/connect-help.sh", bin, root).CombinedOutput()
	if err != nil {
		t.Fatalf("connect-help.sh: %v\n%s", err, out)
	}
	help := string(out)
	want := []string{bin, "stdio", "--root", root}

	line := regexp.MustCompile(`(?m)claude mcp add juju -- (.*)$`).FindStringSubmatch(help)
	if line == nil {
		t.Fatalf("make run prints no claude mcp add line:\n%s", help)
	}
	words, err := exec.Command("bash", "-c", `eval "set -- $1"; printf '%s\0' "$@"`, "bash", line[1]).Output()
	if err != nil {
		t.Fatalf("bash cannot split Claude Code's line %q: %v", line[1], err)
	}
	if got := strings.Split(strings.TrimSuffix(string(words), "\x00"), "\x00"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Claude Code's line %q runs %q, want %q", line[1], got, want)
	}

	tomlText := regexp.MustCompile(`(?s)\[mcp_servers\.juju\]\n.*?args = \[.*?\]\n`).FindString(help)
	var codex struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
		} `toml:"mcp_servers"`
	}
	if err := toml.Unmarshal([]byte(dedent(tomlText)), &codex); err != nil {
		t.Fatalf("Codex's TOML does not decode (%v):\n%s", err, tomlText)
	}
	if s := codex.MCPServers["juju"]; strings.Join(append([]string{s.Command}, s.Args...), "|") != strings.Join(want, "|") {
		t.Errorf("Codex's TOML runs %q %q, want %q", s.Command, s.Args, want)
	}

	jsonText := regexp.MustCompile(`\{"mcpServers".*\}`).FindString(help)
	var desktop struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(jsonText), &desktop); err != nil {
		t.Fatalf("the JSON for Cursor and Claude Desktop does not decode (%v): %s", err, jsonText)
	}
	if s := desktop.MCPServers["juju"]; strings.Join(append([]string{s.Command}, s.Args...), "|") != strings.Join(want, "|") {
		t.Errorf("the JSON runs %q %q, want %q", s.Command, s.Args, want)
	}
}

// dedent removes the leading white space of each line.
func dedent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, " \t")
	}
	return strings.Join(lines, "\n")
}
