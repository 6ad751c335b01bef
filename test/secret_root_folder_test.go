package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The secret list names where tools keep a login in the home folder
// (.config/gh/hosts.yml, .aws/credentials, anything under .ssh), and
// matched it from the root only: a root given as ~/.config (to edit the
// owner's settings), ~/.aws, ~/.ssh or a repository's .git served the
// GitHub CLI's token, git's stored password, the AWS keys, the ssh config
// and the remote's password in .git/config as plain files, to read_file,
// listings, globs and searches alike. A root's paths are now judged by
// their whole path too, and a root inside a secret folder is secret whole.
func TestSecretsHoldInARootAtTheirFolder(t *testing.T) {
	home := workspace(t, map[string]string{
		".config/gh/hosts.yml":    "github.com:\n    oauth_token: SECRET-GH\n",
		".config/git/credentials": "https://me:SECRET-GITXDG@github.com\n",
		".config/nvim/init.lua":   "vim.o.number = true\n",
		".aws/credentials":        "[default]\naws_secret_access_key = SECRET-AWS\n",
		".aws/config":             "[default]\nregion = eu-west-1\n",
		".ssh/config":             "Host h\n  User SECRET-SSH\n",
		"repo/.git/config":        "[remote \"o\"]\n\turl = https://me:SECRET-GITCONFIG@h/r\n",
		"repo/.git/description":   "a repository\n",
	})
	config, aws := filepath.Join(home, ".config"), filepath.Join(home, ".aws")
	ssh, git := filepath.Join(home, ".ssh"), filepath.Join(home, "repo", ".git")
	s := start(t, config, "--root", aws, "--root", ssh, "--root", git)
	secrets := []string{"gh/hosts.yml", "git/credentials", filepath.Join(aws, "credentials"),
		filepath.Join(ssh, "config"), filepath.Join(git, "config"), ssh}
	for _, p := range secrets {
		s.fail("read_file", map[string]any{"path": p}, "SECRET_DENIED")
		s.fail("file_info", map[string]any{"path": p}, "SECRET_DENIED")
	}
	s.fail("write_file", map[string]any{"path": "gh/hosts.yml", "content": "oauth_token: planted\n"}, "SECRET_DENIED")
	s.fail("list_directory", map[string]any{"path": ssh}, "SECRET_DENIED")
	leaks := []string{"SECRET-GH", "SECRET-GITXDG", "SECRET-AWS", "SECRET-SSH", "SECRET-GITCONFIG", "hosts.yml", "credentials"}
	for _, p := range []string{".", "gh", "git", aws, git} {
		for _, out := range []string{
			s.ok("list_directory", map[string]any{"path": p}),
			s.ok("glob_files", map[string]any{"pattern": "**/*", "path": p, "includeIgnored": true}),
			s.ok("search_code", map[string]any{"pattern": "SECRET-[A-Z]+", "path": p}),
		} {
			for _, leak := range leaks {
				if strings.Contains(out, leak) {
					t.Errorf("%s under %s shown:\n%s", leak, p, out)
				}
			}
			if p == git && strings.Contains(out, "\nconfig") {
				t.Errorf("the repository's config shown:\n%s", out)
			}
		}
	}
	// The rest of those folders is the owner's to work on.
	for p, want := range map[string]string{
		"nvim/init.lua": "vim.o.number", filepath.Join(aws, "config"): "eu-west-1",
		filepath.Join(git, "description"): "a repository",
	} {
		if out := s.ok("read_file", map[string]any{"path": p}); !strings.Contains(out, want) {
			t.Errorf("read_file %s: %s", p, out)
		}
	}
}

// git's exclusions are pathspecs from the repository's top, so a
// repository at ~/.config (the owner's settings under version control)
// had git_diff print the GitHub CLI's new token from gh/hosts.yml and
// git_status name it, with every file tool refusing it.
func TestGitHoldsSecretsInARepositoryAtTheirFolder(t *testing.T) {
	home := workspace(t, map[string]string{
		".config/gh/hosts.yml":  "oauth_token: OLD-TOKEN\n",
		".config/nvim/init.lua": "vim.o.number = true\n",
	})
	config := filepath.Join(home, ".config")
	gitIn(t, config, "init", "-q")
	gitIn(t, config, "add", "-A")
	gitIn(t, config, "commit", "-qm", "settings")
	for name, content := range map[string]string{"gh/hosts.yml": "oauth_token: SECRET-NEW-TOKEN\n", "nvim/init.lua": "vim.o.number = false\n"} {
		if err := os.WriteFile(filepath.Join(config, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := start(t, config)
	for _, out := range []string{
		s.ok("git_status", map[string]any{}),
		s.ok("git_diff", map[string]any{}),
		s.ok("git_diff", map[string]any{"paths": []string{"gh"}}),
		s.ok("git_diff", map[string]any{"revision": "HEAD"}),
	} {
		if strings.Contains(out, "TOKEN") || strings.Contains(out, "hosts.yml") {
			t.Errorf("the token's file shown:\n%s", out)
		}
	}
	if out := s.ok("git_diff", map[string]any{}); !strings.Contains(out, "vim.o.number = false") {
		t.Errorf("git_diff left out the settings' own change:\n%s", out)
	}
}
