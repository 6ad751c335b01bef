package test

import (
	"strings"
	"testing"
)

// A path given to git_commit is the file of that name, never a pattern:
// git reads a pathspec as a wildcard, so ".e*", "[.]env" or "*" would have
// staged .env and the keys beside it, which the policy checked only as
// names that do not exist.
func TestGitCommitPathsAreLiteral(t *testing.T) {
	secrets := []string{".env", "sub/.ssh/id_rsa", "sub/server.pem"}
	for _, paths := range [][]any{{".e*"}, {"[.]env"}, {"?env"}, {"*"}, {"sub/*"}, {"sub/.ss?/*"}, {"a.txt", "*.pem"}} {
		root := gitRepo(t)
		write(t, root, "a.txt", "a\n")
		write(t, root, "sub/.ssh/id_rsa", "PRIVATE KEY\n")
		write(t, root, "sub/server.pem", "CERT KEY\n")
		before := strings.TrimSpace(gitOut(t, root, "rev-parse", "HEAD"))
		s := startExec(t, root)
		res := s.call("git_commit", map[string]any{"message": "m", "paths": paths})
		tree := gitOut(t, root, "ls-tree", "-r", "--name-only", "HEAD")
		staged := gitOut(t, root, "diff", "--cached", "--name-only")
		for _, secret := range secrets {
			if strings.Contains(tree, secret) || strings.Contains(staged, secret) {
				t.Errorf("paths %v: %s was committed or staged (%s)", paths, secret, text(res))
			}
		}
		// A name that is no file is refused or commits nothing new but a.txt.
		after := strings.TrimSpace(gitOut(t, root, "rev-parse", "HEAD"))
		if !res.IsError && after != before {
			files := strings.Fields(gitOut(t, root, "show", "--name-only", "--format=", "HEAD"))
			for _, f := range files {
				if f != "a.txt" {
					t.Errorf("paths %v committed %s", paths, f)
				}
			}
		}
	}
}
