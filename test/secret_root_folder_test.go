package test

import (
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
