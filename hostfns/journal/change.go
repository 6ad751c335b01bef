package journal

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/jujutools/juju/host/policy"
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
}

// draft is a change being computed, over a virtual view of the disk.
type draft struct {
	j     *Journal
	slots map[key]*slot
	n     int
}

func (j *Journal) newDraft() *draft { return &draft{j: j, slots: map[key]*slot{}} }

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
		return nil, abi.Errorf(abi.TooLarge, "the change touches more than %d paths; split it into smaller changes", maxPaths)
	}
	img, content, err := readState(r.OS, rel, d.j.opts.maxFileSize)
	if err != nil {
		return nil, d.j.fsError(display, err)
	}
	d.n++
	s := &slot{key: k, r: r, display: display, before: img, pre: content, after: img, post: content, order: d.n}
	d.slots[k] = s
	return s, nil
}

// fsError turns a file system failure into the error the model sees.
func (j *Journal) fsError(display string, err error) *abi.Error {
	switch {
	case errors.Is(err, errTooLarge):
		return abi.Errorf(abi.TooLarge, "%s is larger than %d MiB, which juju does not edit; change it with a command instead", quote(display), j.opts.maxFileSize>>20)
	case errors.Is(err, errSpecial):
		return abi.Errorf(abi.InvalidArgument, "%s is not a regular file, folder or symlink (a FIFO, socket or device); juju changes only those", quote(display))
	case errors.Is(err, fs.ErrPermission):
		return abi.Errorf(abi.PathDenied, "the operating system refused access to %s (permission denied); choose another path or ask the owner", quote(display))
	case errors.Is(err, fs.ErrNotExist):
		return abi.Errorf(abi.NotFound, "%s does not exist (a folder on its way is missing)", quote(display))
	}
	j.log.Error("journal: file system error", "path", display, "err", err)
	return abi.Errorf(abi.Internal, "%s could not be changed because of an unexpected file system error; try again", quote(display))
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
	clean := filepath.Clean(filepath.FromSlash(p))
	base := filepath.Base(clean)
	if p == "" || base == "." || base == ".." || base == string(filepath.Separator) {
		return d.target(p) // the policy words the refusal
	}
	parent, e := d.j.pol.ResolveMissing(filepath.Dir(clean))
	if e != nil {
		return nil, e
	}
	if parent.Info != nil && !parent.Info.IsDir() {
		return nil, abi.Errorf(abi.NotFound, "%s is not a folder, so %s does not exist", quote(parent.Display), quote(p))
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

func (d *draft) checkExpected(s *slot, want string) *abi.Error {
	if want == "" {
		return nil
	}
	want = strings.ToLower(want)
	if s.after.Kind != kindFile {
		return abi.Errorf(abi.FileChanged, "%s was expected to be a file with sha256 %s, but it is not there now; read the folder again and redo the change", quote(s.display), short(want))
	}
	if s.after.SHA256 != want {
		return abi.Errorf(abi.FileChanged, "%s changed since it was read (its sha256 is now %s, not %s); read it again and redo the change on its current content", quote(s.display), short(s.after.SHA256), short(want))
	}
	return nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12] + "…"
	}
	return h
}

// parents makes sure the folders above s exist after the change, creating
// the missing ones.
func (d *draft) parents(s *slot) *abi.Error {
	dir := path.Dir(s.rel)
	if dir == "." {
		return nil
	}
	var missing []string
	for cur := dir; cur != "."; cur = path.Dir(cur) {
		missing = append(missing, cur)
	}
	for i := len(missing) - 1; i >= 0; i-- {
		rel := missing[i]
		ps, e := d.slot(s.r, rel, d.j.pol.Display(s.r, rel))
		if e != nil {
			return e
		}
		switch ps.after.Kind {
		case kindDir:
		case kindAbsent:
			if e := d.j.pol.Writable(&policy.Resolved{Root: s.r, Rel: rel, Display: ps.display}); e != nil {
				return e
			}
			ps.after, ps.post = image{Kind: kindDir, Mode: newDirMode}, nil
		default:
			return abi.Errorf(abi.InvalidArgument, "%s is a file, so nothing can be made inside it; choose another path", quote(ps.display))
		}
	}
	return nil
}

// setFile makes s a file holding content; a new file gets mode 0644.
func (d *draft) setFile(s *slot, content []byte) *abi.Error {
	if int64(len(content)) > d.j.opts.maxFileSize {
		return abi.Errorf(abi.TooLarge, "the new content of %s is larger than %d MiB; write less at once", quote(s.display), d.j.opts.maxFileSize>>20)
	}
	switch s.after.Kind {
	case kindDir:
		return abi.Errorf(abi.InvalidArgument, "%s is a folder; name a file path", quote(s.display))
	case kindSymlink: // a dangling link (ResolveForWrite follows the others)
		return abi.Errorf(abi.InvalidArgument, "%s is a symlink whose target cannot be written; write its target's path instead", quote(s.display))
	}
	mode := s.after.Mode
	if s.after.Kind != kindFile {
		mode = newFileMode
		if e := d.parents(s); e != nil {
			return e
		}
	}
	s.after, s.post = image{Kind: kindFile, SHA256: sum(content), Mode: mode}, content
	return nil
}

// remove deletes s; a folder must be empty after the change unless
// recursive, in which case everything inside goes too.
func (d *draft) remove(s *slot, recursive bool) *abi.Error {
	switch s.after.Kind {
	case kindAbsent:
		return abi.Errorf(abi.NotFound, "%s does not exist; list its folder to see what is there", quote(s.display))
	case kindDir:
		kids, e := d.children(s)
		if e != nil {
			return e
		}
		if len(kids) > 0 && !recursive {
			return abi.Errorf(abi.InvalidArgument, "%s is a folder that is not empty (%d entries); set recursive to delete it with everything inside", quote(s.display), len(kids))
		}
		for _, k := range kids {
			if e := d.remove(k, true); e != nil {
				return e
			}
		}
	}
	s.after, s.post = image{Kind: kindAbsent}, nil
	return nil
}

// children returns the slots of what folder s holds after the operations
// so far: what is on disk (unless removed) and what the change created.
func (d *draft) children(s *slot) ([]*slot, *abi.Error) {
	seen := map[string]bool{}
	var out []*slot
	if s.before.Kind == kindDir {
		entries, err := fs.ReadDir(s.r.OS.FS(), s.rel)
		if err != nil {
			return nil, d.j.fsError(s.display, err)
		}
		for _, e := range entries {
			rel := path.Join(s.rel, e.Name())
			c := &policy.Resolved{Root: s.r, Rel: rel, Display: d.j.pol.Display(s.r, rel)}
			if pe := d.j.pol.Writable(c); pe != nil {
				return nil, abi.Errorf(pe.Code, "%s holds %s, which file tools may not change (%s); nothing was changed", quote(s.display), quote(c.Display), pe.Message)
			}
			cs, ae := d.slot(s.r, rel, c.Display)
			if ae != nil {
				return nil, ae
			}
			seen[rel] = true
			if cs.after.Kind != kindAbsent {
				out = append(out, cs)
			}
		}
	}
	for k, cs := range d.slots {
		if k.root == s.root && path.Dir(k.rel) == s.rel && !seen[k.rel] && cs.after.Kind != kindAbsent {
			out = append(out, cs)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].rel < out[b].rel })
	return out, nil
}

// move renames from to to: a file or symlink moves as it is, a folder
// with everything inside.
func (d *draft) move(from, to *slot, overwrite bool) *abi.Error {
	if from.after.Kind == kindAbsent {
		return abi.Errorf(abi.NotFound, "%s does not exist; list its folder to see what is there", quote(from.display))
	}
	if from.key == to.key {
		return abi.Errorf(abi.InvalidArgument, "%s and %s are the same path; name a different destination", quote(from.display), quote(to.display))
	}
	if from.root == to.root && strings.HasPrefix(to.rel+"/", from.rel+"/") {
		return abi.Errorf(abi.InvalidArgument, "%s cannot be moved inside itself", quote(from.display))
	}
	switch to.after.Kind {
	case kindAbsent:
	case kindFile, kindSymlink:
		if !overwrite || from.after.Kind == kindDir {
			return abi.Errorf(abi.InvalidArgument, "%s already exists; set overwrite to replace it, or choose another destination", quote(to.display))
		}
	default:
		return abi.Errorf(abi.InvalidArgument, "%s is an existing folder; name the full destination path (folder and new name)", quote(to.display))
	}
	if e := d.parents(to); e != nil {
		return e
	}
	switch from.after.Kind {
	case kindDir:
		kids, e := d.children(from)
		if e != nil {
			return e
		}
		to.after, to.post = from.after, nil
		for _, k := range kids {
			rel := path.Join(to.rel, path.Base(k.rel))
			dst := &policy.Resolved{Root: to.r, Rel: rel, Display: d.j.pol.Display(to.r, rel)}
			if pe := d.j.pol.Writable(dst); pe != nil {
				return pe
			}
			ks, ae := d.slot(to.r, rel, dst.Display)
			if ae != nil {
				return ae
			}
			if e := d.move(k, ks, false); e != nil {
				return e
			}
		}
	default:
		to.after, to.post = from.after, from.post
	}
	from.after, from.post = image{Kind: kindAbsent}, nil
	return nil
}

// mkdir makes a folder (and its parents); an existing folder is fine.
func (d *draft) mkdir(s *slot) *abi.Error {
	switch s.after.Kind {
	case kindDir:
		return nil
	case kindAbsent:
		if e := d.parents(s); e != nil {
			return e
		}
		s.after, s.post = image{Kind: kindDir, Mode: newDirMode}, nil
		return nil
	}
	return abi.Errorf(abi.InvalidArgument, "%s exists and is not a folder; choose another name", quote(s.display))
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

// add applies one operation to the draft; body holds its content.
func (d *draft) add(op abi.ChangeOp, body []byte) *abi.Error {
	switch op.Op {
	case abi.OpWrite:
		s, e := d.target(op.Path)
		if e != nil {
			return e
		}
		if e := d.checkExpected(s, op.ExpectedSHA256); e != nil {
			return e
		}
		content := body
		if op.KeepStyle && s.after.Kind == kindFile {
			content = keepStyle(s.post, body)
		}
		return d.setFile(s, content)
	case abi.OpEdit:
		s, e := d.target(op.Path)
		if e != nil {
			return e
		}
		if s.after.Kind != kindFile {
			return notAFile(s)
		}
		if e := d.checkExpected(s, op.ExpectedSHA256); e != nil {
			return e
		}
		out, n, e := editText(s.display, s.post, op.OldString, op.NewString, op.ReplaceAll)
		if e != nil {
			return e
		}
		if op.ExpectedCount > 0 && n != op.ExpectedCount {
			return abi.Errorf(abi.Conflict, "the edit of %s would make %d replacements, not the %d expected; nothing was written. Check the text and the count, then retry", quote(s.display), n, op.ExpectedCount)
		}
		s.count += n
		return d.setFile(s, out)
	case abi.OpDelete:
		s, e := d.name(op.Path)
		if e != nil {
			return e
		}
		if e := d.checkExpected(s, op.ExpectedSHA256); e != nil {
			return e
		}
		return d.remove(s, op.Recursive)
	case abi.OpMove:
		if op.To == "" {
			return abi.Errorf(abi.InvalidArgument, "a move needs the destination path (to)")
		}
		from, e := d.name(op.Path)
		if e != nil {
			return e
		}
		if e := d.checkExpected(from, op.ExpectedSHA256); e != nil {
			return e
		}
		to, e := d.name(op.To)
		if e != nil {
			return e
		}
		return d.move(from, to, op.Overwrite)
	case abi.OpMkdir:
		s, e := d.target(op.Path)
		if e != nil {
			return e
		}
		return d.mkdir(s)
	case abi.OpPatch:
		return d.patch(op.Patch)
	}
	return abi.Errorf(abi.InvalidArgument, "unknown operation %q; use write, edit, delete, move, mkdir or patch", op.Op)
}

func notAFile(s *slot) *abi.Error {
	if s.after.Kind == kindAbsent {
		return abi.Errorf(abi.NotFound, "%s does not exist; create it with write_file, or check the path with list_directory", quote(s.display))
	}
	return abi.Errorf(abi.InvalidArgument, "%s is not a file; name a file path", quote(s.display))
}

// keepStyle gives new content the BOM and CRLF line ends of old when new
// has neither.
func keepStyle(old, new []byte) []byte {
	_, st := splitStyle(old)
	text, nst := splitStyle(new)
	if nst.bom || strings.Contains(string(new), "\r\n") {
		return new
	}
	return st.join(text)
}

// patch applies a unified diff to the draft.
func (d *draft) patch(text string) *abi.Error {
	fps, e := parsePatch(text)
	if e != nil {
		return e
	}
	for _, fp := range fps {
		if e := d.patchFile(fp); e != nil {
			return e
		}
	}
	return nil
}

func (d *draft) patchFile(fp filePatch) *abi.Error {
	var src []byte
	var st textStyle
	var from *slot
	if fp.Old != "" {
		s, e := d.target(fp.Old)
		if e != nil {
			return e
		}
		if s.after.Kind != kindFile {
			return abi.Errorf(abi.Conflict, "the patch changes %s, which does not exist as a file; nothing was written. Check the path, or use --- /dev/null to create it", quote(fp.Old))
		}
		from, src = s, s.post
	}
	text, st := splitStyle(src)
	out, e := applyHunks(fileName(fp), text, fp.Hunks)
	if e != nil {
		return e
	}
	if fp.New == "" {
		if out != "" {
			return abi.Errorf(abi.Conflict, "the patch deletes %s but its hunks do not remove the whole file; nothing was written. Read the file and regenerate the patch", quote(fp.Old))
		}
		return d.remove(from, false)
	}
	to := from
	if fp.New != fp.Old {
		s, e := d.target(fp.New)
		if e != nil {
			return e
		}
		if s.after.Kind != kindAbsent {
			return abi.Errorf(abi.Conflict, "the patch creates %s, which already exists; nothing was written. Read it and make the patch against its content", quote(fp.New))
		}
		to = s
		if from != nil {
			if e := d.move(from, to, false); e != nil {
				return e
			}
		}
	}
	return d.setFile(to, st.join(out))
}
