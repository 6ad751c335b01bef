package policy

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/jujutools/juju/sdk/abi"
)

const (
	maxHops    = 40   // symlinks followed in one resolution, as Linux's ELOOP
	maxPathLen = 4096 // PATH_MAX
	maxNameLen = 255  // NAME_MAX
	// maxDepth bounds the names of a path: each is resolved on its own,
	// and a path of 2,000 names took the whole of a call's time.
	maxDepth = 256
	// maxLinkNames bounds, in the same way, the names the targets of the
	// links met in one resolution add together: 40 links of 4,000 bytes
	// ("d/../d/../…") made a resolution walk 62,000 names (0.6 s), and a
	// folder of 100 links to such a chain failed every listing.
	maxLinkNames = 256
)

// Resolved is where a requested path lands.
type Resolved struct {
	// Root is the root the path lies in.
	Root *Root
	// Rel is the slash-separated, symlink-free path inside Root ("." for
	// the root itself).
	Rel string
	// Display is the path as the model sees it: relative to the first root,
	// absolute for the others.
	Display string
	// Info is the Lstat of the final resolved name; nil when the path does
	// not exist yet (ResolveForWrite only).
	Info fs.FileInfo
	// Link is set when the requested path itself was a symlink: the display
	// path of where it leads.
	Link string
	// Name is the display path of the requested name itself: Display, unless
	// the request's last name was a symlink, in which case it is the link's
	// own path (with the folders above it resolved).
	Name string

	chain   []fs.FileInfo // Lstat of each folder above Rel's last name, for Open
	beneath bool          // resolved by openat2: no chain, Open uses openat2
}

// Exists reports whether the resolved path exists.
func (r *Resolved) Exists() bool { return r.Info != nil }

// Resolve takes a path from the model (relative to the first root, or
// absolute inside any root), resolves `..` and symlinks, and returns where it
// lands, or an error with code PATH_DENIED, SECRET_DENIED, NOT_FOUND or
// INVALID_ARGUMENT (and, rarely, FILE_CHANGED or INTERNAL when the disk
// changes under the walk) whose message tells the model what to do next.
func (p *Policy) Resolve(path string) (*Resolved, *abi.Error) {
	return p.resolve(path, false)
}

// ResolveForWrite is Resolve for a path about to be written: the last names
// of the path may be missing (Info is then nil), and the result must pass
// Writable.
func (p *Policy) ResolveForWrite(path string) (*Resolved, *abi.Error) {
	r, e := p.resolve(path, true)
	if e != nil {
		return nil, e
	}
	if e := p.Writable(r); e != nil {
		return nil, e
	}
	return r, nil
}

// Validate refuses what cannot be a path at all (empty, a NUL byte, not
// UTF-8, a name or the whole longer than the file system takes, too many
// names deep), before anything else is done. Every resolution applies it;
// a caller that resolves a path in parts (the folder above a name, then
// the name) applies it to the whole path first.
func Validate(req string) *abi.Error {
	switch {
	case req == "":
		return abi.Errorf(abi.InvalidArgument, `the path is empty; pass a path relative to the workspace root ("." for the root itself)`)
	case strings.IndexByte(req, 0) >= 0:
		return abi.Errorf(abi.InvalidArgument, "the path contains a NUL byte, which no file name can hold; pass the plain path")
	case !utf8.ValidString(req):
		return abi.Errorf(abi.InvalidArgument, "the path is not valid UTF-8; pass the path as it appears in list_directory")
	case len(req) > maxPathLen:
		return abi.Errorf(abi.InvalidArgument, "the path is longer than %d bytes; pass a shorter path", maxPathLen)
	}
	depth := 0
	for name := range strings.SplitSeq(req, "/") {
		if len(name) > maxNameLen {
			return abi.Errorf(abi.InvalidArgument, "a name in the path is longer than %d bytes, which no file name can be; check the path", maxNameLen)
		}
		if name != "" && name != "." {
			depth++
		}
	}
	if depth > maxDepth {
		return abi.Errorf(abi.InvalidArgument, "the path is %d names deep, more than the %d juju resolves; use a shallower path", depth, maxDepth)
	}
	return nil
}

// precheck applies the name rules to the request as written, before any
// file system call, so that a secret is SECRET_DENIED even when the walk
// would not reach it (a missing folder before `..`, say).
func (p *Policy) precheck(req string) *abi.Error {
	if !strings.HasPrefix(req, "/") {
		clean := path.Clean(req)
		if clean == ".." || strings.HasPrefix(clean, "../") {
			// Written to climb out of the first root: fine if it lands in
			// a root (the walk then checks every step), else refused as
			// such whether or not the folders it climbs through exist.
			abs := filepath.Join(p.roots[0].Path, filepath.FromSlash(clean))
			for _, r := range p.roots {
				if Within(abs, r.Path) || Within(abs, r.Real) {
					return nil
				}
			}
			return p.outsideError(req)
		}
		return p.Check(p.roots[0], clean)
	}
	clean := filepath.Clean(req)
	for _, priv := range p.private {
		if withinFold(clean, priv) {
			return privateError(req)
		}
	}
	for _, r := range p.roots {
		for _, s := range []string{r.Path, r.Real} {
			if Within(clean, s) {
				rel, err := filepath.Rel(s, clean)
				if err != nil {
					continue
				}
				return p.Check(r, filepath.ToSlash(rel))
			}
		}
	}
	return nil
}

// step is one name of the path still to walk.
type step struct {
	name string
	last bool // the last name of the request itself
	link bool // comes from a symlink's target
}

func splitSteps(p string, markLast, link bool) []step {
	var out []step
	for name := range strings.SplitSeq(p, "/") {
		if name != "" && name != "." {
			out = append(out, step{name: name, link: link})
		}
	}
	if markLast && len(out) > 0 {
		out[len(out)-1].last = true
	}
	return out
}

// frame is one folder or file of the walk inside a root.
type frame struct {
	name string
	info fs.FileInfo // nil for a name that does not exist (ResolveForWrite)
	dir  *os.Root    // opened lazily when the walk goes inside
}

// walker resolves one request. It is either inside a root (root != nil,
// stack holds the symlink-free names below it) or outside every root
// (outside holds an absolute path built lexically, never looked at).
type walker struct {
	p        *Policy
	req      string
	root     *Root
	stack    []frame
	outside  string
	hops     int
	linkSize int    // names the links' targets added to the walk
	linked   bool   // the request's last name was a symlink
	linkName string // then, the display path of that link
	leftLink bool   // the walk left the roots through a symlink
}

func (p *Policy) resolve(req string, allowMissing bool) (*Resolved, *abi.Error) {
	if e := Validate(req); e != nil {
		return nil, e
	}
	if e := p.precheck(req); e != nil {
		return nil, e
	}
	if r, ok := p.fastResolve(req); ok {
		return r, nil // the precheck applied the name rules to every name
	}
	w := &walker{p: p, req: req}
	defer w.closeAll()
	queue := splitSteps(req, true, false)
	if strings.HasPrefix(req, "/") {
		w.outside = string(filepath.Separator)
		queue = w.enter(queue)
	} else {
		w.root = p.roots[0]
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if s.name == ".." {
			var e *abi.Error
			if queue, e = w.up(queue, s.link); e != nil {
				return nil, e
			}
			continue
		}
		if w.root == nil {
			w.outside = filepath.Join(w.outside, s.name)
			queue = w.enter(queue)
			continue
		}
		if e := w.parentIsDir(); e != nil {
			return nil, e
		}
		rel := w.rel(s.name)
		if e := p.checkOne(w.root, rel); e != nil {
			return nil, e
		}
		dir, e := w.dir()
		if e != nil {
			return nil, e
		}
		fi, err := dir.Lstat(s.name)
		if err != nil {
			if allowMissing && errors.Is(err, fs.ErrNotExist) && onlyNames(queue) {
				if e := w.pushMissing(s, queue); e != nil {
					return nil, e
				}
				queue = nil
				break
			}
			if w.hops > 0 && errors.Is(err, fs.ErrNotExist) {
				return nil, danglingError(req, p.Display(w.root, rel))
			}
			if errors.Is(err, fs.ErrNotExist) && !s.link {
				if near := p.nearName(w.root, w.cur(), dir, s.name); near != "" {
					return nil, nearNameError(req, p.Display(w.root, w.cur()), s.name, near)
				}
			}
			return nil, osError(req, p.Display(w.root, rel), err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			w.stack = append(w.stack, frame{name: s.name, info: fi})
			continue
		}
		w.hops++
		if w.hops > maxHops {
			return nil, loopError(req)
		}
		target, err := dir.Readlink(s.name)
		if errors.Is(err, syscall.EINVAL) {
			// No longer a link since the lstat above: the name was
			// replaced while juju walked it.
			return nil, changedError(req)
		}
		if err != nil {
			return nil, osError(req, p.Display(w.root, rel), err)
		}
		if target == "" {
			return nil, notFoundError(req)
		}
		if s.last && !w.linked {
			w.linked, w.linkName = true, p.Display(w.root, rel)
		}
		steps := splitSteps(target, false, true)
		if w.linkSize += len(steps); w.linkSize > maxLinkNames {
			return nil, linkSizeError(req)
		}
		queue = append(steps, queue...)
		if strings.HasPrefix(target, "/") {
			w.leave(string(filepath.Separator), true)
			queue = w.enter(queue)
		}
	}
	if w.root == nil {
		for _, priv := range p.private {
			if withinFold(w.outside, priv) {
				return nil, privateError(req)
			}
		}
		if w.leftLink {
			return nil, p.linkOutError(req)
		}
		return nil, p.outsideError(req)
	}
	return w.result()
}

// result builds the Resolved once the walk has ended inside a root.
func (w *walker) result() (*Resolved, *abi.Error) {
	p := w.p
	names := make([]string, len(w.stack))
	for i, f := range w.stack {
		names[i] = f.name
	}
	rel := "."
	if len(names) > 0 {
		rel = strings.Join(names, "/")
	}
	if e := p.Check(w.root, rel); e != nil {
		return nil, e
	}
	r := &Resolved{Root: w.root, Rel: rel, Display: p.Display(w.root, rel)}
	if len(w.stack) == 0 {
		fi, err := w.root.OS.Lstat(".")
		if err != nil {
			return nil, osError(w.req, r.Display, err)
		}
		r.Info = fi
	} else {
		r.Info = w.stack[len(w.stack)-1].info
		for _, f := range w.stack[:len(w.stack)-1] {
			r.chain = append(r.chain, f.info)
		}
	}
	if r.Info != nil && !r.Info.IsDir() && namesFolder(w.req) {
		return nil, NotDirError(w.req, r.Display)
	}
	r.Name = r.Display
	if w.linked {
		r.Link, r.Name = r.Display, w.linkName
	}
	return r, nil
}

// namesFolder reports whether req can only name a folder, as the kernel
// reads it: it ends in a slash, or in "/." ("f.txt/." is ENOTDIR, not
// f.txt).
func namesFolder(req string) bool {
	return strings.HasSuffix(req, "/") || strings.HasSuffix(req, "/.")
}

func (w *walker) rel(name string) string {
	var b strings.Builder
	for _, f := range w.stack {
		b.WriteString(f.name)
		b.WriteByte('/')
	}
	b.WriteString(name)
	return b.String()
}

// cur is the root-relative path of the stack.
func (w *walker) cur() string {
	if len(w.stack) == 0 {
		return "."
	}
	return strings.TrimSuffix(w.rel(""), "/")
}

// parentIsDir refuses to go below a name that is not a folder.
func (w *walker) parentIsDir() *abi.Error {
	if n := len(w.stack); n > 0 && (w.stack[n-1].info == nil || !w.stack[n-1].info.IsDir()) {
		return NotDirError(w.req, w.p.Display(w.root, w.cur()))
	}
	return nil
}

// dir returns a handle on the current folder, opening the folders of the
// stack that are not open yet and checking that each is the folder Lstat saw.
func (w *walker) dir() (*os.Root, *abi.Error) {
	cur := w.root.OS
	for i := range w.stack {
		f := &w.stack[i]
		if f.dir == nil {
			sub, e := openVerified(cur, f.name, f.info, w.req, w.p.Display(w.root, w.cur()))
			if e != nil {
				return nil, e
			}
			f.dir = sub
		}
		cur = f.dir
	}
	return cur, nil
}

// openVerified opens the folder name below parent and checks that it is the
// one described by want: a folder swapped for a symlink after want was taken
// is refused.
func openVerified(parent *os.Root, name string, want fs.FileInfo, req, display string) (*os.Root, *abi.Error) {
	sub, err := parent.OpenRoot(name)
	if err != nil {
		return nil, osError(req, display, err)
	}
	got, err := sub.Stat(".")
	if err != nil {
		sub.Close()
		return nil, osError(req, display, err)
	}
	if !SameFile(got, want) {
		sub.Close()
		return nil, changedError(display)
	}
	return sub, nil
}

// up resolves "..", which comes from a symlink's target when viaLink.
func (w *walker) up(queue []step, viaLink bool) ([]step, *abi.Error) {
	if w.root == nil {
		w.outside = filepath.Dir(w.outside)
		return w.enter(queue), nil
	}
	if n := len(w.stack); n > 0 {
		if e := w.parentIsDir(); e != nil {
			return nil, e
		}
		if d := w.stack[n-1].dir; d != nil {
			d.Close()
		}
		w.stack = w.stack[:n-1]
		return queue, nil
	}
	w.leave(filepath.Dir(w.root.Real), viaLink)
	return w.enter(queue), nil
}

// leave moves the walk outside the roots, to the absolute path abs.
func (w *walker) leave(abs string, viaLink bool) {
	w.closeAll()
	w.root, w.stack = nil, nil
	w.outside = abs
	w.leftLink = viaLink
}

// enter moves a walk that is outside the roots back into the first root
// whose spelling holds the current path; the names below that root are put
// back in front of the queue, to be walked (and checked) like the others.
func (w *walker) enter(queue []step) []step {
	for _, r := range w.p.roots {
		for _, s := range []string{r.Path, r.Real} {
			if !Within(w.outside, s) {
				continue
			}
			rest, err := filepath.Rel(s, w.outside)
			if err != nil {
				continue
			}
			w.root, w.stack, w.outside = r, nil, ""
			return append(splitSteps(filepath.ToSlash(rest), false, false), queue...)
		}
	}
	return queue
}

// pushMissing records s and the rest of the queue as names that do not
// exist yet, each checked against the name rules.
func (w *walker) pushMissing(s step, queue []step) *abi.Error {
	for _, st := range append([]step{s}, queue...) {
		if st.name == "." || st.name == "" {
			continue
		}
		if e := w.p.checkOne(w.root, w.rel(st.name)); e != nil {
			return e
		}
		w.stack = append(w.stack, frame{name: st.name})
	}
	return nil
}

func onlyNames(queue []step) bool {
	for _, s := range queue {
		if s.name == ".." {
			return false
		}
	}
	return true
}

func (w *walker) closeAll() {
	for i := range w.stack {
		if d := w.stack[i].dir; d != nil {
			d.Close()
			w.stack[i].dir = nil
		}
	}
}
