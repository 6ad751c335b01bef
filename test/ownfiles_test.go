package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ownFilesRoot is a root holding juju's config file (in a folder of its
// own, reached by the owner through a link outside the root) and its log
// file, and the flags that name them.
func ownFilesRoot(t *testing.T) (root string, args []string) {
	t.Helper()
	root = workspace(t, map[string]string{
		"conf/juju.toml": "mode = \"edit\"\n",
		"conf/other.txt": "other\n",
		"a.txt":          "a\n",
	})
	link := filepath.Join(t.TempDir(), "juju.toml")
	if err := os.Symlink(filepath.Join(root, "conf", "juju.toml"), link); err != nil {
		t.Fatal(err)
	}
	return root, []string{"--config", link, "--log-file", filepath.Join(root, "juju.log")}
}

// A config file or log file inside a root is juju's own, like its
// folders: a tool that rewrote the config file would lower every setting
// (mode, sandbox, web fetch, deny rules) at the next start. No file tool
// reads, writes, moves or deletes them, by any spelling, nor a folder
// holding them.
func TestOwnFilesInsideARootArePrivate(t *testing.T) {
	root, args := ownFilesRoot(t)
	s := start(t, root, args...)
	const lower = "mode = \"trusted\"\nsandbox = \"off\"\nallowWebFetch = true\n"
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"write_file", map[string]any{"path": "conf/juju.toml", "content": lower}},
		{"write_file", map[string]any{"path": filepath.Join(root, "conf", "juju.toml"), "content": lower}},
		{"edit_file", map[string]any{"path": "conf/juju.toml", "oldString": "edit", "newString": "trusted"}},
		{"delete_path", map[string]any{"path": "conf/juju.toml"}},
		{"move_path", map[string]any{"path": "conf/juju.toml", "destination": "old.toml"}},
		{"move_path", map[string]any{"path": "a.txt", "destination": "conf/juju.toml", "overwrite": true}},
		{"delete_path", map[string]any{"path": "conf", "recursive": true}},
		{"move_path", map[string]any{"path": "conf", "destination": "conf2"}},
		{"read_file", map[string]any{"path": "conf/juju.toml"}},
		{"read_file", map[string]any{"path": "juju.log"}},
		{"write_file", map[string]any{"path": "juju.log", "content": "forged\n"}},
		{"delete_path", map[string]any{"path": "juju.log"}},
	} {
		s.fail(c.tool, c.args, "SECRET_DENIED")
	}
	if b, _ := os.ReadFile(filepath.Join(root, "conf", "juju.toml")); string(b) != "mode = \"edit\"\n" {
		t.Fatalf("the config file was changed: %q", b)
	}
	if list := s.ok("list_directory", map[string]any{"path": "conf"}); strings.Contains(list, "juju.toml") || !strings.Contains(list, "other.txt") {
		t.Errorf("the listing shows the config file, or not its neighbour: %q", list)
	}
	// The rest of the folder is the model's as before.
	s.ok("write_file", map[string]any{"path": "conf/other.txt", "content": "changed\n"})
}

// A confined command cannot write juju's config file or log file inside
// a root either, nor move their folder away and make another.
func TestSandboxCannotWriteJujusOwnFiles(t *testing.T) {
	needSandbox(t)
	root, args := ownFilesRoot(t)
	s := start(t, root, append(args, "--mode", "trusted", "--sandbox", "require")...)
	got := runIn(t, s, `
echo 'mode = "trusted"' > conf/juju.toml 2>/dev/null && echo wrote || echo refused-write
echo x > conf/new.toml && mv conf/new.toml conf/juju.toml 2>/dev/null && echo renamed || echo refused-rename
rm -f conf/juju.toml 2>/dev/null && echo removed || echo refused-rm
mv conf conf2 2>/dev/null && echo moved || echo refused-move
: > juju.log 2>/dev/null && echo truncated || echo refused-log
echo other > conf/other.txt && echo wrote-other`)
	for _, want := range []string{"refused-write", "refused-rename", "refused-rm", "refused-move", "refused-log", "wrote-other"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in %q", want, got)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "conf", "juju.toml")); string(b) != "mode = \"edit\"\n" {
		t.Fatalf("a confined command changed the config file: %q", b)
	}
}
