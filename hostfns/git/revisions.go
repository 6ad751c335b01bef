package git

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/jujutools/juju/internal/proc"
	"github.com/jujutools/juju/sdk/abi"
)

// maxRevisions bounds the revisions one call of show, log or diff may
// name: each is resolved by a git run of its own (a few milliseconds),
// and a reading tool names one or two.
const maxRevisions = 32

// objectName is a full object name as rev-parse prints it, "^" before an
// excluded one: SHA-1 or SHA-256.
var objectName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\^?([0-9a-f]{40}|[0-9a-f]{64})$`) })

// checkRevisions refuses a revision of show, log or diff (an argument
// before "--" that is not an option) that names anything but commits. The
// exclusion pathspecs filter the files of commits; a blob or a tree given
// as a revision is printed whole (git show <blob>, git show HEAD^{tree},
// git diff <blob> <blob>), names and contents the path policy withholds
// included. Each argument is resolved as git resolves it (rev-parse, one
// run per argument: after one that is not a revision it would read the
// rest as paths), ranges and A^@ included, and every object it names must
// peel to a commit; an argument that is no revision (an option's value
// given apart, -n 5) is left to git, which resolves it the same way.
func (s *server) checkRevisions(ctx context.Context, rp *repo, dir string, opts []string) *abi.Error {
	var revs []string
	for _, a := range opts {
		if !strings.HasPrefix(a, "-") {
			revs = append(revs, a)
		}
	}
	if len(revs) == 0 {
		return nil
	}
	if len(revs) > maxRevisions {
		return abi.Errorf(abi.InvalidArgument, "%d revisions given; a call names at most %d", len(revs), maxRevisions)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	env := s.plainEnv(rp)
	var names []string
	var from []string // the argument each name came from
	for _, r := range revs {
		out, err := s.output(proc.Command(ctx, dir, env, "git", "rev-parse", "--revs-only", "--no-flags", r))
		if ctx.Err() != nil {
			return abi.Errorf(abi.Timeout, "git took too long to resolve the revisions; try again")
		}
		if err != nil {
			return abi.Errorf(abi.InvalidArgument, "%s is not a revision git can resolve in this repository; give a commit (a hash, a branch, HEAD~2) or a range of them", abi.Quote(r))
		}
		for _, line := range strings.Fields(string(out)) {
			if !objectName().MatchString(line) {
				return abi.Errorf(abi.InvalidArgument, "%s is not a plain revision; give a commit (a hash, a branch, HEAD~2) or a range of them", abi.Quote(r))
			}
			names = append(names, strings.TrimPrefix(line, "^"))
			from = append(from, r)
		}
	}
	if len(names) == 0 {
		return nil
	}
	var in bytes.Buffer
	for _, n := range names {
		fmt.Fprintf(&in, "%s^{commit}\n", n)
	}
	cmd := proc.Command(ctx, dir, env, "git", "cat-file", "--batch-check=%(objecttype)")
	cmd.Stdin = &in
	out, err := s.output(cmd)
	if err != nil {
		s.log.Error("git cat-file failed", "err", err)
		return abi.Errorf(abi.Internal, "git could not check the revisions' objects; check the repository with git on the terminal, and tell the owner if it persists")
	}
	types := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	for i := range names {
		if i >= len(types) || types[i] != "commit" {
			return abi.Errorf(abi.InvalidArgument, "%s names an object that is not a commit (a blob, a tree, or a tag of one): git would print it whole, whatever the path policy withholds; give a commit (a hash, a branch, HEAD~2) or a range of them", abi.Quote(from[i]))
		}
	}
	return nil
}
