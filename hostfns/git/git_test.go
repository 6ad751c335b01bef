package git

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/testfs"
	"github.com/jujutools/juju/sdk/abi"
)

func fixture(t *testing.T) (func(tier string, args ...string) (*abi.GitResult, string, *abi.Error), string) {
	t.Helper()
	root := testfs.Workspace(t, map[string]string{"a.txt": "a\n", ".env": "S=1\n", "sub/b.txt": "b\n", "denied/x": "x", "link": "->/etc/passwd"})
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "a.txt", "sub"}, {"-c", "user.name=T", "-c", "user.email=t@t", "commit", "-qm", "one"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	p, err := policy.New(policy.Config{Roots: []string{root}, Deny: []string{"denied"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	h := New(p, Options{})[0].Handle
	return func(tier string, args ...string) (*abi.GitResult, string, *abi.Error) {
		ctx := hostfns.WithCaller(context.Background(), hostfns.Caller{Tier: tier})
		b, _ := json.Marshal(abi.GitRequest{Args: args})
		rh, body := h(ctx, b, nil)
		var r abi.GitResult
		json.Unmarshal(rh, &r)
		if r.Error != nil {
			return nil, "", r.Error
		}
		return &r, string(body), nil
	}, root
}

func TestRefusedArguments(t *testing.T) {
	git, _ := fixture(t)
	for _, args := range [][]string{
		{},
		{"-c", "core.pager=sh", "status"},
		{"--git-dir=/tmp", "status"},
		{"push"}, {"fetch"}, {"clone", "ext::sh -c touch% /tmp/x"}, {"config", "core.hooksPath", "/tmp"}, {"rebase", "--exec", "sh"},
		{"log", "--output=/tmp/x"},
		{"diff", "--ext-diff"},
		{"diff", "--no-index", "/etc/passwd", "a.txt"},
		{"show", "HEAD:.env"},
		{"diff", "HEAD", ":.env"},
		{"log", "--exec-path=/tmp"},
		{"log", "ext::foo"},
		{"commit", "-F", "/etc/passwd"},
		{"commit", "--file=/etc/passwd"},
		{"commit", "-am", "x"},
		{"commit", "--all", "--message=x"},
		{"commit", "--amend", "--message=x"},
		{"commit", "--no-verify", "--message=x"},
		{"commit", "--template=/etc/passwd"},
		{"add", "-A"}, {"add", "."}, {"add", "--", "sub"}, {"add", "-u"}, {"add", "-f", "--", ".env"}, {"add", "--pathspec-from-file=/etc/x"},
		{"add"},
		{"branch", "evil"}, {"branch", "-D", "main"},
		// git takes an unambiguous start of a long option for the option.
		{"commit", "--fil=.env", "--", "a.txt"}, {"commit", "--fi=/etc/passwd"}, {"commit", "--amen", "--message=x"},
		{"commit", "--no-verif", "--message=x"}, {"commit", "--al", "--message=x"}, {"commit", "--allow-emp", "--message=x"},
		{"commit", "--templ=/etc/passwd"}, {"commit", "--reuse=HEAD"}, {"commit", "--fix=HEAD"}, {"commit", "--squ=HEAD"},
		{"status", "--ignore-submo=none"}, {"status", "--ignore-s=none"}, {"status", "--recurse"},
		{"add", "--pathspec-from-fil=/etc/x"}, {"add", "--pathspec-f=/etc/x"}, {"add", "--forc", "--", ".env"}, {"add", "--upd"},
		{"add", "--interact"}, {"add", "--chm=+x", "--", "a.txt"}, {"add", "--spar", "--", "a.txt"},
		{"diff", "--ext-d"}, {"diff", "--no-ind", "/etc/passwd", "a.txt"}, {"diff", "--textc"}, {"diff", "--outp=/tmp/x"},
		{"log", "--output-dir=/tmp/x"}, {"log", "--exec-p=/tmp"}, {"show", "--submod=log"}, {"show", "--open-files"},
	} {
		if _, _, err := git(abi.TierExec, args...); err == nil {
			t.Errorf("git %q accepted", args)
		}
	}
}

// TestReadsRefuseAbbreviations checks the second guard behind
// checkOption: a reading git refuses an abbreviated long option (here one
// of no forbidden name) instead of taking it for the whole one.
func TestReadsRefuseAbbreviations(t *testing.T) {
	git, _ := fixture(t)
	r, _, err := git(abi.TierRead, "status", "--porcel")
	if err != nil || r.ExitCode == 0 || !strings.Contains(r.Stderr, "abbreviated") {
		t.Fatalf("status --porcel: %+v %v, want git's refusal of an abbreviation", r, err)
	}
	if r, _, err := git(abi.TierRead, "status", "--porcelain"); err != nil || r.ExitCode != 0 {
		t.Fatalf("status --porcelain: %+v %v", r, err)
	}
}

func TestPathsAndSecrets(t *testing.T) {
	git, root := fixture(t)
	for args, code := range map[string]abi.Code{
		"diff -- .env":               abi.SecretDenied,
		"diff -- ../x":               abi.PathDenied,
		"diff -- /etc/passwd":        abi.PathDenied,
		"diff -- denied/x":           abi.PathDenied,
		"log -- link":                abi.PathDenied,
		"status -- sub/../../etc":    abi.PathDenied,
		"commit --message=x -- .env": abi.SecretDenied,
	} {
		if _, _, err := git(abi.TierExec, strings.Fields(args)...); err == nil || err.Code != code {
			t.Errorf("git %s: %v, want %s", args, err, code)
		}
	}
	// Status never names a secret or a denied path; git itself does.
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("changed\n"), 0o644)
	r, out, err := git(abi.TierRead, "status", "--porcelain")
	if err != nil || r.ExitCode != 0 {
		t.Fatal(err, r)
	}
	if strings.Contains(out, ".env") || strings.Contains(out, "denied") || !strings.Contains(out, " M a.txt") {
		t.Errorf("status: %q", out)
	}
	// add leaves withheld paths out and says so.
	r, _, err = git(abi.TierExec, "add", "--", "a.txt", ".env", "denied/x")
	if err != nil || strings.Join(r.Skipped, ",") != ".env,denied/x" {
		t.Fatalf("add: %+v %v", r, err)
	}
	cmd := exec.Command("git", "diff", "--cached", "--name-only")
	cmd.Dir = root
	if staged, _ := cmd.Output(); string(staged) != "a.txt\n" {
		t.Errorf("staged: %q", staged)
	}
}

func TestMutatingNeedsExecTier(t *testing.T) {
	git, _ := fixture(t)
	for _, tier := range []string{abi.TierRead, abi.TierEdit, ""} {
		if _, _, err := git(tier, "add", "--", "a.txt"); err == nil || err.Code != abi.CapabilityDenied {
			t.Errorf("add at tier %q: %v", tier, err)
		}
		if _, _, err := git(tier, "commit", "--message=x"); err == nil || err.Code != abi.CapabilityDenied {
			t.Errorf("commit at tier %q: %v", tier, err)
		}
	}
	if r, out, err := git(abi.TierRead, "log", "-n", "1", "--format=%s"); err != nil || out != "one\n" || r.ExitCode != 0 {
		t.Errorf("log: %q %v", out, err)
	}
	if _, out, err := git(abi.TierRead, "branch", "--show-current"); err != nil || out != "main\n" {
		t.Errorf("branch: %q %v", out, err)
	}
}

func TestExcludes(t *testing.T) {
	got := strings.Join(Excludes([]string{".env", "**/.aws/credentials", "/top/"}, nil), " ")
	want := ":(top,exclude,glob,icase)**/.env :(top,exclude,glob,icase)**/.env/** " +
		":(top,exclude,glob,icase)**/.aws/credentials :(top,exclude,glob,icase)**/.aws/credentials/** " +
		":(top,exclude,glob,icase)**/top :(top,exclude,glob,icase)**/top/**"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// Globs with a slash are paths from each root, and a root may lie below
// the repository's top; braces, which git does not expand, are expanded.
func TestExcludesFromRootsAndBraces(t *testing.T) {
	got := strings.Join(Excludes([]string{"config/prod.yaml", "*.{vault,sealed}", "keys/{a,b/{c,d}}.txt"}, []string{"app", "."}), " ")
	var want []string
	for _, g := range []string{"app/config/prod.yaml", "config/prod.yaml", "**/*.vault", "**/*.sealed",
		"app/keys/a.txt", "keys/a.txt", "app/keys/b/c.txt", "keys/b/c.txt", "app/keys/b/d.txt", "keys/b/d.txt"} {
		want = append(want, ":(top,exclude,glob,icase)"+g, ":(top,exclude,glob,icase)"+g+"/**")
	}
	if got != strings.Join(want, " ") {
		t.Errorf("got  %s\nwant %s", got, strings.Join(want, " "))
	}
	for in, out := range map[string][]string{
		"a":           {"a"},
		"{a,b}":       {"a", "b"},
		"x{a,{b,c}}y": {"xay", "xby", "xcy"},
		"{a,b}{1,2}":  {"a1", "a2", "b1", "b2"},
		`\{a,b\}`:     {`\{a,b\}`},
		"{a":          {"{a"},
		"a}":          {"a}"},
		"{}":          {""},
		"{solo}":      {"solo"},
	} {
		if got := expandBraces(in); strings.Join(got, "|") != strings.Join(out, "|") {
			t.Errorf("expandBraces(%q) = %q, want %q", in, got, out)
		}
	}
	// Too many: each group a wildcard, which excludes more, never less.
	many := strings.Repeat("{a,b,c}", 6)
	if got := expandBraces(many); len(got) != 1 || got[0] != "******" {
		t.Errorf("expandBraces(%q) = %q", many, got)
	}
	if got := expandBraces(strings.Repeat("{a,b/c}", 9)); len(got) != 1 || got[0] != strings.Repeat("**", 9) {
		t.Errorf("with slashes: %q", got)
	}
}

// No argument of status, diff, log or show shows a secret's name or
// content: not the options that show what the exclusion pathspecs leave
// out (--full-diff, --pickaxe-all), not a blob, a tree or a tag of
// one given as a revision or reached through the refs, not a path before
// "--". What is left serves.
func TestReadsNeverShowWithheldFiles(t *testing.T) {
	root := newRepo(t, "a.txt", "a\n")
	os.MkdirAll(filepath.Join(root, "sub"), 0o755)
	os.WriteFile(filepath.Join(root, "sub", "s.txt"), []byte("s\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".env"), []byte("SECRET-ONE\n"), 0o644)
	gitIn(t, root, "add", "-f", ".env", "sub")
	gitIn(t, root, "commit", "-q", "-m", "two")
	os.WriteFile(filepath.Join(root, ".env"), []byte("SECRET-TWO\n"), 0o644)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("a2\n"), 0o644)
	gitIn(t, root, "commit", "-q", "-a", "-m", "three")
	blob1 := strings.TrimSpace(gitIn(t, root, "rev-parse", "HEAD~1:.env"))
	blob2 := strings.TrimSpace(gitIn(t, root, "rev-parse", "HEAD:.env"))
	tree := strings.TrimSpace(gitIn(t, root, "rev-parse", "HEAD^{tree}"))
	gitIn(t, root, "tag", "blobtag", blob2)
	gitIn(t, root, "tag", "-a", "-m", "x", "annblob", blob2)
	gitIn(t, root, "tag", "-a", "-m", "release", "v1", "HEAD")
	os.WriteFile(filepath.Join(root, ".env"), []byte("SECRET-THREE\n"), 0o644)
	gitIn(t, root, "add", "-f", ".env")

	git := hostGit(t, Options{}, root)
	leaks := func(out string) bool {
		return strings.Contains(out, "SECRET") || strings.Contains(out, ".env") || strings.Contains(out, blob1[:7]) || strings.Contains(out, blob2[:7])
	}
	for _, args := range [][]string{
		{"log", "-p", "--full-diff"}, {"log", "--raw", "--full-diff"}, {"log", "--full-d", "-p"}, {"show", "--full-diff", "HEAD~1"},
		{"log", "-p", "-Sa2", "--pickaxe-all"}, {"log", "-p", "-Sa2", "--pickaxe-a"},
		{"show", blob2}, {"show", blob1[:12]}, {"show", "HEAD~1^{tree}"}, {"show", tree}, {"show", "blobtag"}, {"show", "annblob"},
		{"show", "--tags"}, {"show", "--all"}, {"show", "--glob=refs/tags/*"}, {"show", "--indexed-objects"}, {"show", "--branches"},
		{"diff", blob1, blob2}, {"diff", "blobtag", "HEAD"}, {"diff", "--cached", tree},
		{"show", "HEAD"}, {"log", "-p"}, {"log", "-p", "--all"}, {"log", "--tags", "-p"}, {"log", blob2}, {"log", "HEAD~1^{tree}..HEAD"},
		{"status", "--porcelain"}, {"diff", "--cached"}, {"diff", "--cached", "--stat"}, {"ls-files", "--stage"},
		{"ls-files", "-X", ".env", "-i", "-c"}, {"diff", "--orderfile=.env", "HEAD~2"},
	} {
		r, out, err := git(args...)
		if leaks(out) || r != nil && leaks(r.Stderr) || err != nil && strings.Contains(err.Message, "SECRET") {
			t.Errorf("git %q showed a withheld file: %+v %v\n%s", args, r, err, out)
		}
	}
	// What stays served: commits, ranges, tags of commits, option values.
	for args, want := range map[string]string{
		"show --format=%s --no-patch v1":         "tag v1\nTagger: a <a@a>\n\nrelease\nthree\n",
		"log --format=%s HEAD~2..HEAD":           "three\ntwo\n",
		"log --format=%s HEAD~1...HEAD~2":        "two\n",
		"log --format=%s -n 1":                   "three\n",
		"log --format=%s --no-walk HEAD^@":       "two\n",
		"diff --stat HEAD~1 HEAD":                " a.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n",
		"show --format=%s --stat HEAD~1":         "two\n\n sub/s.txt | 1 +\n 1 file changed, 1 insertion(+)\n",
		"log --format=%s --all --no-walk=sorted": "three\n",
	} {
		r, out, err := git(strings.Fields(args)...)
		if err != nil || r.ExitCode != 0 || out != want {
			t.Errorf("git %s: %+v %v\n%q, want %q", args, r, err, out, want)
		}
	}
	// A path before "--" would skip the path policy: status and ls-files
	// take none there.
	sub := hostGit(t, Options{}, filepath.Join(root, "sub"))
	for _, args := range [][]string{{"ls-files", ".."}, {"status", "--porcelain", ".."}} {
		if r, out, err := sub(args...); err == nil || err.Code != abi.InvalidArgument || strings.Contains(out, "a.txt") {
			t.Errorf("git %q in a subfolder root: %+v %v %q", args, r, err, out)
		}
	}
}

// juju's own folders inside a root (JUJU_HOME there, or --root ~) are
// hidden from git's reads as from read_file: status, diff, log and
// ls-files never name or show them, committed or not, and add leaves them
// out.
func TestGitReadsHideJujusOwnFolders(t *testing.T) {
	root := newRepo(t, "a.txt", "a\n")
	state := filepath.Join(root, ".jh", "state", "audit")
	os.MkdirAll(state, 0o755)
	os.WriteFile(filepath.Join(state, "audit.jsonl"), []byte("AUDIT-LINE-1\n"), 0o644)
	gitIn(t, root, "add", ".jh")
	gitIn(t, root, "commit", "-q", "-m", "state")
	os.WriteFile(filepath.Join(state, "audit.jsonl"), []byte("AUDIT-LINE-2\n"), 0o644)
	os.WriteFile(filepath.Join(state, "journal.db"), []byte("JOURNAL\n"), 0o644)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("a2\n"), 0o644)
	p, err := policy.New(policy.Config{Roots: []string{root}, Private: []string{filepath.Join(root, ".jh")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	h := New(p, Options{})[0].Handle
	call := func(tier string, args ...string) (*abi.GitResult, string) {
		ctx := hostfns.WithCaller(context.Background(), hostfns.Caller{Tier: tier})
		b, _ := json.Marshal(abi.GitRequest{Args: args})
		rh, body := h(ctx, b, nil)
		var r abi.GitResult
		json.Unmarshal(rh, &r)
		if r.Error != nil || r.ExitCode != 0 {
			t.Fatalf("git %q: %+v %v", args, r, r.Error)
		}
		return &r, string(body)
	}
	for _, args := range [][]string{{"status", "--porcelain", "--untracked-files=all"}, {"diff"}, {"diff", "HEAD~1"}, {"log", "-p", "--stat"}, {"ls-files"}, {"show", "HEAD"}} {
		_, out := call(abi.TierRead, args...)
		if strings.Contains(out, ".jh") || strings.Contains(out, "AUDIT") || strings.Contains(out, "JOURNAL") {
			t.Errorf("git %q shows juju's own state:\n%s", args, out)
		}
		if args[0] != "ls-files" && args[0] != "show" && !strings.Contains(out, "a") {
			t.Errorf("git %q: %q, want the visible change", args, out)
		}
	}
	if r, _ := call(abi.TierExec, "add", "--", "a.txt", ".jh/state/audit/journal.db"); strings.Join(r.Skipped, ",") != ".jh/state/audit/journal.db" {
		t.Errorf("add: %+v", r)
	}
}

// A commit without paths commits the whole index: while it holds a change
// to a path the policy withholds (staged by a command with git add -f),
// the commit is refused without naming it, and nothing is committed.
// Named paths still commit; so does the index once it is unstaged.
func TestCommitRefusesAStagedWithheldPath(t *testing.T) {
	root := newRepo(t, "a.txt", "a\n")
	p, err := policy.New(policy.Config{Roots: []string{root}, Deny: []string{"denied"}, Private: []string{filepath.Join(root, ".jh")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	h := New(p, Options{Env: append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@a", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@a")})[0].Handle
	commit := func(args ...string) (*abi.GitResult, *abi.Error) {
		ctx := hostfns.WithCaller(context.Background(), hostfns.Caller{Tier: abi.TierExec})
		b, _ := json.Marshal(abi.GitRequest{Args: append([]string{"commit", "--message=m"}, args...)})
		rh, _ := h(ctx, b, nil)
		var r abi.GitResult
		json.Unmarshal(rh, &r)
		return &r, r.Error
	}
	for file, code := range map[string]abi.Code{".env": abi.SecretDenied, "denied/x": abi.PathDenied, ".jh/state/j.db": abi.SecretDenied, "sub/id_rsa": abi.SecretDenied} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, file)), 0o755)
		os.WriteFile(filepath.Join(root, file), []byte("WITHHELD\n"), 0o644)
		gitIn(t, root, "add", "-f", file)
		os.WriteFile(filepath.Join(root, "a.txt"), []byte(file+"\n"), 0o644)
		gitIn(t, root, "add", "a.txt")
		head := gitIn(t, root, "rev-parse", "HEAD")
		for _, args := range [][]string{nil, {"--"}} {
			r, err := commit(args...)
			if err == nil || err.Code != code || strings.Contains(err.Message, filepath.Base(file)) || !strings.Contains(err.Message, "unstage") {
				t.Errorf("commit %q with %s staged: %+v %v, want %s without its name", args, file, r, err, code)
			}
		}
		if gitIn(t, root, "rev-parse", "HEAD") != head {
			t.Fatalf("a commit was made with %s staged", file)
		}
		// Named paths commit only those.
		if r, err := commit("--", "a.txt"); err != nil || r.ExitCode != 0 {
			t.Fatalf("commit -- a.txt: %+v %v", r, err)
		}
		if files := gitIn(t, root, "show", "--name-only", "--format=", "HEAD"); files != "a.txt\n" {
			t.Errorf("commit -- a.txt committed %q", files)
		}
		gitIn(t, root, "rm", "-q", "--cached", file)
	}
	// --include would add the index to named paths.
	if _, err := commit("--include", "--", "a.txt"); err == nil || err.Code != abi.InvalidArgument {
		t.Errorf("commit --include: %v", err)
	}
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("last\n"), 0o644)
	gitIn(t, root, "add", "a.txt")
	if r, err := commit(); err != nil || r.ExitCode != 0 {
		t.Fatalf("commit of a clean index: %+v %v", r, err)
	}
}

// A path starting with ':' is the file of that name, never pathspec magic:
// it reaches git as a literal pathspec, so ":(top)" or ":!a.txt" matches
// only a file so named, and a file so named is staged and committed like
// any other. Where git would not get it literally (rev-parse), it is
// refused. A commit message may mention ext:: like any text.
func TestPathsWithAColonAreFiles(t *testing.T) {
	for _, kv := range []string{"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@a", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@a"} {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	git, root := fixture(t)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("changed\n"), 0o644)
	for _, p := range []string{":(top)", ":!a.txt", ":(exclude)a.txt"} {
		if r, out, err := git(abi.TierRead, "status", "--porcelain", "--", p); err != nil || r.ExitCode != 0 || out != "" {
			t.Errorf("status -- %s: %+v %v %q, want nothing (no file is so named)", p, r, err, out)
		}
	}
	if _, _, err := git(abi.TierRead, "rev-parse", "--", ":(top)"); err == nil || err.Code != abi.InvalidArgument {
		t.Errorf("rev-parse -- :(top): %v", err)
	}
	os.WriteFile(filepath.Join(root, ":(glob)x"), []byte("x\n"), 0o644)
	if r, _, err := git(abi.TierExec, "add", "--", ":(glob)x"); err != nil || r.ExitCode != 0 || len(r.Skipped) != 0 {
		t.Fatalf("add -- :(glob)x: %+v %v", r, err)
	}
	if r, out, err := git(abi.TierExec, "commit", "--message=uses the ext:: transport note", "--", ":(glob)x"); err != nil || r.ExitCode != 0 {
		t.Fatalf("commit: %+v %v %s", r, err, out)
	}
	cmd := exec.Command("git", "show", "--name-only", "--format=%s", "HEAD")
	cmd.Dir = root
	if out, _ := cmd.Output(); string(out) != "uses the ext:: transport note\n\n:(glob)x\n" {
		t.Errorf("committed: %q", out)
	}
	for _, args := range [][]string{{"commit", "--message=x", "--", "ext::sh"}, {"commit", "--message=x", "ext::sh"}, {"log", "--grep=ext::x"}, {"log", "--grep=EXT::x"}} {
		if _, _, err := git(abi.TierExec, args...); err == nil || !strings.Contains(err.Message, "ext::") {
			t.Errorf("git %q: %v, want the ext:: refusal", args, err)
		}
	}
}

// TestCommitRefusesChangesStagedOutsideTheRoots: with a root below the
// repository's top the index holds the whole repository's staged changes,
// which the reads never show; a commit without paths, as git_commit with
// all makes, committed a .env staged beside the root, unseen. It is
// refused now, and named paths still commit.
func TestCommitRefusesChangesStagedOutsideTheRoots(t *testing.T) {
	top := newRepo(t, "top.txt", "t\n")
	os.MkdirAll(filepath.Join(top, "app"), 0o755)
	os.MkdirAll(filepath.Join(top, "other"), 0o755)
	os.WriteFile(filepath.Join(top, "app", "a.txt"), []byte("a\n"), 0o644)
	gitIn(t, top, "add", "app/a.txt")
	gitIn(t, top, "commit", "-q", "-m", "app")
	os.WriteFile(filepath.Join(top, "other", ".env"), []byte("PASSWORD=hunter2\n"), 0o644)
	os.WriteFile(filepath.Join(top, "other", "o.txt"), []byte("o\n"), 0o644)
	for _, staged := range []string{"other/.env", "other/o.txt"} {
		gitIn(t, top, "add", "-f", staged)
		git := hostGit(t, Options{Env: append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@a", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@a")}, filepath.Join(top, "app"))
		os.WriteFile(filepath.Join(top, "app", "a.txt"), []byte(staged+"\n"), 0o644)
		head := gitIn(t, top, "rev-parse", "HEAD")
		if _, _, err := git("add", "--", "a.txt"); err != nil {
			t.Fatal(err)
		}
		if r, _, err := git("commit", "--message=m"); err == nil || err.Code != abi.PathDenied || strings.Contains(err.Message, "other") {
			t.Errorf("commit with %s staged outside the root: %+v %v, want PATH_DENIED without its name", staged, r, err)
		}
		if gitIn(t, top, "rev-parse", "HEAD") != head {
			t.Fatalf("a commit was made with %s staged outside the root", staged)
		}
		if r, _, err := git("commit", "--message=m", "--", "a.txt"); err != nil || r.ExitCode != 0 {
			t.Fatalf("commit -- a.txt: %+v %v", r, err)
		}
		if files := gitIn(t, top, "show", "--name-only", "--format=", "HEAD"); files != "app/a.txt\n" {
			t.Errorf("commit -- a.txt committed %q", files)
		}
		gitIn(t, top, "rm", "-q", "--cached", staged)
	}
}
