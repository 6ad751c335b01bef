package git

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestRepoDrivers(t *testing.T) {
	root := t.TempDir()
	out := strings.Join([]string{
		"system", "file:/etc/gitconfig", "filter.lfs.clean\ngit-lfs clean -- %f",
		"global", "file:/home/o/.gitconfig", "diff.word.textconv\ndocx2txt",
		"local", "file:.git/config", "filter.X.clean\nsh -c evil",
		"local", "file:.git/config", "filter.x.process\nevil",
		"local", "file:.git/config", "diff.a.b.command\nevil",
		"local", "file:.git/config", "merge.m.driver\nevil",
		"local", "file:.git/config", "core.editor\nvim",
		"worktree", "file:.git/config.worktree", "diff.w.textconv\nevil",
		"command", "command line:", "filter.c.smudge\nevil",
		"local", "file:.git/config", "filter.X.clean\nagain",
		"local", "file:.git/config", "filterx.y.clean\nnot a driver",
		// The owner's scopes, from files inside a root (the home folder
		// served as a root) or not named by an absolute path: not the
		// owner's own.
		"global", "file:" + filepath.Join(root, ".gitconfig"), "filter.g.clean\nsh tools/f.sh",
		"global", "file:" + filepath.Join(root, "inc"), "diff.i.textconv\nsh x",
		"system", "file:relative/inc", "merge.r.driver\nsh y",
	}, "\x00") + "\x00"
	got := repoDrivers([]byte(out), outsideRoots([]string{root}))
	want := []string{"filter.X.clean", "filter.x.process", "diff.a.b.command", "merge.m.driver", "diff.w.textconv", "filter.c.smudge",
		"filter.g.clean", "diff.i.textconv", "merge.r.driver"}
	if !slices.Equal(got, want) {
		t.Errorf("repoDrivers = %q, want %q", got, want)
	}
}

func TestConfigEnv(t *testing.T) {
	env := configEnv(false, []string{"filter.a=b.clean"})
	if !slices.Contains(env, "GIT_CONFIG_VALUE_0=false") && !slices.Contains(env, "GIT_CONFIG_KEY_0=core.fsmonitor") {
		t.Errorf("fsmonitor not first: %q", env[:3])
	}
	last := len(always) + len(readOnly)
	if !slices.Contains(env, "GIT_CONFIG_KEY_"+strconv.Itoa(last)+"=filter.a=b.clean") || !slices.Contains(env, "GIT_CONFIG_VALUE_"+strconv.Itoa(last)+"=") {
		t.Errorf("a driver name with = is not emptied: %q", env)
	}
	if env[0] != "GIT_CONFIG_COUNT="+strconv.Itoa(last+1) {
		t.Errorf("count %q", env[0])
	}
	if w := configEnv(true, []string{"filter.a.clean"}); slices.ContainsFunc(w, func(s string) bool { return strings.Contains(s, "hooksPath") || strings.Contains(s, "filter.a") }) {
		t.Errorf("commit keeps the root's hooks and filters: %q", w)
	}
}

func TestPinRepo(t *testing.T) {
	top := t.TempDir()
	mk := func(p, content string) {
		os.MkdirAll(filepath.Dir(filepath.Join(top, p)), 0o755)
		os.WriteFile(filepath.Join(top, p), []byte(content), 0o644)
	}
	// A repository folder with a planted commondir: not honoured.
	mk("a/.git/HEAD", "ref: refs/heads/main\n")
	mk("a/.git/commondir", "../../evil\n")
	mk("a/sub/x", "")
	// A linked worktree's .git file, with its commondir.
	mk("main/.git/HEAD", "ref: refs/heads/main\n")
	mk("main/.git/worktrees/w/HEAD", "ref: refs/heads/w\n")
	mk("main/.git/worktrees/w/commondir", "../..\n")
	mk("w/.git", "gitdir: ../main/.git/worktrees/w\n")
	mk("main/.git/worktrees/w/gitdir", filepath.Join(top, "w", ".git")+"\n")
	// A submodule's .git file: its folder's core.worktree names it back.
	mk("super/.git/modules/s/HEAD", "ref: refs/heads/main\n")
	mk("super/.git/modules/s/config", "[core]\n\tbare = false\n\tworktree = ../../../s\n")
	mk("super/s/.git", "gitdir: ../.git/modules/s\n")
	// A .git file naming a repository that does not name it back.
	mk("other/.git/HEAD", "ref: refs/heads/main\n")
	mk("planted/.git", "gitdir: "+filepath.Join(top, "other", ".git")+"\n")
	mk("main/.git/worktrees/v/HEAD", "ref: refs/heads/v\n")
	mk("main/.git/worktrees/v/gitdir", filepath.Join(top, "elsewhere", ".git")+"\n")
	mk("v/.git", "gitdir: ../main/.git/worktrees/v\n")
	// A .git link: not used.
	mk("real/.git/HEAD", "ref: refs/heads/main\n")
	os.MkdirAll(filepath.Join(top, "l"), 0o755)
	os.Symlink(filepath.Join(top, "real", ".git"), filepath.Join(top, "l", ".git"))

	roots := []string{filepath.Join(top, "a"), filepath.Join(top, "w"), filepath.Join(top, "super", "s"),
		filepath.Join(top, "planted"), filepath.Join(top, "v"), filepath.Join(top, "l")}
	pin := func(root string) (*repo, error) { return pinRepo(root, roots) }
	r, err := pin(filepath.Join(top, "a", "sub"))
	if err != nil || r.top != filepath.Join(top, "a") || r.gitDir != filepath.Join(top, "a", ".git") || r.common != r.gitDir {
		t.Errorf("a/sub: %+v %v", r, err)
	}
	r, err = pin(filepath.Join(top, "w"))
	if err != nil || r.gitDir != filepath.Join(top, "main", ".git", "worktrees", "w") || r.common != filepath.Join(top, "main", ".git") {
		t.Errorf("worktree: %+v %v", r, err)
	}
	if r, err := pin(filepath.Join(top, "l")); err == nil && r.top == filepath.Join(top, "l") {
		t.Errorf("a .git link was used: %+v", r)
	}
	if r, err := pin(filepath.Join(top, "super", "s")); err != nil || r.gitDir != filepath.Join(top, "super", ".git", "modules", "s") {
		t.Errorf("submodule: %+v %v", r, err)
	}
	for _, planted := range []string{"planted", "v"} {
		if r, err := pin(filepath.Join(top, planted)); err == nil || !errors.Is(err, errForeign) {
			t.Errorf("%s: a .git file naming a repository outside the roots that does not name it back was used: %+v %v", planted, r, err)
		}
	}
	// Inside a root, the repository is workspace content anyway.
	if r, err := pinRepo(filepath.Join(top, "planted"), append(roots, filepath.Join(top, "other"))); err != nil || r.gitDir != filepath.Join(top, "other", ".git") {
		t.Errorf("a repository inside the roots: %+v %v", r, err)
	}
}
