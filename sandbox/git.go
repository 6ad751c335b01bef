package sandbox

import (
	"io"
	"os"
	"path/filepath"
	"strings"
)

// GitControl lists, relative to a git folder, what redirects git or
// configures it — to other object stores, other git folders, other
// hooks, configuration and attributes — and so must stay read-only in a
// sandboxed command: a command that wrote one could make the git that
// juju runs outside the sandbox (git_commit) run code of its choosing.
// Everything else in .git (objects, refs, logs, index, HEAD and their lock
// files) stays writable, so git add, commit and checkout work inside.
var GitControl = []string{
	"config",
	"config.worktree",
	"commondir",    // a linked worktree's pointer to the main git folder
	"gitdir",       // a worktree's pointer back to its checkout
	"hooks",        // programs git runs
	"info",         // attributes, exclude, sparse-checkout, grafts
	"objects/info", // alternates: other object stores
	"worktrees",    // each linked worktree's git folder, its commondir and gitdir
	"modules",      // each submodule's git folder
	"remotes",      // remotes in the old file format
	"branches",     // idem
}

// GitGuard is what the sandbox guards of one workspace root's git
// metadata: see GuardGit.
type GitGuard struct {
	Pinned   []string // writable, but neither renamed, removed nor replaced
	ReadOnly []string
}

// GuardGit finds what to guard of root's .git, as it is now:
//
//   - a .git folder is pinned, and so is its objects folder (which holds
//     objects/info); each GitControl path under it is read-only, listed
//     whether or not it exists;
//   - a .git file (the pointer of a linked worktree or a submodule, or of
//     a work tree made with git init --separate-git-dir) or a .git
//     symbolic link is read-only itself. The git folder it leads to is
//     guarded as a .git folder is when it lies inside root (gitFolderIn):
//     a command wrote its config and hooks, which the owner's git then
//     honoured. Elsewhere it is the guard of the root that holds it, or
//     outside every root and read-only anyway;
//   - no .git: nothing.
//
// The sandbox cannot stop a command from creating a GitControl path that
// did not exist (bubblewrap binds only what is there; see Bubblewrap.Args),
// nor a .git in a root that had none: juju's own git (hostfns/git) must not
// honour what appeared later — it names git's folders itself in the
// environment and sets the configuration that matters on its command line.
func GuardGit(root string) GitGuard {
	dotgit := filepath.Join(root, ".git")
	fi, err := os.Lstat(dotgit)
	switch {
	case err != nil:
		return GitGuard{}
	case !fi.IsDir(): // a file, or a link (never pinned: see Policy.Pinned)
		g := GitGuard{ReadOnly: []string{dotgit}}
		if dir, ok := gitFolderIn(root, dotgit, fi); ok {
			in := guardFolder(dir)
			g.Pinned, g.ReadOnly = in.Pinned, append(g.ReadOnly, in.ReadOnly...)
		}
		return g
	}
	return guardFolder(dotgit)
}

// guardFolder is the guard of a git folder: the folder and its objects
// folder pinned, each GitControl path under it read-only.
func guardFolder(dir string) GitGuard {
	g := GitGuard{Pinned: []string{dir}}
	objects := filepath.Join(dir, "objects")
	if fi, err := os.Lstat(objects); err == nil && fi.IsDir() {
		g.Pinned = append(g.Pinned, objects)
	}
	for _, name := range GitControl {
		g.ReadOnly = append(g.ReadOnly, filepath.Join(dir, filepath.FromSlash(name)))
	}
	return g
}

// gitFolderIn returns the git folder that dotgit, a .git file or link
// (fi), leads to, resolved, when it is a folder strictly inside root.
func gitFolderIn(root, dotgit string, fi os.FileInfo) (string, bool) {
	var target string
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		t, err := os.Readlink(dotgit)
		if err != nil {
			return "", false
		}
		target = t
	case fi.Mode().IsRegular():
		f, err := os.Open(dotgit)
		if err != nil {
			return "", false
		}
		defer f.Close()
		var b [4096]byte // git's own limit on a .git file is larger; a longer one names no folder here
		n, _ := io.ReadFull(f, b[:])
		line, _, _ := strings.Cut(string(b[:n]), "\n")
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
		if !ok {
			return "", false
		}
		target = strings.TrimSpace(rest)
	}
	if target == "" {
		return "", false
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(root, target)
	}
	dir, err := filepath.EvalSymlinks(target)
	if err != nil || !strings.HasPrefix(dir, root+string(filepath.Separator)) {
		return "", false
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return "", false
	}
	return dir, true
}

// AddRoot adds a workspace root to p: writable, the root itself pinned
// (for sandbox-exec, which otherwise lets a command move it away and make
// a new one; under bubblewrap its own bind already pins it), and its git
// metadata guarded by GuardGit.
//
// root must be the root's real path, resolved once when juju started (as
// the path policy resolves its roots), and is not resolved again: a root
// inside another may be reached through folders a command can replace, and
// resolved anew it would lead wherever the command's link points. Such a
// root is bound only as a pin, whose bind the helper checks, and written
// through the outer root's bind (Policy.clean).
func (p *Policy) AddRoot(root string) {
	g := GuardGit(root)
	p.Write = append(p.Write, root)
	p.Pinned = append(append(p.Pinned, root), g.Pinned...)
	p.ReadOnly = append(p.ReadOnly, g.ReadOnly...)
}
