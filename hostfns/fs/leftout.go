package fs

import (
	"context"
	"errors"
	iofs "io/fs"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
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
	out, _, e := leftOutWalk(ctx, pol, r, maxDepth, nil)
	return out, e
}

// leftOutWalk is LeftOut, reusing what the walk prev (nil for none) found
// of every folder that has not changed since, and returning its own walk
// for the next one (nil when it ran out of time).
func leftOutWalk(ctx context.Context, pol *policy.Policy, r *policy.Resolved, maxDepth int, prev *loTree) ([]byte, *loTree, *abi.Error) {
	if !r.Info.IsDir() {
		return nil, nil, notAFolder(r, "pass a folder")
	}
	// A change stamps an entry with a time a clock tick or so behind now:
	// what was stamped after start minus racyWindow may change again with
	// the same stamp, and is read anew next time.
	start := time.Now().Add(-racyWindow).UnixNano()
	above, aboveOK := aboveStamps(r.Root, r.Rel, start)
	d, e := openWalk(pol, r)
	if e != nil {
		return nil, nil, e
	}
	lo := &leftOut{ctx: ctx, pol: pol, root: r.Root, maxDepth: maxDepth, settled: start, slots: make(chan struct{}, max(runtime.GOMAXPROCS(0)-1, 0))}
	var own []byte
	for _, priv := range slices.Compact(slices.Sorted(slices.Values(r.Root.Private()))) {
		own = appendLine(own, priv)
	}
	lo.add(own)
	var prevNode *loNode
	same := false
	if prev != nil {
		prevNode = prev.node
		same = prev.aboveOK && slices.Equal(prev.above, above)
	}
	t := &loTree{above: above, aboveOK: aboveOK}
	lo.walk(d, r.Rel, loadIgnores(r.Root, r.Rel), 0, prevNode, same, &t.node)
	lo.wg.Wait()
	if e := canceled(ctx); e != nil {
		return nil, nil, e
	}
	t.folders, t.read = int(lo.folders.Load()), int(lo.reads.Load())
	return lo.out, t, nil
}

// racyWindow is how recent a change must be for its stamp not to be
// trusted: well above a clock tick (4 ms at 250 Hz), and above the 2 s of
// file systems that keep times to the even second.
var racyWindow = 3 * time.Second

// leftOut is one LeftOut walk: folders are walked on up to GOMAXPROCS
// goroutines (the lines' order does not matter: none re-includes).
type leftOut struct {
	ctx      context.Context
	pol      *policy.Policy
	root     *policy.Root
	maxDepth int
	settled  int64         // a stamp's ctime before this (ns) is settled
	slots    chan struct{} // free extra workers
	wg       sync.WaitGroup
	folders  atomic.Int64
	reads    atomic.Int64

	mu  sync.Mutex
	out []byte
}

// loTree is what one walk found, for the next to reuse.
type loTree struct {
	above   []stamp // of the ignore files loadIgnores reads (zero: none)
	aboveOK bool    // every one settled
	node    *loNode // the folder walked
	folders int     // folders known
	read    int     // folders read anew
}

// loNode is what a walk found of one folder. It is not changed once the
// walk is done: a later walk shares what it reuses.
type loNode struct {
	st      stamp // the folder's, taken before its entries were read
	gi      stamp // its regular .gitignore's, taken before the read (zero: none)
	trusted bool  // both settled, and everything read: reusable while they hold
	giOK    bool  // the .gitignore (or its absence) is settled and was read
	rules   *ignoreFile
	lines   []byte   // what this folder's entries leave out
	dirs    []string // the subfolders entered
	kids    []*loNode
}

// walk notes what the folder d, root-relative rel, leaves out, sets *n to
// what it found, and closes d. prev is what the last walk found there
// (nil for nothing); same says that every rule above applies as it did
// then, so that prev can be reused where the folder has not changed.
func (lo *leftOut) walk(d walkDir, rel string, ign ignoreStack, depth int, prev *loNode, same bool, n **loNode) {
	defer d.Close()
	if lo.ctx.Err() != nil {
		return
	}
	lo.folders.Add(1)
	fi, err := d.Stat()
	var st stamp
	stOK := false
	if err == nil {
		st, stOK = stampOf(fi)
	}
	node := &loNode{st: st}
	reused := same && prev != nil && prev.trusted && stOK && prev.st == st && lo.sameIgnore(d, prev)
	if reused {
		// The folder's entries and its .gitignore are what they were.
		node.gi, node.trusted, node.giOK, node.rules, node.lines, node.dirs = prev.gi, true, true, prev.rules, prev.lines, prev.dirs
		ign = ign.push(prev.rules)
	} else {
		var ok bool
		if ign, ok = lo.read(d, rel, ign, depth, node, stOK); !ok {
			return
		}
		same = same && prev != nil && prev.giOK && node.giOK && prev.gi == node.gi
	}
	*n = node
	lo.add(node.lines)
	node.kids = make([]*loNode, len(node.dirs))
	var prevKid map[string]*loNode // when the folder was read anew
	if same && prev != nil && !reused {
		prevKid = make(map[string]*loNode, len(prev.dirs))
		for j, name := range prev.dirs {
			prevKid[name] = prev.kids[j]
		}
	}
	for i, name := range node.dirs {
		kp := prevKid[name]
		if reused {
			kp = prev.kids[i]
		}
		// A folder with no subfolder and no .gitignore, unchanged, is
		// known without being opened.
		if kp != nil && kp.trusted && len(kp.dirs) == 0 && kp.gi == (stamp{}) {
			if cfi, err := d.Lstat(name); err == nil {
				if cst, ok := stampOf(cfi); ok && cst == kp.st {
					node.kids[i] = kp
					lo.folders.Add(1)
					lo.add(kp.lines)
					continue
				}
			}
		}
		if child, err := d.Child(name); err == nil {
			lo.spawn(child, joinRel(rel, name), ign, depth+1, kp, same, &node.kids[i])
		}
	}
}

// sameIgnore reports whether the .gitignore of d is the one prev read.
func (lo *leftOut) sameIgnore(d walkDir, prev *loNode) bool {
	if prev.gi == (stamp{}) {
		return true // none then; adding one changes the folder
	}
	fi, err := d.Lstat(".gitignore")
	if err != nil {
		return false
	}
	st, ok := stampOf(fi)
	return ok && st == prev.gi
}

// read reads the folder d anew into node and returns the rules for its
// subfolders; ok is false when nothing could be read.
func (lo *leftOut) read(d walkDir, rel string, ign ignoreStack, depth int, node *loNode, stOK bool) (_ ignoreStack, ok bool) {
	lo.reads.Add(1)
	ents, err := d.ReadDir()
	if err != nil && len(ents) == 0 {
		return ign, false
	}
	node.trusted = err == nil && stOK && node.st.ctime < lo.settled
	node.giOK = true
	if slices.ContainsFunc(ents, isGitignore) {
		data, fi, err := d.ReadFile(".gitignore", maxIgnoreFile)
		gst, gok := stamp{}, false
		if fi != nil {
			gst, gok = stampOf(fi)
		}
		node.gi = gst
		node.giOK = err == nil && gok && gst.ctime < lo.settled
		node.trusted = node.trusted && node.giOK
		if err == nil {
			node.rules = parseIgnore(relBase(rel), data)
			ign = ign.push(node.rules)
		}
	}
	for _, de := range ents {
		name, typ := de.name, de.typ
		erel := joinRel(rel, name)
		switch {
		case name == ".git" || !utf8.ValidString(name):
		case lo.pol.Hidden(lo.root, erel) || ign.ignored(erel, typ.IsDir()):
			node.lines = appendLine(node.lines, erel)
		case typ.IsDir() && depth < lo.maxDepth:
			node.dirs = append(node.dirs, name)
		}
	}
	return ign, true
}

// spawn walks a subfolder on a free worker, or here when none is free.
func (lo *leftOut) spawn(d walkDir, rel string, ign ignoreStack, depth int, prev *loNode, same bool, n **loNode) {
	select {
	case lo.slots <- struct{}{}:
		lo.wg.Add(1)
		go func() {
			defer func() { <-lo.slots; lo.wg.Done() }()
			lo.walk(d, rel, ign, depth, prev, same, n)
		}()
	default:
		lo.walk(d, rel, ign, depth, prev, same, n)
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

// aboveStamps stamps the ignore files loadIgnores reads for the folder rel
// (zero for one missing), before it reads them; ok says every one is
// settled (changed before settled, in ns).
func aboveStamps(root *policy.Root, rel string, settled int64) (stamps []stamp, ok bool) {
	names := []string{".git/info/exclude"}
	if rel != "." && rel != "" {
		parts := strings.Split(rel, "/")
		for i := range parts {
			names = append(names, joinRel(strings.Join(parts[:i], "/"), ".gitignore"))
		}
	}
	ok = true
	for _, name := range names {
		var st stamp
		if fi, err := root.OS.Lstat(name); err == nil {
			var sok bool
			st, sok = stampOf(fi)
			ok = ok && sok && st.ctime < settled
		} else if !errors.Is(err, iofs.ErrNotExist) {
			ok = false
		}
		stamps = append(stamps, st)
	}
	return stamps, ok
}

// stamp is what a stat says of an entry that changes when the entry does
// (stampOf): a folder's times move when an entry is added, removed or
// renamed in it, a file's when it is written.
type stamp struct {
	dev, ino     uint64
	size         int64
	mode         uint32
	mtime, ctime int64 // ns
}

// LeftOuts is LeftOut with memory: it keeps what the last walk of each
// folder found, and the next walk of the folder reads anew only the
// folders that changed since (their stamps differ, or were too recent to
// trust: racyWindow), and those below a .gitignore that changed; a folder
// that did not change is known by a stat, a folder with subfolders by
// opening it and a stat. What it returns is what LeftOut would.
type LeftOuts struct {
	mu    sync.Mutex
	trees map[leftOutsKey]*loTree
}

type leftOutsKey struct {
	root     *policy.Root
	rel      string
	maxDepth int
}

// Bounds of what LeftOuts keeps: a few folders walked (a search's path),
// each of at most leftOutsMaxFolders folders (some hundred bytes each).
const (
	leftOutsMaxTrees   = 4
	leftOutsMaxFolders = 50_000
)

// LeftOut is LeftOut.
func (c *LeftOuts) LeftOut(ctx context.Context, pol *policy.Policy, r *policy.Resolved, maxDepth int) ([]byte, *abi.Error) {
	key := leftOutsKey{r.Root, r.Rel, maxDepth}
	c.mu.Lock()
	prev := c.trees[key]
	c.mu.Unlock()
	out, t, e := leftOutWalk(ctx, pol, r, maxDepth, prev)
	if e != nil {
		return nil, e
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.folders > leftOutsMaxFolders {
		delete(c.trees, key)
		return out, nil
	}
	if c.trees == nil {
		c.trees = map[leftOutsKey]*loTree{}
	}
	if _, ok := c.trees[key]; !ok && len(c.trees) >= leftOutsMaxTrees {
		for k := range c.trees { // any one
			delete(c.trees, k)
			break
		}
	}
	c.trees[key] = t
	return out, nil
}
