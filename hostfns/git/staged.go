package git

import (
	"bytes"
	"context"
	"path/filepath"
	"time"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/proc"
	"github.com/jujutools/juju/sdk/abi"
)

// plainEnv is the environment of juju's own look-ups in rp (rev-parse,
// cat-file, the staged names): the repository pinned, every program
// setting overridden, as for a read; these run no driver.
func (s *server) plainEnv(rp *repo) []string {
	env := append(append(append([]string(nil), s.env...), rp.env()...), readEnv...)
	return append(env, configEnv(false, nil)...)
}

// checkStaged refuses a commit of the whole index (git commit with no
// paths: git_commit with all, or with neither paths nor all) while the
// index holds a change to a path the policy withholds — a secret staged
// by a command (git add -f .env), juju's own state, a denied path, a
// path outside the roots (a root below the repository's top). The
// reads would never show that change, so the commit would take it in
// unseen. The names are read unfiltered, here on the host, and are never
// shown: the policy withholds them too.
func (s *server) checkStaged(ctx context.Context, rp *repo, dir string) *abi.Error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := proc.Command(ctx, dir, s.plainEnv(rp), "git", "diff", "--cached", "--name-only", "-z", "--no-renames")
	out := proc.NewCapped(s.opts.MaxOutput)
	cmd.Stdout = out
	if err := s.runCmd(cmd); err != nil || out.Cut {
		if ctx.Err() != nil {
			return abi.Errorf(abi.Timeout, "git took too long to list the staged changes; try again")
		}
		if out.Cut {
			return abi.Errorf(abi.TooLarge, "more is staged than juju checks before a commit (%d MB of names); commit named paths instead", s.opts.MaxOutput>>20)
		}
		s.log.Error("git diff --cached failed", "err", err)
		return abi.Errorf(abi.Internal, "git could not list the staged changes; check the repository with git on the terminal, and tell the owner if it persists")
	}
	code, outside := abi.Code(""), false
	for _, name := range bytes.Split(out.Bytes(), []byte{0}) {
		if len(name) == 0 {
			continue
		}
		abs := filepath.Join(rp.top, filepath.FromSlash(string(name)))
		inside := false
		for _, r := range s.pol.Roots() {
			rel, err := filepath.Rel(r.Real, abs)
			if err != nil || !policy.Within(abs, r.Real) {
				continue
			}
			inside = true
			if aerr := s.pol.Check(r, filepath.ToSlash(rel)); aerr != nil && (code == "" || aerr.Code == abi.SecretDenied) {
				code = aerr.Code
			}
		}
		outside = outside || !inside
	}
	if code == "" && outside {
		// A root below the repository's top: the index holds the whole
		// repository's staged changes, and the reads show none beyond
		// the roots (a .env staged there was committed unseen).
		return abi.Errorf(abi.PathDenied, "changes outside the workspace roots are staged in this repository, and a commit without paths commits everything staged; nothing was committed. Give git_commit the paths to commit, or ask the owner to commit or unstage those changes on the terminal")
	}
	if code != "" {
		return abi.Errorf(code, "a path the path policy withholds is staged, and a commit without paths commits everything staged; nothing was committed. Its name is withheld too: unstage it with a command (git restore --staged on that path, or git reset to unstage everything), or give git_commit the paths to commit")
	}
	return nil
}
