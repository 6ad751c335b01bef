//go:build unix

package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEnvironmentInfoVersionsAreText: a tool that colours its version
// line even into a pipe (mvn prints ESC[1mApache Maven 3.8.7ESC[m) is
// listed with the version as a terminal shows it; no escape sequence or
// other control character reaches the text or the structured content.
func TestEnvironmentInfoVersionsAreText(t *testing.T) {
	bin := t.TempDir()
	script := "#!/bin/sh\nprintf '\\033[1mApache Maven 3.8.7\\033[m\\n\\033[1;34mMaven home:\\033[m /x\\n'\n"
	if err := os.WriteFile(filepath.Join(bin, "mvn"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	if err := os.Symlink(sharedCache, filepath.Join(home, "cache")); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "JUJU_HOME="+home, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	root := workspace(t, nil)
	s := startCommand(t, env, jujuBin, []string{"stdio", "--root", root, "--mode", "trusted"}, home, root)
	res := s.call("environment_info", map[string]any{})
	if res.IsError {
		t.Fatal(text(res))
	}
	if got := text(res); !strings.Contains(got, "  mvn: Apache Maven 3.8.7\n") || strings.ContainsRune(got, 0x1b) {
		t.Errorf("mvn's line is not its version as text:\n%q", got)
	}
	var version any
	for _, x := range structured(t, res)["tools"].([]any) {
		if m := x.(map[string]any); m["name"] == "mvn" {
			version = m["version"]
		}
	}
	if version != "Apache Maven 3.8.7" {
		t.Errorf("structured mvn version %q, want %q", version, "Apache Maven 3.8.7")
	}
}
