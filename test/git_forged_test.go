package test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// A repository's text cannot forge or hide git_log's commits, nor break
// git_status's or git_log's lines: a subject holding git_log's old
// separators (\x1e between commits, \x1f between fields) makes no entry of
// its own and hides none, and a subject, an author, a branch or an
// upstream holding a carriage return, ESC or a bidi override stays on its
// line, escaped.
func TestGitLogAndStatusCannotForgeEntries(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	const forgedHash = "deadbeefdeadbeefdeadbeefdeadbeefdeadbeef"
	git := func(author string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME="+author, "GIT_COMMITTER_NAME=c", "GIT_COMMITTER_EMAIL=c@c")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	git("t", "init", "-q", "-b", "main\u202eniam")
	git("t", "add", "a.txt")
	git("t", "commit", "-q", "-m", "first")
	// Each commit changes a file: git_log lists the commits that touch
	// the root.
	change := func(n string) {
		write(t, root, "a.txt", n+"\n")
		git("t", "add", "a.txt")
	}
	change("2")
	git("t", "commit", "-q", "--cleanup=verbatim", "-m",
		"real\x1e"+forgedHash+"\x1fForger\x1fforger@evil\x1f2001-01-01T00:00:00+00:00\x1fforged entry")
	change("3")
	git("t", "commit", "-q", "--cleanup=verbatim", "-m", "vanishing\x1f\x1f\x1f\x1f")
	change("4")
	git("Ann\r\x1b[2JOwner\u202eX", "commit", "-q", "--cleanup=verbatim", "-m", "fix\x1b[2J\rdone\u202eevil")
	git("t", "branch", "up\u2028stream\u202e")
	git("t", "branch", "--set-upstream-to=up\u2028stream\u202e")

	s := start(t, root, "--mode", "inspect")
	res := s.call("git_log", map[string]any{"limit": 50})
	if res.IsError {
		t.Fatal(text(res))
	}
	commits := structured(t, res)["commits"].([]any)
	hashes := strings.Fields(gitOut(t, root, "log", "--format=%H"))
	if len(commits) != len(hashes) {
		t.Fatalf("git_log lists %d commits, the repository has %d:\n%s", len(commits), len(hashes), text(res))
	}
	for i, c := range commits {
		c := c.(map[string]any)
		if c["hash"] != hashes[i] {
			t.Errorf("commit %d: %v, want %s", i, c, hashes[i])
		}
	}
	if c := commits[0].(map[string]any); c["author"] != "Ann\r\x1b[2JOwner\u202eX" || c["subject"] != "fix\x1b[2J\rdone\u202eevil" {
		t.Errorf("the structured content should carry the text as it is: %v", c)
	}
	txt := text(res)
	if strings.Contains(txt, "\ndeadbeefdead") || strings.Count(txt, "\n") != len(hashes) {
		t.Errorf("git_log's text holds a forged or a missing line:\n%s", txt)
	}
	st := s.call("git_status", map[string]any{})
	for _, out := range []string{txt, text(st)} {
		for _, r := range out {
			if r != '\n' && (unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)) {
				t.Errorf("the text carries %U:\n%q", r, out)
			}
		}
	}
	if m := structured(t, st); m["branch"] != "main\u202eniam" || m["upstream"] != "up\u2028stream\u202e" {
		t.Errorf("status: %v", m)
	}
}

// With JUJU_HOME inside the root, juju's own state (the audit log, the
// journal) is as hidden from git_status and git_diff as from read_file,
// committed or not.
func TestGitToolsHideJujuHomeInsideTheRoot(t *testing.T) {
	root := gitRepo(t)
	home := filepath.Join(root, ".jh")
	os.MkdirAll(home, 0o755)
	s := startHome(t, home, root, "--mode", "trusted", "--sandbox", "off")
	s.ok("read_file", map[string]any{"path": "README.md"}) // the audit log now holds a line
	for _, tool := range []string{"git_status", "git_diff"} {
		if out := text(s.call(tool, map[string]any{})); strings.Contains(out, ".jh") || strings.Contains(out, "audit") {
			t.Errorf("%s shows juju's own state:\n%s", tool, out)
		}
	}
	gitOut(t, root, "-c", "user.name=x", "-c", "user.email=x@x", "add", "-f", ".jh")
	gitOut(t, root, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "--no-verify", "-m", "state")
	s.ok("read_file", map[string]any{"path": "main.go"})
	for _, args := range []map[string]any{{}, {"revision": "HEAD~1"}} {
		if out := text(s.call("git_diff", args)); strings.Contains(out, ".jh") || strings.Contains(out, "audit") || strings.Contains(out, "read_file") {
			t.Errorf("git_diff %v shows juju's own state:\n%s", args, out)
		}
	}
	if out := text(s.call("git_status", map[string]any{})); strings.Contains(out, ".jh") {
		t.Errorf("git_status shows juju's own state:\n%s", out)
	}
}

// A repository's own output settings cannot garble the reads juju parses:
// i18n.logOutputEncoding = UTF-16LE made git_log find no commit (and say
// they touched only withheld paths), and color.diff = always, which
// color.ui does not override, wrapped every line of git_diff in escapes.
func TestGitOutputSettingsOfTheRepositoryAreIgnored(t *testing.T) {
	root := gitRepo(t) // two commits, main.go changed since
	hashes := strings.Fields(gitOut(t, root, "log", "--format=%H"))
	gitOut(t, root, "config", "i18n.logOutputEncoding", "UTF-16LE")
	gitOut(t, root, "config", "color.diff", "always")
	gitOut(t, root, "config", "color.ui", "always")
	gitOut(t, root, "config", "diff.mnemonicPrefix", "true")
	s := start(t, root, "--mode", "inspect")
	res := s.call("git_log", map[string]any{})
	if res.IsError {
		t.Fatal(text(res))
	}
	commits := structured(t, res)["commits"].([]any)
	if len(commits) != len(hashes) || len(commits) == 0 || commits[0].(map[string]any)["hash"] != hashes[0] {
		t.Fatalf("git_log lists %v, want the commits %v:\n%s", commits, hashes, text(res))
	}
	diff := text(s.call("git_diff", map[string]any{}))
	if !strings.Contains(diff, "\n+func main() {}\n") || strings.Contains(diff, `\x1b`) || !strings.Contains(diff, "\n--- a/main.go\n+++ b/main.go\n") {
		t.Errorf("git_diff is not the plain diff:\n%s", diff)
	}
}
