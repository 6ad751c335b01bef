package policy

import (
	"math/rand/v2"
	"slices"
	"strings"
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
		{"/srv/repo/.git", []string{"**/COMMIT_EDITMSG", "**/config", "**/config.worktree", "**/lfs", "**/logs", "**/objects", "**/rebase-apply", "**/rebase-merge/patch", "**/rr-cache",
			"config", "config.worktree", "lfs", "logs", "objects"}}, // **/*.git/config: .git is *.git
		{"/srv/mirror.git", []string{"config", "config.worktree", "lfs", "logs", "objects"}},
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

// A glob with a slash that does not start with ** is a path from a root:
// matched from the file system's top, the owner's tmp/** had git exclude
// every file of a repository in /tmp, and deploy/**/prod.yml rewritten
// below /deploy/app.
func TestGlobsBelowTakesNoPathFromARoot(t *testing.T) {
	for _, dir := range []string{"/tmp/repo", "/deploy/app"} {
		if got := GlobsBelow(append(DefaultSecrets(), "tmp/**", "deploy/**/prod.yml"), dir); got != nil {
			t.Errorf("GlobsBelow(%s) = %q, want none", dir, got)
		}
	}
}

// Every path whose whole path a secret glob matches is matched, from the
// folder above it, by GlobsBelow's globs and the globs themselves (as git
// applies them, a glob without a slash at any depth): random folders and
// paths built of the secret list's own names, so that globs match across
// the folder's names as often as not.
func TestGlobsBelowMissesNoWholePathMatch(t *testing.T) {
	globs := append(DefaultSecrets(), "deploy/**/prod.yml", "**/vault/*.json")
	var whole globSet
	for _, g := range globs {
		if !anywhere(g) {
			continue // a path from a root, not from the file system's top
		}
		if err := whole.add(g); err != nil {
			t.Fatal(err)
		}
	}
	names := []string{".config", "gh", "hosts.yml", ".git", "modules", "sub", "config", "objects", ".aws",
		"credentials", "mirror.git", "rebase-merge", "patch", "deploy", "a", "prod.yml", "vault", "k.json",
		"sops", "age", "keys.txt", "src", ".cargo", "credentials.toml", "home"}
	rnd := rand.New(rand.NewPCG(1, 2))
	pick := func(n int) string {
		var b []string
		for range n {
			b = append(b, names[rnd.IntN(len(names))])
		}
		return strings.Join(b, "/")
	}
	checked := 0
	for range 20000 {
		dir, rel := "/"+pick(1+rnd.IntN(4)), pick(1+rnd.IntN(4))
		if whole.match(dir[1:]) || !whole.match(dir[1:]+"/"+rel) {
			continue
		}
		below := GlobsBelow(globs, dir)
		if slices.Contains(below, "**") {
			continue
		}
		var set globSet
		for _, g := range append(below, globs...) {
			if err := set.add(g); err != nil {
				t.Fatal(err)
			}
		}
		if !set.match(rel) {
			t.Fatalf("%s/%s is a secret by its whole path, but GlobsBelow(%s) = %q leaves %s", dir, rel, dir, below, rel)
		}
		checked++
	}
	if checked < 500 {
		t.Fatalf("only %d paths matched across their folder's names", checked)
	}
}
