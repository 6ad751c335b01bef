package policy

import (
	"slices"
	"testing"
)

// GlobsBelow rewrites the secret globs for a folder whose own names they
// match across: what git, whose pathspecs start at a repository's top,
// must exclude below ~/.config or a .git.
func TestGlobsBelow(t *testing.T) {
	for _, c := range []struct {
		dir  string
		want []string
	}{
		{"/home/me/src/app", nil},
		{"/home/me/.config", []string{"gcloud/access_tokens.db", "gcloud/credentials.db", "gcloud/legacy_credentials", "gh/hosts.yml", "git/credentials", "sops/age/keys.txt"}},
		{"/home/me/.CONFIG/gh", []string{"hosts.yml"}},
		{"/home/me/.aws", []string{"accessTokens.json", "credentials", "msal_token_cache.*"}},
		{"/home/me/.ssh", []string{"**"}},
		{"/home/me/.ssh/keys", []string{"**"}},
		{"/srv/repo/.git", []string{"**/COMMIT_EDITMSG", "**/config", "**/config.worktree", "**/lfs", "**/objects", "**/rebase-apply", "**/rebase-merge/patch", "**/rr-cache",
			"config", "config.worktree", "lfs", "objects"}}, // **/*.git/config: .git is *.git
		{"/srv/mirror.git", []string{"config", "config.worktree", "lfs", "objects"}},
	} {
		globs := append(DefaultSecrets(), "**/.aws/accessTokens.json", "**/.aws/msal_token_cache.*")
		got := GlobsBelow(globs, c.dir)
		want := c.want
		for i := range want {
			want[i] = fold(want[i])
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("GlobsBelow(%s) = %q, want %q", c.dir, got, want)
		}
	}
}
