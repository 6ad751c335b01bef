package git

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/jujutools/juju/internal/policy"
)

// repo is the repository juju's git runs use for one root: always the
// root's own, named explicitly to git (GIT_DIR, GIT_COMMON_DIR,
// GIT_WORK_TREE), so that git never discovers another one — an embedded
// bare repository, a `git init` in a subfolder, a `.git/commondir` written
// later — on its own.
type repo struct {
	top    string // the work tree's top folder
	gitDir string // the repository folder of this work tree
	common string // the repository folder holding config, objects and refs
}

// errNoRepo says a root is in no git repository juju will use.
var errNoRepo = errors.New("not a git repository")

// errForeign says a root's `.git` file names a repository juju will not
// use (pointsBack).
var errForeign = errors.New("a repository outside the roots")

// pinRepo finds the repository of the root real (a real, absolute path)
// the way git would from that folder — the nearest `.git` at or above it —
// and pins its folders. A `.git` folder is its own common folder: a
// `commondir` file inside one is not honoured (only linked worktrees have
// one, and those are reached through a `.git` file). A `.git` file (a
// linked worktree or a submodule) is read now, at start, and pinned: what
// a command writes into it later changes nothing. A `.git` that is a
// symbolic link is not used. roots are the workspace roots (real paths):
// a `.git` file is workspace content, so the repository it names outside
// them must name it back (pointsBack), and a `commondir` file in a folder
// inside them is workspace content too, which may name only a folder
// inside them. gitDir and common are pinned with their links resolved.
func pinRepo(real string, roots []string) (*repo, error) {
	for dir := real; ; {
		r, err := repoAt(dir, roots)
		if err == nil {
			return r, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, errNoRepo
		}
		dir = parent
	}
}

// repoAt reads dir/.git; fs.ErrNotExist when there is none.
func repoAt(dir string, roots []string) (*repo, error) {
	dotgit := filepath.Join(dir, ".git")
	fi, err := os.Lstat(dotgit)
	if err != nil {
		return nil, err
	}
	switch {
	case fi.IsDir():
		if !isRepoDir(dotgit) {
			return nil, fmt.Errorf("%w: %s has no HEAD", errNoRepo, dotgit)
		}
		return &repo{top: dir, gitDir: dotgit, common: dotgit}, nil
	case fi.Mode().IsRegular():
		gitDir, err := readGitFile(dotgit)
		if err != nil {
			return nil, err
		}
		if !isRepoDir(gitDir) {
			return nil, fmt.Errorf("%w: %s points to %s, which has no HEAD", errNoRepo, dotgit, gitDir)
		}
		common := gitDir
		if b, err := readRegular(filepath.Join(gitDir, "commondir"), 1<<20); err == nil {
			c := strings.TrimSpace(string(b))
			if !filepath.IsAbs(c) {
				c = filepath.Join(gitDir, c)
			}
			common = filepath.Clean(c)
		}
		// Where git would read, with every link resolved now: the
		// folders pinned are the ones checked, whatever links a command
		// changes later.
		if gitDir, err = filepath.EvalSymlinks(gitDir); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", errNoRepo, dotgit, err)
		}
		if common, err = filepath.EvalSymlinks(common); err != nil {
			return nil, fmt.Errorf("%w: %s names a common folder that does not resolve: %v", errForeign, dotgit, err)
		}
		switch {
		case inside(gitDir, roots):
			// Workspace content, and so is the commondir file in it: the
			// repository it names must lie inside the roots too.
			if !inside(common, roots) {
				return nil, fmt.Errorf("%w: %s points to %s, whose commondir names %s, outside the workspace roots; juju's git tools do not read a repository a workspace file names", errForeign, dotgit, gitDir, common)
			}
		case !pointsBack(gitDir, dotgit, dir):
			return nil, fmt.Errorf("%w: %s points to %s, outside the workspace roots, which does not name it back as a linked worktree or a submodule does; juju's git tools do not read a repository a workspace file names", errForeign, dotgit, gitDir)
		}
		// A folder outside the roots that names this work tree back is
		// the owner's (a workspace cannot write there), and so is the
		// commondir in it.
		return &repo{top: dir, gitDir: gitDir, common: common}, nil
	default:
		return nil, fmt.Errorf("%w: %s is neither a folder nor a file", errNoRepo, dotgit)
	}
}

// inside reports whether p (after links) lies in one of roots.
func inside(p string, roots []string) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	for _, r := range roots {
		if policy.Within(real, r) {
			return true
		}
	}
	return false
}

// pointsBack reports whether the repository folder gitDir names the work
// tree dir back, as git's own links do: a linked worktree's folder holds
// a gitdir file naming dir/.git, a submodule's config sets core.worktree
// to dir. A `.git` file is workspace content, and could name any
// repository on the disk; one outside the roots is used only when it
// names this work tree back, which workspace content cannot make it do.
// (A repository split off with --separate-git-dir outside the roots does
// not name its work tree, and is not used.)
func pointsBack(gitDir, dotgit, dir string) bool {
	if b, err := readRegular(filepath.Join(gitDir, "gitdir"), 1<<20); err == nil {
		p := strings.TrimSpace(string(b))
		if !filepath.IsAbs(p) {
			p = filepath.Join(gitDir, p)
		}
		if sameFile(p, dotgit) {
			return true
		}
	}
	if wt := coreWorktree(filepath.Join(gitDir, "config")); wt != "" {
		if !filepath.IsAbs(wt) {
			wt = filepath.Join(gitDir, wt)
		}
		return sameFile(wt, dir)
	}
	return false
}

// errNotRegular is a file juju reads in a repository's folders that is
// not a regular file.
var errNotRegular = errors.New("not a regular file")

// openRegular opens name, following links, for reading when it is a
// regular file. A repository's folders are workspace content, which a
// confined command may write (all of a .git it made with git init since
// juju started): opening a FIFO for reading waits for a writer, so a FIFO
// at a name juju reads before a git run (objects/info/alternates) held
// every git tool for ever. So the name is looked at first, never opened
// unless a regular file (a FIFO or a device is not), and opened without
// blocking, and what was opened must be that very file.
func openRegular(name string) (*os.File, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", name, errNotRegular)
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if at, err := f.Stat(); err != nil || !os.SameFile(at, fi) {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, errNotRegular)
	}
	return f, nil
}

// readRegular reads at most max bytes of name, a regular file
// (openRegular).
func readRegular(name string, max int64) ([]byte, error) {
	f, err := openRegular(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// coreWorktree reads core.worktree from a config file, as git writes it
// for a submodule ([core] then "worktree = PATH"); "" when absent. Only
// that file is read: includes are not followed.
func coreWorktree(name string) string {
	f, err := openRegular(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 1<<20))
	core := false
	wt := ""
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			section, _, _ := strings.Cut(strings.TrimPrefix(line, "["), "]")
			core = strings.EqualFold(strings.TrimSpace(section), "core")
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if core && ok && strings.EqualFold(strings.TrimSpace(k), "worktree") {
			wt = strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return wt
}

// readGitFile reads a `.git` file's "gitdir: PATH" line.
func readGitFile(name string) (string, error) {
	f, err := openRegular(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	p, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%w: %s is not a gitdir file", errNoRepo, name)
	}
	p = strings.TrimSpace(p)
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(name), p)
	}
	return filepath.Clean(p), nil
}

func isRepoDir(d string) bool {
	fi, err := os.Stat(filepath.Join(d, "HEAD"))
	return err == nil && fi.Mode().IsRegular()
}

// isBare reports whether dir is itself a bare repository: a HEAD, objects
// and refs with no .git around them. The git tools refuse it (git runs with
// safe.bareRepository=explicit and they read a work tree), but say so.
func isBare(dir string) bool {
	for _, d := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(dir, d)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return isRepoDir(dir)
}

// rootRepo returns the repository pinned for the root real at start or,
// when there was none, a `.git` folder made at the root since (git init);
// never a `.git` file or link made since, which a confined command could
// point anywhere.
func (s *server) rootRepo(real string) (*repo, error) {
	if r, ok := s.repos[real]; ok {
		return r, nil
	}
	dotgit := filepath.Join(real, ".git")
	fi, err := os.Lstat(dotgit)
	if err != nil || !fi.IsDir() || !isRepoDir(dotgit) {
		return nil, errNoRepo
	}
	return &repo{top: real, gitDir: dotgit, common: dotgit}, nil
}
