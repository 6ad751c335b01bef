package edit

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// maxReplaceFiles bounds the files replace_in_files reads: a glob such as
// **/*.go may match thousands of files of which few hold oldString.
const maxReplaceFiles = 5000

// maxReplaceChanged bounds the files one call changes: each is an
// operation of the change, and the host refuses a change of more
// (abi.MaxChangeOps), a dry run too.
const maxReplaceChanged = abi.MaxChangeOps

// maxReplaceBytes bounds the new contents one call sends: the host refuses
// a change whose new contents pass it (abi.MaxChangeBytes), and the plugin
// holds them all in its memory to send them, so it stops there itself
// rather than trap out of memory or fail to send (300 files of 100 KB,
// each "a" made "bbbb", were 120 MB).
const maxReplaceBytes = abi.MaxChangeBytes

// ReplaceInFilesArgs are the arguments of replace_in_files.
type ReplaceInFilesArgs struct {
	OldString     string `json:"oldString" jsonschema:"required" min:"1" desc:"The literal text to replace (not a regular expression; case-sensitive)."`
	NewString     string `json:"newString" jsonschema:"required" desc:"The text to put in its place."`
	FileGlob      string `json:"fileGlob" jsonschema:"required" min:"1" desc:"Which files: a doublestar glob relative to path, e.g. **/*.go or src/**/*.{ts,tsx}. .gitignored files are skipped."`
	Path          string `json:"path,omitempty" desc:"The folder the glob starts from (default: the first root)."`
	DryRun        bool   `json:"dryRun" default:"true" desc:"Only show the counts and the diff (the default). Set false to write."`
	ExpectedCount int    `json:"expectedCount,omitempty" min:"0" desc:"When writing: the total number of replacements the dry run showed; the call fails with CONFLICT if it differs."`
}

// ReplaceOutput is the structured content of replace_in_files.
type ReplaceOutput struct {
	abi.ChangeResult
	Replacements  int `json:"replacements" desc:"Total replacements, over every file."`
	FilesMatched  int `json:"filesMatched" desc:"Files holding oldString."`
	FilesScanned  int `json:"filesScanned" desc:"Files the glob matched and that were read."`
	FilesLeftOut  int `json:"filesLeftOut,omitempty" desc:"Files the glob matched that juju never reads or changes (secrets, paths the owner denied)."`
	FilesTooLarge int `json:"filesTooLarge,omitempty" desc:"Files the glob matched that are too large for one read, so they were not searched: edit them with edit_file."`
}

func init() {
	juju.Tool("replace_in_files", editTool("Replace in files",
		"Replaces a literal string in every file matching fileGlob. Dry run by default: returns the count per file and the diff without writing; "+
			"then call again with dryRun false and expectedCount set to the total shown, so nothing else gets replaced. "+
			"All files change at once or none; journaled, one rollback_changes undoes it. Binary files, secrets and .git are skipped. "+
			fmt.Sprintf("One call reads at most %d files and changes at most %d, with at most %d MiB of new content together: narrow fileGlob past that.",
				maxReplaceFiles, maxReplaceChanged, maxReplaceBytes>>20),
		ReplaceOutput{}, true, false), replaceInFiles)
}

// replaceTries bounds the writes of one call. The files' states a change
// names are those this call read itself, never the model's: when one
// changed before the write (another call of the same message, the owner's
// editor), nothing was written, and the call reads the files again and
// replaces in what they hold now rather than answer FILE_CHANGED for a
// read the model never made. Each retry follows another writer's change,
// so calls racing one another all land; a file that keeps changing ends
// the call with FILE_CHANGED after the last try.
const replaceTries = 8

func replaceInFiles(_ *juju.Call, in ReplaceInFilesArgs) (*juju.Result, error) {
	for try := 1; ; try++ {
		res, err := replaceOnce(in)
		if try < replaceTries && !in.DryRun && juju.IsCode(err, abi.FileChanged) {
			continue
		}
		return res, err
	}
}

// replaceOnce reads the files matching in, replaces in them and applies
// (or dry-runs) the change.
func replaceOnce(in ReplaceInFilesArgs) (*juju.Result, error) {
	if in.OldString == in.NewString {
		return nil, juju.Errorf(abi.InvalidArgument, "oldString and newString are the same, so nothing would change; pass the new text as newString")
	}
	g, err := juju.Glob(abi.GlobRequest{Pattern: folderGlob(in.FileGlob), Path: in.Path, Limit: maxReplaceFiles})
	if err != nil {
		return nil, err
	}
	if g.Truncated {
		return nil, juju.Errorf(abi.TooLarge, "fileGlob matches more than %d files; narrow it", maxReplaceFiles)
	}
	out := ReplaceOutput{FilesLeftOut: g.Hidden}
	secrets := g.HiddenSecrets
	c := new(juju.Change)
	var newBytes int64      // the new contents c holds, every file together
	near, nearLine := "", 0 // where oldString nearly is, while it is nowhere
	word := longestWord(in.OldString)
	pastEdit := 0 // files too large to search that edit_file refuses too
	// counts holds the replacements of each file written whole, which
	// the host does not count as it counts an edit's.
	counts := map[string]int{}
	// A symlink the glob matches leads to a file: it is read through,
	// and its file replaced in once, under the file's own path, however
	// many of its names match.
	seen := map[string]bool{}
	for _, e := range g.Entries {
		if e.Type != abi.TypeFile && e.Type != abi.TypeSymlink {
			continue
		}
		// The host hashes what it read: the change names that state, so a
		// file changed since is a conflict, not overwritten.
		rr, body, err := juju.ReadFile(abi.ReadRequest{Path: e.Path, Hash: true})
		if err != nil {
			switch {
			case juju.IsCode(err, abi.SecretDenied):
				out.FilesLeftOut++
				secrets++
				continue
			case juju.IsCode(err, abi.PathDenied):
				out.FilesLeftOut++
				continue
			case juju.IsCode(err, abi.NotFound):
				continue
			}
			return nil, err
		}
		if seen[rr.Path] {
			continue
		}
		seen[rr.Path] = true
		out.FilesScanned++
		if rr.Binary {
			op, n, err := replaceUTF16(rr.Path, in)
			if err != nil {
				return nil, err
			}
			if n > 0 {
				if err := tooManyFiles(in, out.FilesMatched); err != nil {
					return nil, err
				}
				out.FilesMatched++
				out.Replacements += n
				c.Edit(op)
			}
			continue
		}
		if rr.Truncated {
			out.FilesTooLarge++
			if e.Size > maxEditBytes {
				pastEdit++
			}
			continue
		}
		old, repl := lineEnds(body, in.OldString, in.NewString)
		if bytes.Equal(old, repl) {
			return nil, juju.Errorf(abi.InvalidArgument, "oldString and newString differ only in their line ends (CRLF against LF), and a replacement writes the line ends of each file (%s: %s) whatever its arguments use, so nothing would change; nothing was written. "+
				"replace_in_files never converts line ends: to do that, run a command (dos2unix or unix2dos, or sed -i 's/\\r$//' on the files)", abi.Quote(e.Path), endsOf(body))
		}
		n := bytes.Count(body, old)
		if n == 0 {
			if near == "" && c.Len() == 0 {
				if l := looseLine(body, in.OldString, word); l > 0 {
					near, nearLine = e.Path, l
				}
			}
			continue
		}
		if err := tooManyFiles(in, out.FilesMatched); err != nil {
			return nil, err
		}
		// The new content's length is known before it is made: past the
		// bound, nothing more is allocated.
		newBytes += int64(len(body)) + int64(n)*int64(len(repl)-len(old))
		if newBytes > maxReplaceBytes {
			return nil, juju.Errorf(abi.TooLarge, "the replacements' new contents pass %d MiB together (at %s), more than one change holds; nothing was written. Narrow fileGlob or path and replace in several calls",
				maxReplaceBytes>>20, abi.Quote(e.Path))
		}
		out.FilesMatched++
		out.Replacements += n
		if rr.SHA256 == "" {
			return nil, juju.Errorf(abi.Internal, "the host read %q without its sha256; tell the owner (this juju and its core plugin do not match)", e.Path)
		}
		c.Write(abi.ChangeOp{Path: rr.Path, ExpectedSHA256: rr.SHA256}, bytes.ReplaceAll(body, old, repl))
		counts[rr.Path] = n
	}
	if c.Len() == 0 {
		return nil, noReplacement(in, &out, secrets, pastEdit, near, nearLine)
	}
	if !in.DryRun && in.ExpectedCount > 0 && in.ExpectedCount != out.Replacements {
		return nil, juju.Errorf(abi.Conflict, "there %s to make now, not the %d expected; nothing was written. Run again with dryRun to see them", isAre(out.Replacements, "replacement"), in.ExpectedCount)
	}
	var res *abi.ChangeResult
	if in.DryRun {
		res, err = c.DryRun()
	} else {
		res, err = c.Apply()
	}
	if err != nil {
		return nil, err
	}
	for i, f := range res.Files {
		if f.Replacements == 0 {
			res.Files[i].Replacements = counts[f.Path]
		}
	}
	verb := fmt.Sprintf("Replaced %d occurrence(s) in %d file(s)", out.Replacements, out.FilesMatched)
	if in.DryRun {
		verb = fmt.Sprintf("%d occurrence(s) in %d file(s) of %d scanned; to write them call again with dryRun false and expectedCount %d.",
			out.Replacements, out.FilesMatched, out.FilesScanned, out.Replacements)
	}
	text := summary(verb, res) // cuts res.Files to the paths it lists
	if out.FilesLeftOut > 0 {
		text += leftOut(out.FilesLeftOut, secrets) + "\n"
	}
	if out.FilesTooLarge > 0 {
		text += tooLarge(out.FilesTooLarge, pastEdit) + "\n"
	}
	out.ChangeResult = *res
	return juju.Text(text).WithStructured(out), nil
}

// lineEnds returns oldString and newString as they are matched and
// written in body, as edit_file does: in a file whose every line ends in
// CRLF a "\n" stands for CRLF (so a multi-line oldString copied from
// read_file matches, and a newString's new lines do not mix line ends
// into the file), and in a file without CRLF a CRLF of either stands for
// "\n".
func lineEnds(body []byte, old, new string) ([]byte, []byte) {
	lf := func(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
	crlf := bytes.Count(body, []byte("\r\n"))
	switch {
	case crlf > 0 && crlf == bytes.Count(body, []byte("\n")):
		return []byte(strings.ReplaceAll(lf(old), "\n", "\r\n")), []byte(strings.ReplaceAll(lf(new), "\n", "\r\n"))
	case crlf == 0:
		return []byte(lf(old)), []byte(lf(new))
	}
	return []byte(old), []byte(new)
}

// endsOf names body's line ends as lineEnds reads them.
func endsOf(body []byte) string {
	switch crlf := bytes.Count(body, []byte("\r\n")); {
	case crlf == 0:
		return "LF"
	case crlf == bytes.Count(body, []byte("\n")):
		return "CRLF"
	}
	return "mixed"
}

// maxEditBytes is the largest file the journal edits (its
// DefaultMaxFileSize): edit_file refuses a larger one as TOO_LARGE.
const maxEditBytes = 32 << 20

// tooLarge says how many matching files were too large to search, and
// what changes them: edit_file, or a command for the past of them larger
// than edit_file takes.
func tooLarge(n, past int) string {
	const edit, command = "replace in them with edit_file and replaceAll", "which juju does not edit; change them with a command (run_command)"
	switch {
	case past == 0:
		return fmt.Sprintf("%d matching file(s) were not searched: each is larger than one read takes; %s", n, edit)
	case past == n:
		return fmt.Sprintf("%d matching file(s) were not searched: each is larger than %d MiB, %s", n, maxEditBytes>>20, command)
	}
	return fmt.Sprintf("%d matching file(s) were not searched: each is larger than one read takes; %s, but %d of them are larger than %d MiB, %s", n, edit, past, maxEditBytes>>20, command)
}

// tooManyFiles refuses one more changed file when matched files already
// make the most one change holds.
func tooManyFiles(in ReplaceInFilesArgs, matched int) error {
	if matched < maxReplaceChanged {
		return nil
	}
	return juju.Errorf(abi.TooLarge, "oldString occurs in more than %d of the files matching %q, and one change holds at most %d; nothing was written. Narrow fileGlob or path and replace in several calls",
		maxReplaceChanged, in.FileGlob, maxReplaceChanged)
}

// replaceUTF16 counts oldString in path, a file read as binary, when it is
// UTF-16 text, which the host converts for reading and edits in its own
// encoding: the replacement is then an edit of every occurrence, made by
// the host on the file's text as read here (ExpectedSHA256, ExpectedCount),
// which writes the file back UTF-16. Any other binary file has none.
func replaceUTF16(path string, in ReplaceInFilesArgs) (abi.ChangeOp, int, error) {
	_, mark, err := juju.ReadFile(abi.ReadRequest{Path: path, Binary: true, Length: 2})
	if err != nil || string(mark) != "\xff\xfe" && string(mark) != "\xfe\xff" {
		return abi.ChangeOp{}, 0, nil
	}
	raw, _, err := juju.ReadFile(abi.ReadRequest{Path: path, Binary: true, Hash: true})
	if err != nil || raw.SHA256 == "" {
		return abi.ChangeOp{}, 0, nil // gone meanwhile, or too large to read whole
	}
	rr, text, err := juju.ReadFile(abi.ReadRequest{Path: path})
	if err != nil || rr.Encoding == "" || rr.Truncated {
		return abi.ChangeOp{}, 0, nil // not UTF-16 throughout, or too large
	}
	n := strings.Count(string(text), in.OldString)
	return abi.ChangeOp{Path: path, OldString: in.OldString, NewString: in.NewString, ReplaceAll: true,
		ExpectedSHA256: raw.SHA256, ExpectedCount: n}, n, nil
}

// folderGlob reads a fileGlob ending in a slash (src/) as that folder and
// what it holds, as search_code's fileGlob and ripgrep's --glob read it:
// no file's path matches it as written, so a model that searched with
// fileGlob "src/" and replaced with the same glob was told no file
// matched.
func folderGlob(g string) string {
	if name, folder := strings.CutSuffix(g, "/"); folder && name != "" && !strings.HasSuffix(name, "/") {
		return g + "**"
	}
	return g
}

// noReplacement explains a call that found nothing to replace: the glob
// matched only files juju never touches (SECRET_DENIED or PATH_DENIED, not
// a silent NO_MATCH), or no file, or files without oldString.
//
// near, when not "", is a file where oldString is at nearLine once white
// space and characters that look alike are compared loosely.
func noReplacement(in ReplaceInFilesArgs, out *ReplaceOutput, secrets, pastEdit int, near string, nearLine int) error {
	switch {
	case out.FilesScanned == 0 && out.FilesLeftOut > 0 && secrets == out.FilesLeftOut:
		return juju.Errorf(abi.SecretDenied, "fileGlob %q matches only secrets (%d file(s): keys, credentials, .env files and the like), which juju never reads or changes; nothing was changed. Leave them out, or ask the owner to edit them",
			in.FileGlob, out.FilesLeftOut)
	case out.FilesScanned == 0 && out.FilesLeftOut > 0:
		return juju.Errorf(abi.PathDenied, "fileGlob %q matches only paths juju may not touch (%d: secrets, or paths the owner's deny rules exclude); nothing was changed. Choose other files",
			in.FileGlob, out.FilesLeftOut)
	case out.FilesScanned == 0 && !strings.ContainsAny(folderGlob(in.FileGlob), "*?[{"):
		return juju.Errorf(abi.NoMatch, "no file matches fileGlob %q (.gitignored files are skipped): it holds no wildcard, so it names only files called so; to replace in a folder and what it holds, pass fileGlob %q", in.FileGlob, strings.TrimSuffix(in.FileGlob, "/")+"/**")
	case out.FilesScanned == 0:
		return juju.Errorf(abi.NoMatch, "no file matches fileGlob %q (.gitignored files are skipped); check the glob with glob_files", in.FileGlob)
	}
	msg := fmt.Sprintf("oldString occurs in none of the %d files matching %q; check the text (the match is literal and case-sensitive) or widen fileGlob", out.FilesScanned, in.FileGlob)
	if out.FilesScanned == 1 {
		msg = fmt.Sprintf("oldString does not occur in the one file matching %q; check the text (the match is literal and case-sensitive) or widen fileGlob", in.FileGlob)
	}
	if near != "" {
		msg += fmt.Sprintf(". It nearly occurs in %s at line %d: the same text once white space (tabs against spaces, trailing blanks, line breaks) and characters that look alike (curly against straight quotes, no-break and zero-width spaces) are compared loosely. "+
			"Read that line and copy its text exactly, or try edit_file on %s, whose NO_MATCH names each character that differs", abi.Quote(near), nearLine, abi.Quote(near))
	}
	if out.FilesLeftOut > 0 {
		msg += " (" + leftOut(out.FilesLeftOut, secrets) + ")"
	}
	if out.FilesTooLarge > 0 {
		msg += " (" + tooLarge(out.FilesTooLarge, pastEdit) + ")"
	}
	return juju.Errorf(abi.NoMatch, "%s", msg)
}

// leftOut says how many matching files were not read, and why.
// isAre says how many of a noun there are: "is 1 replacement", "are 2
// replacements".
func isAre(n int, noun string) string {
	if n == 1 {
		return "is 1 " + noun
	}
	return fmt.Sprintf("are %d %ss", n, noun)
}

func leftOut(n, secrets int) string {
	switch {
	case secrets == n:
		return fmt.Sprintf("%d more matching file(s) were left out: secrets, which juju never reads or changes", n)
	case secrets == 0:
		return fmt.Sprintf("%d more matching file(s) were left out: the owner's deny rules exclude them", n)
	}
	return fmt.Sprintf("%d more matching file(s) were left out: secrets or paths the owner's deny rules exclude", n)
}
