package git

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/jujutools/juju/internal/proc"
	"github.com/jujutools/juju/sdk/abi"
)

// What the index may name. git reads a tracked file of the work tree at
// the index's name for it, joined to the work tree's top, and checks the
// name only when it adds one (verify_path), never when it reads the
// index: a crafted index (a command in the sandbox writes .git/index; a
// project unpacked from an archive brings its own) naming
// "../../../../../../etc/passwd" made git_diff print that file, and any
// other the owner can read, as a change, and git_status stat and hash it.
// So before a reading run that looks at the work tree (status, diff,
// ls-files), juju lists the index's names on the host and refuses the
// run while one is a name git would not add: one with an empty, "." or
// ".." component, or a ".git" one, which git reads inside the repository
// folder.

// worktreeReads are the reading subcommands that read work tree files
// at the index's names.
var worktreeReads = map[string]bool{"status": true, "diff": true, "ls-files": true}

// maxIndexHashed bounds the index a check hashes to remember it clean:
// an index of a million files is about 100 MB; one larger is listed
// again at every read.
const maxIndexHashed = 256 << 20

// indexSum returns the SHA-256 of the index file name, or "" when it
// cannot be read or is larger than maxIndexHashed. The sum, not the
// file's times, names a version found clean: a command can rewrite the
// index in place and set its times back.
func indexSum(name string) string {
	f, err := openRegular(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, maxIndexHashed+1))
	if err != nil || n > maxIndexHashed {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// badIndexName reports whether name is one git would not add to an
// index (verify_path, without its HFS and NTFS spellings): an absolute
// name, or one with an empty, "." or ".." component or a ".git" one in
// any letter case.
func badIndexName(name string) bool {
	if name == "" || strings.HasPrefix(name, "/") {
		return true
	}
	for _, c := range strings.Split(name, "/") {
		if c == "" || c == "." || c == ".." || strings.EqualFold(c, ".git") {
			return true
		}
	}
	return false
}

// checkIndex refuses (PATH_DENIED) a run over rp's work tree while its
// index names a file git would read outside the work tree or inside the
// repository folder (badIndexName). A version of the index found clean is
// not listed again.
func (s *server) checkIndex(ctx context.Context, rp *repo) *abi.Error {
	name := filepath.Join(rp.gitDir, "index")
	if _, err := os.Stat(name); err != nil {
		return nil // no index yet: git reads no tracked file
	}
	sum := indexSum(name)
	s.indexMu.Lock()
	clean := sum != "" && s.indexClean[name] == sum
	s.indexMu.Unlock()
	if clean {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	// From the top, the whole index: from a subfolder ls-files lists
	// only the names below it, and the version found clean is the whole
	// file's.
	cmd := proc.Command(ctx, rp.top, s.plainEnv(rp), "git", "ls-files", "-z")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return abi.Errorf(abi.Internal, "git could not list the index; try again, and tell the owner if it persists")
	}
	if err := s.startCmd(cmd); err != nil {
		if errors.Is(err, osexec.ErrNotFound) {
			return errNoGit()
		}
		s.log.Error("git ls-files failed to start", "err", err)
		return abi.Errorf(abi.Internal, "git could not list the index; try again, and tell the owner if it persists")
	}
	var bad string
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	sc.Split(splitNUL)
	for sc.Scan() {
		if badIndexName(sc.Text()) {
			bad = sc.Text()
			break
		}
	}
	scanErr := sc.Err()
	if bad != "" || scanErr != nil {
		cmd.Process.Kill()
	}
	waitErr := cmd.Wait()
	switch {
	case bad != "":
		s.log.Warn("git: the index names a file outside the work tree; git reads refused", "index", name, "name", bad)
		return abi.Errorf(abi.PathDenied, "the repository's index names %s, a file git would read outside the work tree or inside the repository's folder, which git itself never adds: juju's git tools do not read the work tree through this index. Ask the owner to look at it (git ls-files) and rebuild it (rm .git/index && git reset); git_log and git_diff of the staged changes still work", abi.Quote(bad))
	case ctx.Err() != nil:
		return abi.Errorf(abi.Timeout, "git took too long to list the index; try again")
	case scanErr != nil || waitErr != nil:
		s.log.Error("git ls-files failed", "err", errors.Join(scanErr, waitErr))
		return abi.Errorf(abi.Internal, "git could not list the index; check the repository with git on the terminal, and tell the owner if it persists")
	}
	// Remembered only when the index listed is the one hashed: one
	// swapped in meanwhile is listed again next time.
	if sum != "" && indexSum(name) == sum {
		s.indexMu.Lock()
		s.indexClean[name] = sum
		s.indexMu.Unlock()
	}
	return nil
}

// splitNUL is a bufio.SplitFunc for NUL-ended records.
func splitNUL(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}
