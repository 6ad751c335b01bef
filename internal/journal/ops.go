package journal

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/jujutools/juju/internal/journal/text"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

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
			if e := tilde(rel, s.display, "folder"); e != nil {
				return e
			}
			if e := d.j.pol.Writable(&policy.Resolved{Root: s.r, Rel: rel, Display: ps.display}); e != nil {
				return e
			}
			ps.after, ps.post = image{Kind: kindDir, Mode: createMode(s.r.OS, path.Dir(rel), 0o777)}, nil
		default:
			return abi.Errorf(abi.InvalidArgument, "%s is a file, so nothing can be made inside it; choose another path", abi.Quote(ps.display))
		}
	}
	return nil
}

// tilde refuses to make a folder or a file (what) named "~" at the top
// of a root: a path such as "~/notes.txt" means the home folder, which juju does not
// expand, and a folder "~" in the workspace is one that `rm -rf ~` would
// be typed to remove. So it refuses a folder "file:" at the top, which a
// file:// URL given as a path makes (file:///tmp/a.md made file:/tmp/a.md
// in the workspace), and a new name that begins or ends in white space
// ("notes.md "), which listings show as if it were not there, so that the
// model's next read of the name it sees answers NOT_FOUND. A new name
// holding a backslash is refused too: on Unix it is a letter of the name,
// so "src\main.go", written as on Windows, made one file of that name at
// the top instead of main.go in the folder src. A name that already has a
// backslash is read, edited, moved and deleted as it is.
func tilde(rel, display, what string) *abi.Error {
	switch {
	case rel == "~":
		return abi.Errorf(abi.InvalidArgument, "%s would make a %s named \"~\" in the workspace: juju does not expand ~ to the home folder, which is outside the workspace. Name the path relative to the workspace root, or absolute inside it", abi.Quote(display), what)
	case strings.EqualFold(rel, "file:"):
		return abi.Errorf(abi.InvalidArgument, "%s would make a %s named \"file:\" in the workspace: juju takes paths, not file:// URLs. Pass the path itself (what follows file://), relative to the workspace root or absolute inside it", abi.Quote(display), what)
	}
	if name := path.Base(rel); strings.TrimSpace(name) != name {
		return abi.Errorf(abi.InvalidArgument, "%s would make a name that begins or ends in white space (%s), which listings show as if it were not there; pass the path without it", abi.Quote(display), abi.Quote(name))
	} else if strings.Contains(name, `\`) {
		return abi.Errorf(abi.InvalidArgument, "%s would make a %s named %s: juju separates folders with / only, and here a \\ is a letter of a name, not a folder separator; pass %s to use folders (a name that really holds a backslash can be made with a command)", abi.Quote(display), what, abi.Quote(name), abi.Quote(strings.ReplaceAll(display, `\`, "/")))
	}
	return nil
}

// setFile makes s a file holding content; a new file gets mode 0644.
func (d *draft) setFile(s *slot, content []byte) *abi.Error {
	if int64(len(content)) > d.j.opts.maxFileSize {
		return abi.Errorf(abi.TooLarge, "the new content of %s is larger than %d MiB; write less at once", abi.Quote(s.display), d.j.opts.maxFileSize>>20)
	}
	switch s.after.Kind {
	case kindDir:
		return abi.Errorf(abi.InvalidArgument, "%s is a folder; name a file path", abi.Quote(s.display))
	case kindSymlink: // a dangling link (ResolveForWrite follows the others)
		return abi.Errorf(abi.InvalidArgument, "%s is a symlink whose target cannot be written; write its target's path instead", abi.Quote(s.display))
	}
	mode, meta := s.after.Mode, s.after.Meta // an existing file keeps its own
	sha := sum(content)
	if s.after.Kind == kindFile && s.after.SHA256 != sha {
		mode = written(mode)
	}
	if s.after.Kind != kindFile {
		mode, meta = createMode(s.r.OS, path.Dir(s.rel), 0o666), nil
		if e := tilde(s.rel, s.display, "file"); e != nil {
			return e
		}
		if e := d.parents(s); e != nil {
			return e
		}
	}
	if e := d.count(s, int64(len(content))); e != nil {
		return e
	}
	s.after, s.post = image{Kind: kindFile, SHA256: sha, Mode: mode, Meta: meta}, content
	return nil
}

// remove deletes s; a folder must be empty after the change unless
// recursive, in which case everything inside goes too.
func (d *draft) remove(s *slot, recursive bool) *abi.Error {
	switch s.after.Kind {
	case kindAbsent:
		return abi.Errorf(abi.NotFound, "%s does not exist; list its folder to see what is there", abi.Quote(s.display))
	case kindDir:
		kids, e := d.children(s)
		if e != nil {
			return e
		}
		if len(kids) > 0 && !recursive {
			entries := fmt.Sprintf("%d entries", len(kids))
			if len(kids) == 1 {
				entries = "1 entry"
			}
			return abi.Errorf(abi.InvalidArgument, "%s is a folder that is not empty (%s); set recursive to delete it with everything inside", abi.Quote(s.display), entries)
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
			if !utf8.ValidString(e.Name()) {
				return nil, abi.Errorf(abi.InvalidArgument, "%s holds %s, whose name is not UTF-8; the journal records names as text, so it could not undo a change of the folder, and nothing was changed. Delete or move %s with a command (run_command), which the journal does not record and cannot undo", abi.Quote(s.display), abi.Quote(e.Name()), abi.Quote(s.display))
			}
			rel := path.Join(s.rel, e.Name())
			if policy.Validate(rel) != nil {
				// A path no argument can name: the change would record,
				// and a rollback put back, what no later call reaches,
				// and each path deeper costs its whole depth to open.
				return nil, abi.Errorf(abi.InvalidArgument, "the folder holds files or folders nested deeper, or with longer paths, than juju resolves (256 names, 4,096 bytes: %s is one), which no argument can name, so nothing was changed. Delete or move the folder with a command (run_command), which the journal does not record and cannot undo", abi.Quote(d.j.pol.Display(s.r, rel)))
			}
			c := &policy.Resolved{Root: s.r, Rel: rel, Display: d.j.pol.Display(s.r, rel)}
			if pe := d.j.pol.Writable(c); pe != nil {
				return nil, abi.Errorf(pe.Code, "%s holds %s, which file tools may not change (%s); nothing was changed", abi.Quote(s.display), abi.Quote(c.Display), pe.Message)
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
		return abi.Errorf(abi.NotFound, "%s does not exist; list its folder to see what is there", abi.Quote(from.display))
	}
	// Compared by real path: with one root inside another, a path has a
	// spelling in each.
	if from.key == to.key || from.real() == to.real() {
		return abi.Errorf(abi.InvalidArgument, "%s and %s are the same path; name a different destination", abi.Quote(from.display), abi.Quote(to.display))
	}
	if policy.Within(to.real(), from.real()) {
		return abi.Errorf(abi.InvalidArgument, "%s cannot be moved inside itself (to %s); choose a destination outside that folder", abi.Quote(from.display), abi.Quote(to.display))
	}
	if sameFile(from, to) {
		return abi.Errorf(abi.InvalidArgument, "%s and %s are two names of one file (a name differing only in case or accents on a file system that ignores them, a folder mounted twice, or hard links); moving one onto the other would only delete it, so nothing was changed. To change only the case of a name, move it to a temporary name first, then to the new one; to drop one name of a hard link, delete it (delete_path)", abi.Quote(from.display), abi.Quote(to.display))
	}
	switch to.after.Kind {
	case kindAbsent:
		what := "file"
		if from.after.Kind == kindDir {
			what = "folder"
		}
		if e := tilde(to.rel, to.display, what); e != nil {
			return e
		}
	case kindFile, kindSymlink:
		if from.after.Kind == kindDir {
			return abi.Errorf(abi.InvalidArgument, "%s is a folder and %s is not, and a folder never replaces a file or a link, even with overwrite; delete %s first (delete_path), or choose another destination", abi.Quote(from.display), abi.Quote(to.display), abi.Quote(to.display))
		}
		if !overwrite {
			return abi.Errorf(abi.InvalidArgument, "%s already exists; set overwrite to replace it, or choose another destination", abi.Quote(to.display))
		}
	default:
		return abi.Errorf(abi.InvalidArgument, "%s is an existing folder; name the full destination path (folder and new name)", abi.Quote(to.display))
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
		// The content is written anew at to, so it counts as new there,
		// and no longer at from.
		d.count(from, 0)
		if e := d.count(to, int64(len(from.post))); e != nil {
			return e
		}
		to.after, to.post = from.after, from.post
	}
	from.after, from.post = image{Kind: kindAbsent}, nil
	return nil
}

// sameFile reports whether from and to name one file on disk by two
// spellings. The journal keys paths by name, so it would take to for a
// file the move leaves as it is and delete from: on a file system that
// ignores case, or through a folder mounted twice, that deletes the one
// entry both names reach, and the move reports a file it removed. Hard
// links are refused too: they cannot be told from those without reading
// the folder, and a move between them only drops a name.
func sameFile(from, to *slot) bool {
	if from.before.Kind == kindAbsent || to.before.Kind == kindAbsent {
		return false
	}
	a, err := from.r.OS.Lstat(from.rel)
	if err != nil {
		return false
	}
	b, err := to.r.OS.Lstat(to.rel)
	return err == nil && os.SameFile(a, b)
}

// mkdir makes a folder (and its parents); an existing folder is fine.
func (d *draft) mkdir(s *slot) *abi.Error {
	switch s.after.Kind {
	case kindDir:
		return nil
	case kindAbsent:
		if e := tilde(s.rel, s.display, "folder"); e != nil {
			return e
		}
		if e := d.parents(s); e != nil {
			return e
		}
		s.after, s.post = image{Kind: kindDir, Mode: createMode(s.r.OS, path.Dir(s.rel), 0o777)}, nil
		return nil
	}
	return abi.Errorf(abi.InvalidArgument, "%s exists and is not a folder; choose another name", abi.Quote(s.display))
}

// add applies one operation to the draft; body holds its content.
func (d *draft) add(op abi.ChangeOp, body []byte) *abi.Error {
	switch op.Op {
	case abi.OpWrite:
		s, e := d.fileTarget(op.Path)
		if e != nil {
			return e
		}
		if e := d.checkExpected(s, op.ExpectedSHA256, true); e != nil {
			return e
		}
		content := body
		if op.KeepStyle && s.after.Kind == kindFile {
			content = keepStyle(s.post, body)
		}
		return d.setFile(s, content)
	case abi.OpEdit:
		s, e := d.fileTarget(op.Path)
		if e != nil {
			return e
		}
		if op.OldString == "" {
			return d.create(s, op)
		}
		if s.after.Kind != kindFile {
			return notAFile(s)
		}
		if e := d.checkExpected(s, op.ExpectedSHA256, true); e != nil {
			return e
		}
		out, n, e := text.Edit(s.display, s.post, op.OldString, op.NewString, op.ReplaceAll)
		if e != nil {
			return e
		}
		if op.ExpectedCount > 0 && n != op.ExpectedCount {
			return abi.Errorf(abi.Conflict, "the edit of %s would make %d replacements, not the %d expected; nothing was written. Check the text and the count, then retry", abi.Quote(s.display), n, op.ExpectedCount)
		}
		s.count += n
		return d.setFile(s, out)
	case abi.OpDelete:
		s, e := d.name(op.Path)
		if e != nil {
			return e
		}
		if e := spelledAsFolder(op.Path, s); e != nil {
			return e
		}
		// A file changed since the caller read it loses what the caller
		// never saw: FILE_CHANGED, as for a write.
		if e := d.checkExpected(s, op.ExpectedSHA256, true); e != nil {
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
		if e := spelledAsFolder(op.Path, from); e != nil {
			return e
		}
		if e := d.checkExpected(from, op.ExpectedSHA256, false); e != nil {
			return e
		}
		to, e := d.name(op.To)
		if e != nil {
			return e
		}
		if e := spelledAsFolder(op.To, to); e != nil {
			return e
		}
		if namesFolder(op.To) && from.after.Kind != kindDir && from.after.Kind != kindAbsent {
			return abi.Errorf(abi.InvalidArgument, "the destination %s ends in \"/\", which names a folder, but %s is not a folder; give the full new path of the file, without the trailing slash", abi.Quote(op.To), abi.Quote(from.display))
		}
		// A file the move overwrites is lost as a deleted one is.
		if op.Overwrite && to != from {
			if e := d.checkExpected(to, "", true); e != nil {
				return e
			}
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
	return abi.Errorf(abi.InvalidArgument, "unknown operation %s; use write, edit, delete, move, mkdir or patch", abi.Quote(op.Op))
}

// create is an edit with an empty oldString, as Claude Code's Edit makes
// a file: newString becomes the content of s when s does not exist or is
// an empty file. Anywhere else an empty oldString matches no one place.
func (d *draft) create(s *slot, op abi.ChangeOp) *abi.Error {
	switch {
	case s.after.Kind == kindFile && len(s.post) > 0:
		return abi.Errorf(abi.InvalidArgument, "oldString is empty, which creates a file or fills an empty one, but %s already has content; pass the exact text to replace as oldString, or use write_file to replace the whole file", abi.Quote(s.display))
	case s.after.Kind == kindDir:
		return notAFile(s)
	}
	if e := d.checkExpected(s, op.ExpectedSHA256, true); e != nil {
		return e
	}
	s.count++
	return d.setFile(s, []byte(op.NewString))
}

// namesFolder reports whether p ends in a slash, or in "/." or "/..":
// such a path names a folder, and POSIX refuses to make, open, remove or
// rename a file by it (ENOTDIR), though a cleaned path would lose the
// slash and name the file.
func namesFolder(p string) bool {
	i := strings.LastIndexAny(p, "/"+string(filepath.Separator))
	if i < 0 {
		return false
	}
	last := p[i+1:]
	return last == "" || last == "." || last == ".."
}

// fileTarget is target for a path written or edited as a file: one that
// names a folder is refused, not written as the file its clean form names.
func (d *draft) fileTarget(p string) (*slot, *abi.Error) {
	if namesFolder(p) {
		return nil, abi.Errorf(abi.InvalidArgument, "%s ends in \"/\", so it names a folder, and no file is written or edited by it; name the file without the trailing slash (make_directory makes a folder)", abi.Quote(p))
	}
	return d.target(p)
}

// spelledAsFolder refuses to delete or move s, which p names, when p
// names a folder and s is not one: "f.txt/" names no file (NOT_FOUND, as
// the policy answers a read of it), and "link/" names the folder the link
// leads to, not the link juju would change.
func spelledAsFolder(p string, s *slot) *abi.Error {
	if !namesFolder(p) {
		return nil
	}
	switch s.after.Kind {
	case kindFile:
		return policy.NotDirError(p, s.display)
	case kindSymlink:
		return abi.Errorf(abi.InvalidArgument, "%s ends in \"/\", which names the folder a link leads to, but juju changes %s, a symbolic link, by its own name; name the link without the trailing slash, or the folder by its own path", abi.Quote(p), abi.Quote(s.display))
	}
	return nil
}

func notAFile(s *slot) *abi.Error {
	if s.after.Kind == kindAbsent {
		return abi.Errorf(abi.NotFound, "%s does not exist; create it with write_file, or check the path with list_directory", abi.Quote(s.display))
	}
	return abi.Errorf(abi.InvalidArgument, "%s is not a file; name a file path", abi.Quote(s.display))
}

// keepStyle gives new content the BOM, CRLF line ends and UTF-16 encoding
// of old when new has none of them.
func keepStyle(old, new []byte) []byte {
	_, st := text.SplitStyle(old)
	body, nst := text.SplitStyle(new)
	if nst.BOM || nst.UTF16 != "" || strings.Contains(string(new), "\r\n") {
		return new
	}
	return st.Join(body)
}

// patch applies a unified diff to the draft.
func (d *draft) patch(diff string) *abi.Error {
	fps, e := text.ParsePatch(diff)
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

func (d *draft) patchFile(fp text.FilePatch) *abi.Error {
	fp.Old, fp.New = d.patchName(fp.Old), d.patchName(fp.New)
	var src []byte
	var st text.Style
	var from *slot
	if fp.Old != "" {
		if fp.New != fp.Old {
			if e := d.linkLeaves(fp.Old); e != nil {
				return e
			}
		}
		s, e := d.fileTarget(fp.Old)
		if e != nil {
			return e
		}
		if s.after.Kind != kindFile {
			return abi.Errorf(abi.Conflict, "the patch changes %s, which does not exist as a file; nothing was written. Check the path, or use --- /dev/null to create it", abi.Quote(fp.Old))
		}
		from, src = s, s.post
	}
	body, st := text.SplitStyle(src)
	out, moved, e := text.PlaceHunks(text.FileName(fp), body, fp.Hunks)
	if rawFP, ok := fp.Raw(); ok && !st.CRLF && strings.Contains(body, "\r") {
		// A file of mixed line ends keeps its carriage returns in its
		// text, so its lines are those of the hunks as written, as git
		// diff writes them and git apply reads them; read with LF alone,
		// git's diff of the file never applied. A patch written all in
		// CRLF may still mean the LF lines.
		if rout, rmoved, re := text.PlaceHunks(text.FileName(rawFP), body, rawFP.Hunks); re == nil || e != nil {
			out, moved, e = rout, rmoved, re
		}
	}
	if e != nil {
		return e
	}
	if out == body && from != nil && fp.New == fp.Old && lineEndsOnly(fp) {
		ends := "LF"
		if st.CRLF {
			ends = "CRLF"
		}
		return abi.Errorf(abi.InvalidArgument, "the patch's hunks for %s differ only in their line ends (CRLF against LF), and a patch keeps the file's own line ends (%s) whatever its lines use, so nothing would change; nothing was written. "+
			"Patches never convert a file's line ends: to do that, run a command (dos2unix or unix2dos, or sed -i 's/\\r$//' on it), and leave the file out of the patch", abi.Quote(from.display), ends)
	}
	for _, m := range moved {
		if from == nil {
			break // a new file's hunks have no old lines to be found elsewhere
		}
		if len(d.moved) == abi.MaxHunkOffsets {
			d.movedMore++
			continue
		}
		d.moved = append(d.moved, abi.HunkOffset{Path: from.display, Hunk: m.Hunk, Line: m.Line, Offset: m.Offset})
	}
	if fp.New == "" {
		if out != "" {
			return abi.Errorf(abi.Conflict, "the patch deletes %s but its hunks do not remove the whole file; nothing was written. Read the file and regenerate the patch", abi.Quote(fp.Old))
		}
		return d.remove(from, false)
	}
	to := from
	if fp.New != fp.Old {
		s, e := d.fileTarget(fp.New)
		if e != nil {
			return e
		}
		if s.after.Kind != kindAbsent && s.before.Kind == kindAbsent {
			// Not on disk: made by this change, a section above of the
			// patch or an operation of the plan. "Read it" sent the model
			// to a file that does not exist.
			return abi.Errorf(abi.Conflict, "the patch creates %s, which this change has already made (an earlier section of the patch, or an operation of the plan, creates it too) and which does not exist on disk; nothing was written. "+
				"Create the file once, with all its lines in one --- /dev/null section, or change it there with a --- a/ section after the one that makes it", abi.Quote(fp.New))
		}
		if s.after.Kind != kindAbsent {
			return abi.Errorf(abi.Conflict, "the patch creates %s, which already exists; nothing was written. Read it and make the patch against its content", abi.Quote(fp.New))
		}
		to = s
		if from != nil {
			if e := d.move(from, to, false); e != nil {
				return e
			}
		}
	}
	if e := d.setFile(to, st.Join(out)); e != nil {
		return e
	}
	if fp.Exec != nil {
		to.after.Mode = withExec(to.after.Mode, *fp.Exec)
	}
	return nil
}

// lineEndsOnly reports whether fp's hunks, as written, change lines that
// are the same once read with LF line ends: a patch converting the file
// between CRLF and LF, which git diff writes as every line removed and
// added again. Applied with the file's own line ends it changed nothing,
// and was answered as a patch the files already held.
func lineEndsOnly(fp text.FilePatch) bool {
	raw, ok := fp.Raw()
	if !ok {
		return false
	}
	for _, h := range raw.Hunks {
		if strings.Join(h.OldLines, "") != strings.Join(h.NewLines, "") {
			return true
		}
	}
	return false
}

// patchName is the path a patch's name p (without its a/ or b/) stands
// for: p itself, or, where p with a slash before it lies in a root other
// than the first, that absolute path. Such a file is named by its absolute
// path, and a diff writes it, as git does, without its leading slash
// (gitName): "a/home/me/lib/x.go" is /home/me/lib/x.go when /home/me/lib
// is a root, so juju's own diff of it, given back, patches that file, not
// home/me/lib/x.go under the first root. A path of the first root is
// written relative to it, and is read so.
func (d *draft) patchName(p string) string {
	roots := d.j.pol.Roots()
	if p == "" || strings.HasPrefix(p, "/") || len(roots) < 2 {
		return p
	}
	abs := "/" + p
	clean := filepath.Clean(abs)
	if !filepath.IsAbs(clean) || policy.Within(clean, roots[0].Path) {
		return p
	}
	for _, r := range roots[1:] {
		if policy.Within(clean, r.Path) {
			return abs
		}
	}
	return p
}

// linkLeaves refuses a patch that deletes or renames p when p is a
// symbolic link. A patch's paths are followed as a write's are, so the
// link's target would go (or move) and the link stay, dangling: a patch
// removing docs/current.md, a link to README.md, deleted README.md. git
// deletes or renames the link itself, as delete_path and move_path do.
func (d *draft) linkLeaves(p string) *abi.Error {
	s, e := d.name(p)
	if e != nil || s.after.Kind != kindSymlink {
		return nil // the path as a file says what is wrong with it
	}
	return abi.Errorf(abi.InvalidArgument, "the patch deletes or renames %s, which is a symbolic link: a patch would act on the file it leads to and leave the link. Nothing was written; delete or move the link itself with delete_path or move_path", abi.Quote(s.display))
}

// withExec is mode made executable where it can be read, as chmod +x does
// under the usual umask, or made not executable: git keeps only that bit.
// A git mode line names the whole mode, which has no setuid or setgid (git
// apply writes the file without them): a patch that made a setuid file
// executable made a setuid program, so the mode it sets has neither.
func withExec(mode fs.FileMode, exec bool) fs.FileMode {
	mode &^= fs.ModeSetuid | fs.ModeSetgid
	if exec {
		return mode | (mode&0o444)>>2
	}
	return mode &^ 0o111
}
