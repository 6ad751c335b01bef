package git

import (
	"context"
	"errors"
	"os"
	osexec "os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/jujutools/juju/internal/proc"
	"github.com/jujutools/juju/sdk/abi"
)

// MinVersion is the oldest git juju runs: git 2.31 is the first to read
// GIT_CONFIG_COUNT, the command-line scope every override of inert.go
// travels in. An older git ignores it without a word, and a repository's
// core.fsmonitor ran behind git_status and git_diff with git 2.30 (Debian
// 11's), on the host, sandbox or not: juju's own look-ups (the index, the
// staged names) are not confined.
var MinVersion = [3]int{2, 31, 0}

// found is the git one call runs: the program the PATH names, as the
// version check saw it.
type found struct {
	path    string
	size    int64
	modTime time.Time
}

// checkGit says whether the git on the PATH can be run: NOT_FOUND when
// there is none, or when it is older than MinVersion. Its version is asked
// once per program file (a git upgraded or installed meanwhile is asked
// again), with no repository and no GIT_* variable, so nothing of the
// workspace's is read.
func (s *server) checkGit(ctx context.Context) *abi.Error {
	p, err := osexec.LookPath("git")
	if err != nil {
		return errNoGit()
	}
	fi, err := os.Stat(p)
	if err != nil {
		return errNoGit()
	}
	f := found{path: p, size: fi.Size(), modTime: fi.ModTime()}
	s.versionMu.Lock()
	defer s.versionMu.Unlock()
	if s.version.found == f {
		return s.version.err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := proc.Command(ctx, os.TempDir(), s.env, p, "--version")
	out, err := s.output(cmd)
	var aerr *abi.Error
	switch {
	case ctx.Err() != nil:
		// Not remembered: a slow start is asked again.
		return abi.Errorf(abi.Timeout, "git --version did not answer in time; try again")
	case errors.Is(err, osexec.ErrNotFound):
		aerr = errNoGit()
	case err != nil:
		s.log.Error("git --version failed", "err", err)
		aerr = abi.Errorf(abi.NotFound, "the git on this machine does not run (git --version failed); ask the owner to check the git installation")
	default:
		v, ok := parseVersion(string(out))
		if !ok || older(v, MinVersion) {
			what := "a git whose version juju cannot read (" + strconv.Quote(firstLine(string(out))) + ")"
			if ok {
				what = "git " + strconv.Itoa(v[0]) + "." + strconv.Itoa(v[1]) + "." + strconv.Itoa(v[2])
			}
			aerr = abi.Errorf(abi.NotFound, "this machine has %s, and juju's git tools need git %d.%d or newer, the first that lets juju keep a repository's settings from running programs; ask the owner to upgrade git", what, MinVersion[0], MinVersion[1])
		}
	}
	s.version.found, s.version.err = f, aerr
	return aerr
}

// parseVersion reads `git --version`: "git version 2.39.5", "git version
// 2.39.3 (Apple Git-146)", "git version 2.45.1.windows.1"; a missing
// patch number is 0.
func parseVersion(out string) ([3]int, bool) {
	var v [3]int
	rest, ok := strings.CutPrefix(firstLine(out), "git version ")
	if !ok {
		return v, false
	}
	word, _, _ := strings.Cut(rest, " ")
	return parseNumbers(word)
}

// TooOld reports whether version, the word of git --version that holds
// it ("2.30.2"), names a git older than MinVersion, which the git tools
// refuse; a version juju cannot read is not said to be.
func TooOld(version string) bool {
	v, ok := parseNumbers(version)
	return ok && older(v, MinVersion)
}

// parseNumbers reads "2.39.5", "2.45.1.windows.1" or "2.50.0.rc1".
func parseNumbers(word string) ([3]int, bool) {
	var v [3]int
	parts := strings.SplitN(word, ".", 4)
	if len(parts) < 2 {
		return v, false
	}
	for i := 0; i < len(parts) && i < 3; i++ {
		n, err := strconv.Atoi(parts[i])
		if err != nil {
			if i < 2 {
				return v, false
			}
			// "2.45.rc1": a release candidate of 2.45.0.
			break
		}
		v[i] = n
	}
	return v, true
}

// older reports whether v is older than min.
func older(v, min [3]int) bool {
	for i := range v {
		if v[i] != min[i] {
			return v[i] < min[i]
		}
	}
	return false
}

// firstLine is s up to its first line feed, trimmed.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(line)
}
