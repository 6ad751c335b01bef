package git

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"time"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/proc"
	"github.com/jujutools/juju/sdk/abi"
)

// linkedKey applies the policy's hard-link rule to the resolved file r,
// which git is about to read itself: the refusal when r is a regular file
// of more than one link whose head holds a private key (policy.Open
// refuses it), else nil.
func linkedKey(p *policy.Policy, r *policy.Resolved) *abi.Error {
	if r.Info == nil || !policy.MultiLinked(r.Info) {
		return nil
	}
	f, aerr := p.Open(r)
	if aerr != nil {
		if aerr.Code == abi.SecretDenied {
			return aerr
		}
		return nil
	}
	f.Close()
	return nil
}

// linkedKeys returns exclusion pathspecs, from rp's top, for the files of
// the index within pathspecs (the paths of a diff and its exclusions)
// whose work tree file is a hard link to a private key (linkedKey). A
// diff against the work tree prints a tracked file's content as git reads
// it there, not through the policy, so read_file's SECRET_DENIED would be
// a diff away. Only the index's files are looked at: a diff reads no other
// file of the work tree, and only those of more than one link are opened.
// The index is listed on the host, as checkStaged lists it: ls-files reads
// no file of the work tree and runs nothing the repository names.
func (s *server) linkedKeys(ctx context.Context, rp *repo, dir string, pathspecs []string) ([]string, *abi.Error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := proc.Command(ctx, dir, s.plainEnv(rp), append([]string{"git", "ls-files", "-z", "--full-name", "--"}, pathspecs...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, abi.Errorf(abi.Internal, "git could not list the index; try again, and tell the owner if it persists")
	}
	if err := s.startCmd(cmd); err != nil {
		if errors.Is(err, osexec.ErrNotFound) {
			return nil, errNoGit()
		}
		s.log.Error("git ls-files failed to start", "err", err)
		return nil, abi.Errorf(abi.Internal, "git could not list the index; try again, and tell the owner if it persists")
	}
	var out []string
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if i := bytes.IndexByte(data, 0); i >= 0 {
			return i + 1, data[:i], nil
		}
		if atEOF && len(data) > 0 {
			return len(data), data, nil
		}
		return 0, nil, nil
	})
	for sc.Scan() {
		name := sc.Text()
		abs := filepath.Join(rp.top, filepath.FromSlash(name))
		if fi, err := os.Lstat(abs); err != nil || !policy.MultiLinked(fi) {
			continue
		}
		if r, aerr := s.pol.Resolve(abs); aerr == nil && linkedKey(s.pol, r) != nil {
			out = append(out, ":(top,exclude,literal)"+name)
		}
	}
	scanErr := sc.Err()
	if scanErr != nil {
		cmd.Process.Kill()
	}
	err = cmd.Wait()
	switch {
	case ctx.Err() != nil:
		return nil, abi.Errorf(abi.Timeout, "git took too long to list the index; try again")
	case scanErr != nil || err != nil:
		s.log.Error("git ls-files failed", "err", err, "scan", scanErr)
		return nil, abi.Errorf(abi.Internal, "git could not list the index; check the repository with git on the terminal, and tell the owner if it persists")
	}
	return out, nil
}
