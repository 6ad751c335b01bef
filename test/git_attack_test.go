package test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The git settings and files a repository's content can use to make git
// run a program, each planted where an attacker can put it: an embedded
// repository committed as plain files, a .git/commondir written by a
// confined command, a workspace file the owner's configuration includes, a
// repository made by `git init` in a subfolder, a submodule, a linked
// worktree. After git_status, git_diff, git_log, project_overview and
// git_commit, no marker program may have run (SECURITY.md, "git").

// marker is a shell command that records name in ran and, as a filter
// must, passes its input through (no ";": it starts a comment in a git
// configuration value).
func marker(ran, name string) string {
	return fmt.Sprintf(`sh -c 'echo %s >> %s && cat' --`, name, ran)
}

// evilConfig is a git configuration naming a marker for every setting that
// runs a program; inc and incIf are included files, hooks a hooks folder.
func evilConfig(ran, hooks, inc, incIf string) string {
	m := func(name string) string { return marker(ran, name) }
	return fmt.Sprintf(`[core]
	fsmonitor = %s
	pager = %s
	editor = %s
	sshCommand = %s
	askPass = %s
	hooksPath = %s
	alternateRefsCommand = %s
[diff]
	external = %s
[diff "x"]
	textconv = %s
	command = %s
[filter "x"]
	clean = %s
	smudge = %s
[filter "p"]
	process = %s
[merge "x"]
	driver = %s
[pager]
	log = %s
	status = %s
	diff = %s
[credential]
	helper = %s
[gpg]
	program = %s
[log]
	showSignature = true
[sequence]
	editor = %s
[include]
	path = %s
[includeIf "gitdir:/"]
	path = %s
`, m("fsmonitor"), m("core.pager"), m("core.editor"), m("sshCommand"), m("askPass"), hooks, m("alternateRefsCommand"),
		m("diff.external"), m("textconv"), m("diff.command"), m("filter.clean"), m("filter.smudge"), m("filter.process"),
		m("merge.driver"), m("pager.log"), m("pager.status"), m("pager.diff"), m("credential.helper"), m("gpg.program"),
		m("sequence.editor"), inc, incIf)
}

// evilAttributes route every file through the marker drivers.
const evilAttributes = "* filter=x diff=x merge=x\n*.txt filter=p\n*.md filter=i\n*.go filter=j\n"

// plantEvil writes the included files and the hooks folder into dir and
// returns the configuration naming them.
func plantEvil(t *testing.T, dir, ran string) string {
	t.Helper()
	hooks := filepath.Join(dir, "evilhooks")
	os.MkdirAll(hooks, 0o755)
	for _, h := range []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-index-change", "pre-auto-gc", "reference-transaction", "post-checkout", "fsmonitor-watchman"} {
		os.WriteFile(filepath.Join(hooks, h), []byte("#!/bin/sh\necho hook-"+h+" >> "+ran+"\n"), 0o755)
	}
	inc := filepath.Join(dir, "evil-include.cfg")
	os.WriteFile(inc, []byte("[filter \"i\"]\n\tclean = "+marker(ran, "include.filter")+"\n"), 0o644)
	incIf := filepath.Join(dir, "evil-includeif.cfg")
	os.WriteFile(incIf, []byte("[filter \"j\"]\n\tclean = "+marker(ran, "includeIf.filter")+"\n"), 0o644)
	return evilConfig(ran, hooks, inc, incIf)
}

func rawGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@a", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@a")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return string(out)
}

// attack is one place a repository's content can name programs from.
type attack struct {
	name string
	// plant sets the trap in the repository root and returns the cwd the
	// calls use (relative to root).
	plant func(t *testing.T, root, ran string) string
}

var gitAttacks = []attack{
	{"embedded bare repository", func(t *testing.T, root, ran string) string {
		evil := filepath.Join(root, "vendor", "evil")
		for _, d := range []string{"objects/info", "objects/pack", "refs/heads", "refs/tags", "info"} {
			os.MkdirAll(filepath.Join(evil, d), 0o755)
		}
		os.WriteFile(filepath.Join(evil, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
		cfg := "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ../..\n" + plantEvil(t, evil, ran)
		os.WriteFile(filepath.Join(evil, "config"), []byte(cfg), 0o644)
		os.WriteFile(filepath.Join(evil, "info", "attributes"), []byte(evilAttributes), 0o644)
		os.WriteFile(filepath.Join(evil, "notes.txt"), []byte("n\n"), 0o644)
		rawGit(t, root, "add", "-f", "vendor")
		rawGit(t, root, "commit", "-q", "--no-verify", "-m", "vendor")
		return "vendor/evil"
	}},
	{"commondir written into .git", func(t *testing.T, root, ran string) string {
		common := filepath.Join(root, "evilcommon")
		if out, err := exec.Command("cp", "-a", filepath.Join(root, ".git"), common).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v %s", err, out)
		}
		f, _ := os.OpenFile(filepath.Join(common, "config"), os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(plantEvil(t, common, ran))
		f.Close()
		os.MkdirAll(filepath.Join(common, "info"), 0o755)
		os.WriteFile(filepath.Join(common, "info", "attributes"), []byte(evilAttributes), 0o644)
		os.WriteFile(filepath.Join(root, ".git", "commondir"), []byte("../evilcommon\n"), 0o644)
		return "."
	}},
	{"workspace file the owner's config includes", func(t *testing.T, root, ran string) string {
		rawGit(t, root, "config", "include.path", "../.gitlocal")
		os.WriteFile(filepath.Join(root, ".gitlocal"), []byte(plantEvil(t, root, ran)), 0o644)
		os.WriteFile(filepath.Join(root, ".gitattributes"), []byte(evilAttributes), 0o644)
		return "."
	}},
	{"git init in a subfolder", func(t *testing.T, root, ran string) string {
		sub := filepath.Join(root, "sub")
		os.MkdirAll(sub, 0o755)
		rawGit(t, sub, "init", "-q", "-b", "main")
		f, _ := os.OpenFile(filepath.Join(sub, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(plantEvil(t, filepath.Join(sub, ".git"), ran))
		f.Close()
		os.MkdirAll(filepath.Join(sub, ".git", "info"), 0o755)
		os.WriteFile(filepath.Join(sub, ".git", "info", "attributes"), []byte(evilAttributes), 0o644)
		os.WriteFile(filepath.Join(sub, "a.txt"), []byte("a\n"), 0o644)
		for _, h := range []string{"pre-commit", "post-commit", "commit-msg"} {
			os.WriteFile(filepath.Join(sub, ".git", "hooks", h), []byte("#!/bin/sh\necho subhook-"+h+" >> "+ran+"\n"), 0o755)
		}
		return "sub"
	}},
	{"submodule", func(t *testing.T, root, ran string) string {
		src := t.TempDir()
		rawGit(t, src, "init", "-q", "-b", "main")
		os.WriteFile(filepath.Join(src, "a.txt"), []byte("a\n"), 0o644)
		rawGit(t, src, "add", ".")
		rawGit(t, src, "commit", "-q", "-m", "sub")
		rawGit(t, root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, "mod")
		rawGit(t, root, "commit", "-q", "--no-verify", "-m", "submodule")
		modGit := filepath.Join(root, ".git", "modules", "mod")
		f, _ := os.OpenFile(filepath.Join(modGit, "config"), os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(plantEvil(t, modGit, ran))
		f.Close()
		os.MkdirAll(filepath.Join(modGit, "info"), 0o755)
		os.WriteFile(filepath.Join(modGit, "info", "attributes"), []byte(evilAttributes), 0o644)
		os.WriteFile(filepath.Join(root, "mod", "a.txt"), []byte("changed\n"), 0o644)
		return "."
	}},
	{"linked worktree", func(t *testing.T, root, ran string) string {
		rawGit(t, root, "worktree", "add", "-q", "wt")
		wtGit := filepath.Join(root, ".git", "worktrees", "wt")
		os.WriteFile(filepath.Join(wtGit, "config.worktree"), []byte(plantEvil(t, wtGit, ran)), 0o644)
		rawGit(t, root, "config", "extensions.worktreeConfig", "true")
		// Undo what that does to the main work tree's own configuration:
		// the trap is the linked worktree's file only.
		os.WriteFile(filepath.Join(root, "wt", "x.txt"), []byte("x\n"), 0o644)
		return "wt"
	}},
}

// ranMarkers returns what the markers recorded.
func ranMarkers(ran string) []string {
	b, _ := os.ReadFile(ran)
	f := strings.Fields(string(b))
	sort.Strings(f)
	return f
}

func TestGitNeverRunsRepositoryPrograms(t *testing.T) {
	for _, a := range gitAttacks {
		t.Run(a.name, func(t *testing.T) {
			for _, sandbox := range []string{"off", "require"} {
				t.Run("sandbox="+sandbox, func(t *testing.T) {
					if sandbox == "require" {
						needSandbox(t)
					}
					root := gitRepo(t)
					ran := filepath.Join(outside(t), "ran")
					cwd := a.plant(t, root, ran)
					s := start(t, root, "--mode", "trusted", "--sandbox", sandbox)
					where := map[string]any{"cwd": cwd}
					if res := s.call("git_status", where); res.IsError {
						t.Fatalf("git_status failed, so the test proves nothing: %s", text(res))
					}
					s.call("git_diff", where)
					s.call("git_diff", map[string]any{"cwd": cwd, "staged": true})
					s.call("git_diff", map[string]any{"cwd": cwd, "revision": "HEAD~1"})
					s.call("git_log", where)
					s.call("project_overview", map[string]any{"path": cwd})
					if got := ranMarkers(ran); len(got) > 0 {
						t.Fatalf("a read tool ran programs the repository named: %v", got)
					}
					// git_commit runs the root repository's own hooks, confined
					// like a command; with the sandbox off it is the owner's
					// unconfined choice, so only the traps outside the root's
					// own configuration must stay inert there.
					if sandbox == "off" && a.name == "workspace file the owner's config includes" {
						return
					}
					up, _ := filepath.Rel(filepath.Join(root, cwd), filepath.Join(root, "main.go"))
					res := s.call("git_commit", map[string]any{"cwd": cwd, "paths": []any{up}, "message": "m"})
					if got := ranMarkers(ran); len(got) > 0 {
						t.Fatalf("git_commit ran programs the repository named: %v (%s)", got, text(res))
					}
					// The owner's own include names a filter: it runs, confined,
					// and fails to write outside; everywhere else the commit
					// goes through with the root's own hooks.
					if res.IsError && a.name != "workspace file the owner's config includes" {
						t.Fatalf("git_commit failed, so the test proves nothing: %s", text(res))
					}
					if !res.IsError {
						if b, _ := os.ReadFile(filepath.Join(root, ".git", "hook-mark")); string(b) != "hook ran\n" {
							t.Errorf("the root repository's own pre-commit hook did not run: %q", b)
						}
					}
				})
			}
		})
	}
}

// TestGitAttacksAreReal shows that each trap does fire for git run the
// plain way, so the test above proves something.
func TestGitAttacksAreReal(t *testing.T) {
	for _, a := range gitAttacks {
		t.Run(a.name, func(t *testing.T) {
			root := gitRepo(t)
			ran := filepath.Join(outside(t), "ran")
			cwd := a.plant(t, root, ran)
			cmd := exec.Command("git", "status")
			cmd.Dir = filepath.Join(root, cwd)
			cmd.Run()
			cmd = exec.Command("git", "diff")
			cmd.Dir = filepath.Join(root, cwd)
			cmd.Run()
			if got := ranMarkers(ran); len(got) == 0 {
				t.Fatalf("the trap did not fire for plain git: the attack table tests nothing here")
			}
		})
	}
}
