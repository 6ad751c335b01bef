package fs

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// LeftOut walks the folder r as Scan does — folders opened from their
// parent, never through a symlink, .gitignore files read only when they
// are regular files, .git never entered — and returns, as one ignore file
// in .gitignore syntax anchored at r's root, what a walk of r leaves out:
// every entry the policy withholds (a secret, a denied path, juju's own
// folders and files, a name an owner's glob written from a nested root
// covers) and every entry .gitignore excludes (the root's
// .git/info/exclude, the .gitignore of every folder above r and below it),
// each spelt as its exact root-relative path, folders not entered. Juju's
// own folders inside the root are named too, whether or not they exist
// yet.
//
// A search program told to read this file and no ignore file of its own
// (ripgrep's --no-ignore --ignore-file) then visits what Scan visits, with
// the same rules, without opening any file of the tree to learn them.
// Names that are not UTF-8 are not entered (Scan leaves them out); names
// holding a line break cannot be spelt in the file and are left to the
// caller's own checks, as is anything below maxDepth.
func LeftOut(ctx context.Context, pol *policy.Policy, r *policy.Resolved, maxDepth int) ([]byte, *abi.Error) {
	if !r.Info.IsDir() {
		return nil, abi.Errorf(abi.InvalidArgument, "%q is a file, not a folder; pass a folder", r.Display)
	}
	d, e := openWalk(pol, r)
	if e != nil {
		return nil, e
	}
	lo := &leftOut{ctx: ctx, pol: pol, root: r.Root, maxDepth: maxDepth, slots: make(chan struct{}, max(runtime.GOMAXPROCS(0)-1, 0))}
	var own []byte
	for _, priv := range slices.Compact(slices.Sorted(slices.Values(r.Root.Private()))) {
		own = appendLine(own, priv)
	}
	lo.add(own)
	lo.walk(d, r.Rel, loadIgnores(r.Root, r.Rel), 0)
	lo.wg.Wait()
	if e := canceled(ctx); e != nil {
		return nil, e
	}
	return lo.out, nil
}

// leftOut is one LeftOut walk: folders are walked on up to GOMAXPROCS
// goroutines (the lines' order does not matter: none re-includes).
type leftOut struct {
	ctx      context.Context
	pol      *policy.Policy
	root     *policy.Root
	maxDepth int
	slots    chan struct{} // free extra workers
	wg       sync.WaitGroup

	mu  sync.Mutex
	out []byte
}

// walk notes what the folder d, root-relative rel, leaves out, and closes it.
func (lo *leftOut) walk(d walkDir, rel string, ign ignoreStack, depth int) {
	defer d.Close()
	if lo.ctx.Err() != nil {
		return
	}
	ents, ign, ok := readFolder(d, rel, ign, true)
	if !ok {
		return
	}
	var dirs []string
	var lines []byte
	for _, de := range ents {
		name, typ := de.name, de.typ
		erel := joinRel(rel, name)
		switch {
		case name == ".git" || !utf8.ValidString(name):
		case lo.pol.Hidden(lo.root, erel) || ign.ignored(erel, typ.IsDir()):
			lines = appendLine(lines, erel)
		case typ.IsDir():
			dirs = append(dirs, name)
		}
	}
	lo.add(lines)
	if depth >= lo.maxDepth {
		return
	}
	for _, name := range dirs {
		if child, err := d.Child(name); err == nil {
			lo.spawn(child, joinRel(rel, name), ign, depth+1)
		}
	}
}

// spawn walks a subfolder on a free worker, or here when none is free.
func (lo *leftOut) spawn(d walkDir, rel string, ign ignoreStack, depth int) {
	select {
	case lo.slots <- struct{}{}:
		lo.wg.Add(1)
		go func() {
			defer func() { <-lo.slots; lo.wg.Done() }()
			lo.walk(d, rel, ign, depth)
		}()
	default:
		lo.walk(d, rel, ign, depth)
	}
}

// add appends a folder's lines to the file.
func (lo *leftOut) add(lines []byte) {
	if len(lines) == 0 {
		return
	}
	lo.mu.Lock()
	lo.out = append(lo.out, lines...)
	lo.mu.Unlock()
}

// appendLine appends to b the line that leaves out the root-relative path
// rel: "/" (anchored at the root) and rel with every character a glob or
// the .gitignore syntax reads escaped. A name holding a line break cannot
// be spelt on one line and is passed over.
func appendLine(b []byte, rel string) []byte {
	if rel == "." || strings.ContainsAny(rel, "\n\r") {
		return b
	}
	b = append(b, '/')
	for i := 0; i < len(rel); i++ {
		switch c := rel[i]; c {
		case '\\', '*', '?', '[', ']', '{', '}', ' ', '\t':
			b = append(b, '\\', c)
		default:
			b = append(b, c)
		}
	}
	return append(b, '\n')
}
