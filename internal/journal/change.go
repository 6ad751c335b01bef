package journal

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// maxPaths bounds the paths one change touches (a recursive delete or a
// folder move expands to every path inside).
const maxPaths = 5000

// key names a path inside one root.
type key struct {
	root int
	rel  string
}

// slot is one path a change touches: its state on disk when first seen,
// and its state after the operations so far.
type slot struct {
	key
	r       *policy.Root
	display string
	before  image
	pre     []byte
	after   image
	post    []byte
	count   int // replacements made by edits
	order   int
	counted int64 // the new content counted in draft.bytes
}

// real is the slot's path on disk, symlink-free: its root's real path and
// its root-relative path, which the policy resolved free of links.
func (s *slot) real() string {
	return filepath.Join(s.r.Real, filepath.FromSlash(s.rel))
}

// draft is a change being computed, over a virtual view of the disk.
type draft struct {
	j     *Journal
	ctx   context.Context // the call's: out of time, nothing is written
	slots map[key]*slot
	// reals are the slots by real path: with one root inside another, a
	// path has a spelling in each (slot).
	reals map[string]*slot
	// undoing: the draft rolls changes back (the answer to a path named
	// two ways differs).
	undoing bool
	n       int
	bytes   int64 // the new contents held, every path together (maxChangeBytes)
	pre     int64 // the old contents read, every path together (maxPreImageBytes)
	// reader is the client the change is made for (ReadLog).
	reader string
	// folders are those a replayed change needs that are not folders now.
	folders []wantFolder
	// moved are the first hunks of a patch placed at another line than
	// their headers name (abi.MaxHunkOffsets), movedMore how many more.
	moved     []abi.HunkOffset
	movedMore int
}

// maxChangeBytes bounds the new contents of one change, every path
// together (see abi.MaxChangeBytes); a variable so tests can lower it.
var maxChangeBytes int64 = abi.MaxChangeBytes

// maxPreImageBytes bounds the old contents one change reads, every path
// together: each is held in memory and stored in the journal as the
// change's undo, in one transaction (a recursive delete of 12 files of
// 30 MiB took 1.2 GiB of memory, 66 s, and grew the journal past its
// 256 MiB limit in one change). A quarter of the journal's default size
// keeps one change from pushing out most of the undo history.
var maxPreImageBytes int64 = 64 << 20

func (j *Journal) newDraft(ctx context.Context) *draft {
	return &draft{j: j, ctx: ctx, slots: map[key]*slot{}, reals: map[string]*slot{}}
}

// errOutOfTime is the answer when the call's time ran out before the
// change's intent was recorded: nothing was written.
var errOutOfTime = abi.Errorf(abi.Timeout, "the call ran out of time while the change was computed; nothing was written. Make a smaller change")

// expired reports whether the call's time ran out.
func (d *draft) expired() *abi.Error {
	if d.ctx != nil && d.ctx.Err() != nil {
		return errOutOfTime
	}
	return nil
}

// count makes the new content of s n bytes long in the change's total.
func (d *draft) count(s *slot, n int64) *abi.Error {
	if total := d.bytes - s.counted + n; total > maxChangeBytes {
		return abi.Errorf(abi.TooLarge, "the change's new contents pass %d MiB together (at %s; a moved file is written anew); split it into smaller changes, or move large folders with a command", maxChangeBytes>>20, abi.Quote(s.display))
	}
	d.bytes += n - s.counted
	s.counted = n
	return nil
}

func (d *draft) rootIndex(r *policy.Root) int {
	for i, x := range d.j.pol.Roots() {
		if x == r {
			return i
		}
	}
	return 0
}

// slot returns the slot of rel in r, reading the disk the first time.
func (d *draft) slot(r *policy.Root, rel, display string) (*slot, *abi.Error) {
	k := key{d.rootIndex(r), rel}
	if s, ok := d.slots[k]; ok {
		return s, nil
	}
	if len(d.slots) >= maxPaths {
		return nil, abi.Errorf(abi.TooLarge, "the change touches more than %d paths (reached at %s); nothing was changed. Split it into smaller changes: delete or move a large folder in parts, or with a command (run_command), which the journal does not record and cannot undo", maxPaths, abi.Quote(display))
	}
	// Two slots of one path would each hold its state: a plan wrote it
	// through one root and deleted it through the other, and its apply
	// failed halfway, each write finding the file changed by the other.
	real := filepath.Join(r.Real, filepath.FromSlash(rel))
	if o, ok := d.reals[real]; ok && d.undoing {
		return nil, abi.Errorf(abi.Conflict, "%s and %s are the same path, reached through two workspace roots (one inside the other), and the changes to roll back name it both ways; roll them back one at a time, newest first. Nothing was changed", abi.Quote(o.display), abi.Quote(display))
	} else if ok {
		return nil, abi.Errorf(abi.InvalidArgument, "%s and %s are the same path, reached through two workspace roots (one inside the other); one change must name a path one way, so use one of the two names throughout. Nothing was changed", abi.Quote(o.display), abi.Quote(display))
	}
	if e := d.expired(); e != nil {
		return nil, e
	}
	if !utf8.ValidString(rel) {
		return nil, notText(display, "its name is not UTF-8")
	}
	img, content, err := readState(r.OS, rel, d.j.opts.maxFileSize)
	if err != nil {
		return nil, d.j.fsError(display, err)
	}
	if img.Kind == kindSymlink && !utf8.ValidString(img.Target) {
		return nil, notText(display, "it is a symbolic link whose target is not UTF-8")
	}
	if d.pre += int64(len(content)); d.pre > maxPreImageBytes {
		return nil, abi.Errorf(abi.TooLarge, "the change would keep more than %d MiB of old content to undo it (reached at %s), so nothing was changed; make it in parts that touch fewer or smaller files (a large folder can be deleted or moved in parts, or removed with a command (run_command), which the journal does not record and cannot undo)", maxPreImageBytes>>20, abi.Quote(display))
	}
	d.n++
	s := &slot{key: k, r: r, display: display, before: img, pre: content, after: img, post: content, order: d.n}
	d.slots[k] = s
	d.reals[real] = s
	return s, nil
}

// notText refuses a path the journal cannot record: it records names and
// link targets as text, which would turn each byte that is not UTF-8 into
// U+FFFD, so that two names become one and a rollback puts back neither.
// why says what is not text.
func notText(display, why string) *abi.Error {
	return abi.Errorf(abi.InvalidArgument, "juju does not change %s: %s, and the journal records names and link targets as text, so it could not undo the change. Nothing was changed; change it with a command (run_command), which the journal does not record and cannot undo", abi.Quote(display), why)
}

// fsError turns a file system failure into the error the model sees.
func (j *Journal) fsError(display string, err error) *abi.Error {
	var ne *notEmptyError
	switch {
	case errors.Is(err, errTooLarge):
		return abi.Errorf(abi.TooLarge, "%s is larger than %d MiB, which juju does not edit; change it with a command instead", abi.Quote(display), j.opts.maxFileSize>>20)
	case errors.Is(err, errLinkedKey):
		return policy.LinkedKeyError(display)
	case errors.Is(err, errSwapped):
		return abi.Errorf(abi.FileChanged, "a folder on the way to %s was replaced (by a symbolic link, or moved) while the change was being made; juju does not write through it, and nothing was changed. Look at the folder, then redo the change", abi.Quote(display))
	case errors.Is(err, errSpecial):
		return abi.Errorf(abi.InvalidArgument, "%s is not a regular file, folder or symlink (a FIFO, socket or device); juju changes only those", abi.Quote(display))
	case errors.Is(err, fs.ErrPermission):
		return abi.Errorf(abi.PathDenied, "the operating system refused access to %s (permission denied); choose another path or ask the owner", abi.Quote(display))
	case errors.Is(err, fs.ErrNotExist):
		return abi.Errorf(abi.NotFound, "%s does not exist (a folder on its way is missing)", abi.Quote(display))
	case errors.Is(err, syscall.ENAMETOOLONG):
		return abi.Errorf(abi.InvalidArgument, "%s is too long for the file system; use a shorter path", abi.Quote(display))
	case errors.As(err, &ne):
		return abi.Errorf(abi.FileChanged, "%s is a folder that now holds %s, which this change did not expect, so juju did not remove it and nothing was changed; look at the folder, then redo the change", abi.Quote(display), abi.Quote(display+"/"+ne.entry))
	case errors.Is(err, syscall.EROFS):
		return abi.Errorf(abi.PathDenied, "%s is on a file system mounted read-only, so it could not be written and nothing was changed; trying again will not help: choose a path on a writable disk, or ask the owner", abi.Quote(display))
	case errors.Is(err, syscall.ENOSPC) || errors.Is(err, errQuota):
		return abi.Errorf(abi.TooLarge, "the disk holding %s is full (or its quota is used up), so it could not be written and nothing was changed; free space on that disk or tell the owner, then try again", abi.Quote(display))
	}
	j.log.Error("journal: file system error", "path", display, "err", err)
	return abi.Errorf(abi.Internal, "%s could not be changed because of an unexpected file system error; try again", abi.Quote(display))
}

// target resolves a path to write: symlinks are followed (the target
// changes, the link stays).
func (d *draft) target(p string) (*slot, *abi.Error) {
	r, e := d.j.pol.ResolveForWrite(p)
	if e != nil {
		return nil, e
	}
	return d.slot(r.Root, r.Rel, r.Display)
}

// name resolves a path whose last name itself is changed (deleted, moved):
// a symlink there is the link, not its target.
func (d *draft) name(p string) (*slot, *abi.Error) {
	// The folder above is resolved on its own, and the last name is not:
	// the whole path passes the rules every resolution applies, or a NUL
	// byte or a 300-byte name reached the disk as a file system error.
	if e := policy.Validate(p); e != nil {
		return nil, e
	}
	dir, base := splitName(p)
	if base == ".." {
		// Through a link, the folder above is not the one the text
		// names; rm refuses such a name too.
		return nil, abi.Errorf(abi.InvalidArgument, "%s ends in \"..\", which names the folder above another, not the file or folder to change; name it by its own path (list_directory shows it)", abi.Quote(p))
	}
	if base == "" || base == "." {
		return d.target(p) // the root: the policy words the refusal
	}
	parent, e := d.j.pol.ResolveMissing(dir)
	if e != nil {
		return nil, d.refusal(p, e)
	}
	if parent.Info != nil && !parent.Info.IsDir() {
		return nil, abi.Errorf(abi.NotFound, "%s is not a folder, so %s does not exist and cannot be made; check the path with list_directory", abi.Quote(parent.Display), abi.Quote(p))
	}
	rel := base
	if parent.Rel != "." {
		rel = parent.Rel + "/" + base
	}
	r := &policy.Resolved{Root: parent.Root, Rel: rel, Display: d.j.pol.Display(parent.Root, rel)}
	if e := d.j.pol.Writable(r); e != nil {
		return nil, e
	}
	return d.slot(r.Root, rel, r.Display)
}

// splitName splits p into the folder above its last name and that name,
// as written: only the slashes and "." names at its end are dropped, which
// name the same entry. The folder keeps its ".." and is resolved by the
// policy as every write's path is, links first: "l2/../x", l2 a link to
// sub/deep, is sub/x, as write_file and the system take it. Cleaned by
// text it was x at the root, so delete_path and move_path changed another
// file than the one read_file showed under that name.
func splitName(p string) (dir, base string) {
	seps := "/" + string(filepath.Separator)
	for {
		t := strings.TrimRight(p, seps)
		if t == "" && p != "" {
			return p, "" // the file system's root
		}
		p = t
		if p != "." && !strings.HasSuffix(p, "/.") && !strings.HasSuffix(p, string(filepath.Separator)+".") {
			break
		}
		p = p[:len(p)-1]
		if p == "" {
			return ".", "."
		}
	}
	i := strings.LastIndexAny(p, seps)
	if i < 0 {
		return ".", p
	}
	dir = strings.TrimRight(p[:i], seps)
	if dir == "" {
		dir = p[:1] // the file system's root
	}
	return dir, p[i+1:]
}

// refusal words the refusal of p, whose folder failed to resolve with e,
// as a refusal of p itself: a root named by its absolute path has its
// folder outside the roots, and the model is told the root cannot be
// changed, never of a host path outside the roots it did not name.
func (d *draft) refusal(p string, e *abi.Error) *abi.Error {
	r, pe := d.j.pol.ResolveMissing(p)
	if pe != nil {
		return pe
	}
	if we := d.j.pol.Writable(r); we != nil {
		return we
	}
	return e
}

// recorded is slot for a path the journal recorded, as a rollback or a
// plan names it: it was resolved when it was recorded, and is checked again
// now as name checks a path it is given. It must still be writable by its
// name, and its folder must still resolve to itself: os.Root follows a
// symbolic link that stays inside the root, so a folder on the way swapped
// for a link to .git/hooks or .ssh since would take the write there.
func (d *draft) recorded(r *policy.Root, rel, display string) (*slot, *abi.Error) {
	if e := d.j.pol.Writable(&policy.Resolved{Root: r, Rel: rel, Display: display}); e != nil {
		return nil, e
	}
	if dir := path.Dir(rel); dir != "." {
		parent, e := d.j.pol.ResolveMissing(d.j.pol.Display(r, dir))
		if e != nil {
			return nil, e
		}
		if parent.Root != r || parent.Rel != dir {
			return nil, abi.Errorf(abi.Conflict, "a folder on the way to %s is now a symbolic link (to %s), which juju does not write through when it replays a recorded change; nothing was changed. Put the folder back, or make the change anew", abi.Quote(display), abi.Quote(parent.Display))
		}
		if parent.Info != nil && !parent.Info.IsDir() {
			// The change replayed may make it a folder again (a folder
			// replaced by a file, rolled back): foldersBack checks, once
			// every recorded path has its state.
			d.folders = append(d.folders, wantFolder{key: key{d.rootIndex(r), dir}, folder: parent.Display, path: display})
		}
	}
	return d.slot(r, rel, display)
}

// wantFolder is a recorded path whose folder is not a folder now.
type wantFolder struct {
	key          // the folder's
	folder, path string
}

// foldersBack refuses a replayed change (a rollback, a plan) that puts a
// path back inside a folder that is not a folder now, unless the change
// itself makes it one: the file that replaced a folder goes and the
// folder comes back, as every path of the change is set.
func (d *draft) foldersBack() *abi.Error {
	for _, w := range d.folders {
		if s, ok := d.slots[w.key]; ok && s.after.Kind == kindDir {
			continue
		}
		return abi.Errorf(abi.Conflict, "%s is no longer a folder, so %s cannot be put back; nothing was changed. Look at the folder, then make the change anew", abi.Quote(w.folder), abi.Quote(w.path))
	}
	return nil
}

// stray returns a folder the change removes that holds, on disk, an entry
// the change does not remove, and that entry's name. A folder's image says
// nothing of what it holds, so a file added since a change was recorded or
// planned would otherwise stop the removal halfway, as a file system error.
func (d *draft) stray() (*slot, string, *abi.Error) {
	for _, s := range d.slots {
		if s.before.Kind != kindDir || s.after.Kind == kindDir {
			continue
		}
		entries, err := fs.ReadDir(s.r.OS.FS(), s.rel)
		if err != nil {
			return nil, "", d.j.fsError(s.display, err)
		}
		for _, e := range entries {
			cs, ok := d.slots[key{s.root, path.Join(s.rel, e.Name())}]
			if !ok || cs.after.Kind != kindAbsent {
				return s, d.j.pol.Display(s.r, path.Join(s.rel, e.Name())), nil
			}
		}
	}
	return nil, "", nil
}

// checkExpected applies an operation's expected sha256; without one, and
// when reads, a file read earlier must not have changed on disk since.
func (d *draft) checkExpected(s *slot, want string, reads bool) *abi.Error {
	if want == "" {
		if reads && s.after.Kind == kindFile && s.before.equal(s.after) && d.j.opts.reads.stale(d.reader, s.r, s.rel, s.pre) {
			return abi.Errorf(abi.FileChanged, "%s changed on disk since it was last read or written by you (another program, another juju or a rollback wrote it); read it again and redo the change on its current content", abi.Quote(s.display))
		}
		return nil
	}
	want = strings.ToLower(want)
	if !isSHA256(want) {
		return abi.Errorf(abi.InvalidArgument, "expectedSha256 %s is not a sha256: pass all 64 hex digits that file_info (or the result of the last change, sha256After) gives for %s, or leave expectedSha256 out", abi.Quote(clipHash(want)), abi.Quote(s.display))
	}
	switch s.after.Kind {
	case kindAbsent:
		return abi.Errorf(abi.FileChanged, "%s was expected to be a file with sha256 %s, but it is not there now; read the folder again and redo the change", abi.Quote(s.display), short(want))
	case kindDir:
		return abi.Errorf(abi.InvalidArgument, "%s is a folder, and expectedSha256 checks a file's content; leave expectedSha256 out, or name the file you meant", abi.Quote(s.display))
	case kindSymlink:
		return abi.Errorf(abi.InvalidArgument, "%s is a symlink, which is deleted or moved as a link, its target left as it is; expectedSha256 checks a file's content, which a link has none of: leave expectedSha256 out", abi.Quote(s.display))
	}
	if s.after.SHA256 != want {
		return abi.Errorf(abi.FileChanged, "%s changed since it was read (its sha256 is now %s, not %s); read it again and redo the change on its current content", abi.Quote(s.display), short(s.after.SHA256), short(want))
	}
	return nil
}

// isSHA256 reports whether h, lower-cased, is a whole sha256 in hex: a
// shortened one, as messages show, matches no file and would be taken
// for a file changed since.
func isSHA256(h string) bool {
	if len(h) != 64 {
		return false
	}
	for _, c := range h {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// clipHash cuts what was given as a hash for a message.
func clipHash(h string) string {
	if r := []rune(h); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return h
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12] + "…"
	}
	return h
}

// readOnly refuses a change that alters a file the owner made read-only
// (no write bit for its owner). The journal replaces a file by a rename in
// its folder, which the file's own mode does not stop, so without this an
// edit tool, which runs unasked in edit mode, changed, moved or deleted a
// file the owner had write-protected (tests kept from an agent, generated
// or vendored code), where an editor, rm or a command would balk.
func (d *draft) readOnly() *abi.Error {
	var first *slot
	for _, s := range d.slots {
		if s.before.Kind != kindFile || s.before.Mode&0o200 != 0 || s.before.equal(s.after) && s.before.Mode == s.after.Mode {
			continue
		}
		if first == nil || s.order < first.order {
			first = s
		}
	}
	if first == nil {
		return nil
	}
	return abi.Errorf(abi.PathDenied, "%s is read-only (mode %04o): its owner keeps it from being changed, so juju does not write, move or delete it, and nothing was changed. Leave it as it is, or ask the owner to make it writable (chmod u+w)", abi.Quote(first.display), first.before.Mode.Perm())
}

// steps returns the slots the change alters, in the order to write them:
// new folders (shallow first), then files and links, then removed folders
// (deep first).
func (d *draft) steps() []*slot {
	var mk, files, rm []*slot
	for _, s := range d.slots {
		if s.before.equal(s.after) && s.before.Mode == s.after.Mode {
			continue
		}
		switch {
		case s.after.Kind == kindDir:
			mk = append(mk, s)
		case s.before.Kind == kindDir:
			rm = append(rm, s)
		default:
			files = append(files, s)
		}
	}
	depth := func(s *slot) int { return strings.Count(s.rel, "/") }
	sort.Slice(mk, func(a, b int) bool {
		if depth(mk[a]) != depth(mk[b]) {
			return depth(mk[a]) < depth(mk[b])
		}
		return mk[a].order < mk[b].order
	})
	sort.Slice(files, func(a, b int) bool { return files[a].order < files[b].order })
	sort.Slice(rm, func(a, b int) bool {
		if depth(rm[a]) != depth(rm[b]) {
			return depth(rm[a]) > depth(rm[b])
		}
		return rm[a].order < rm[b].order
	})
	// A file that turns into a folder was removed by its step; a folder
	// that turns into a file needs its folder gone first.
	return append(append(mk, files...), rm...)
}
