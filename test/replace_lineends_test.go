package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// replace_in_files matches and writes a CRLF file as edit_file does: a
// newString with "\n" keeps the file's CRLF line ends (it wrote a bare
// "\n" into them), and a multi-line oldString copied from read_file
// matches (it was NO_MATCH). A newString's CRLF put in an LF file, by
// either tool, takes the file's "\n".
func TestReplaceInFilesKeepsLineEnds(t *testing.T) {
	root := workspace(t, map[string]string{
		"dos.go":  "a := one\r\nb := two\r\n",
		"unix.go": "a := one\nb := two\n",
	})
	s := start(t, root, "--mode", "trusted")
	s.ok("replace_in_files", map[string]any{"oldString": "one", "newString": "1\n// more", "fileGlob": "*.go", "dryRun": false, "expectedCount": 2})
	if got := disk(t, root, "dos.go"); got != "a := 1\r\n// more\r\nb := two\r\n" {
		t.Errorf("dos.go: %q", got)
	}
	if got := disk(t, root, "unix.go"); got != "a := 1\n// more\nb := two\n" {
		t.Errorf("unix.go: %q", got)
	}
	s.ok("replace_in_files", map[string]any{"oldString": "// more\nb := two", "newString": "b := 2", "fileGlob": "*.go", "dryRun": false, "expectedCount": 2})
	if got := disk(t, root, "dos.go"); got != "a := 1\r\nb := 2\r\n" {
		t.Errorf("dos.go, multi-line: %q", got)
	}
	if got := disk(t, root, "unix.go"); got != "a := 1\nb := 2\n" {
		t.Errorf("unix.go, multi-line: %q", got)
	}
	// A newString with CRLF takes each file's line ends too.
	s.ok("replace_in_files", map[string]any{"oldString": "b := 2", "newString": "b := 2\r\n// end", "fileGlob": "*.go", "dryRun": false, "expectedCount": 2})
	if got := disk(t, root, "unix.go"); got != "a := 1\nb := 2\n// end\n" {
		t.Errorf("unix.go, CRLF newString: %q", got)
	}
	if got := disk(t, root, "dos.go"); got != "a := 1\r\nb := 2\r\n// end\r\n" {
		t.Errorf("dos.go, CRLF newString: %q", got)
	}
	s.ok("edit_file", map[string]any{"path": "unix.go", "oldString": "// end", "newString": "// one\r\n// two"})
	if got := disk(t, root, "unix.go"); got != "a := 1\nb := 2\n// one\n// two\n" {
		t.Errorf("unix.go, edit_file's CRLF newString: %q", got)
	}
}

// replace_in_files refuses to replace a text by itself, as edit_file does,
// rather than report replacements it did not make.
func TestReplaceInFilesSameText(t *testing.T) {
	root := workspace(t, map[string]string{"a.go": "one\n"})
	s := start(t, root, "--mode", "trusted")
	msg := s.fail("replace_in_files", map[string]any{"oldString": "one", "newString": "one", "fileGlob": "*.go", "dryRun": false}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "the same") {
		t.Errorf("message: %s", msg)
	}
}

// A matching file too large for one read is named as not searched, in the
// text and the structured content, not passed over as if it held nothing.
func TestReplaceInFilesNamesFilesTooLarge(t *testing.T) {
	root := workspace(t, map[string]string{"small.txt": "needle\n"})
	big := strings.Repeat("hay hay hay hay hay hay hay hay hay hay hay hay\n", 11<<20/48) + "needle\n"
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, root, "--mode", "trusted")
	res := s.call("replace_in_files", map[string]any{"oldString": "needle", "newString": "pin", "fileGlob": "*.txt"})
	if res.IsError {
		t.Fatal(text(res))
	}
	if num(t, structured(t, res), "filesTooLarge") != 1 || !strings.Contains(text(res), "1 matching file(s) were not searched") {
		t.Errorf("the large file is not named: %s", text(res))
	}
	msg := s.fail("replace_in_files", map[string]any{"oldString": "needle", "newString": "pin", "fileGlob": "big.txt"}, "NO_MATCH")
	if !strings.Contains(msg, "not searched") {
		t.Errorf("NO_MATCH does not say the file was not searched: %s", msg)
	}
}

// A matching file larger than edit_file takes (32 MiB) is sent to a
// command, not to edit_file, which refuses it as TOO_LARGE: the advice
// led the model from one refusal to the other.
func TestReplaceInFilesSendsAFilePastEditsToACommand(t *testing.T) {
	root := workspace(t, map[string]string{"mid.txt": "x\n"})
	line := "hay hay hay hay hay hay hay hay hay hay hay hay\n"
	big := strings.Repeat(line, 33<<20/len(line)) + "needle\n"
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, root, "--mode", "trusted")
	msg := s.fail("replace_in_files", map[string]any{"oldString": "needle", "newString": "pin", "fileGlob": "big.txt"}, "NO_MATCH")
	if strings.Contains(msg, "edit_file") || !strings.Contains(msg, "run_command") {
		t.Errorf("NO_MATCH does not send big.txt to a command: %s", msg)
	}
	s.fail("edit_file", map[string]any{"path": "big.txt", "oldString": "needle", "newString": "pin"}, "TOO_LARGE")
}

// An edit or replacement whose oldString and newString differ only in
// line ends, a model's way to convert a CRLF file, is INVALID_ARGUMENT
// saying that edits write the file's own line ends and what converts
// them: replace_in_files reported "1 occurrence(s)" per line and changed
// nothing, and edit_file called the two strings the same.
func TestLineEndOnlyEditsSayTheyChangeNothing(t *testing.T) {
	root := workspace(t, map[string]string{"dos.txt": "a\r\nb\r\n"})
	s := start(t, root, "--mode", "trusted")
	msg := s.fail("replace_in_files", map[string]any{"oldString": "\r\n", "newString": "\n", "fileGlob": "*.txt", "dryRun": false}, "INVALID_ARGUMENT")
	for _, w := range []string{"differ only in their line ends", `"dos.txt": CRLF`, "dos2unix"} {
		if !strings.Contains(msg, w) {
			t.Errorf("replace_in_files: no %q in:\n%s", w, msg)
		}
	}
	msg = s.fail("edit_file", map[string]any{"path": "dos.txt", "oldString": "a\r\nb", "newString": "a\nb"}, "INVALID_ARGUMENT")
	for _, w := range []string{"differ only in their line ends", "(CRLF)", "dos2unix"} {
		if !strings.Contains(msg, w) {
			t.Errorf("edit_file: no %q in:\n%s", w, msg)
		}
	}
	if got := disk(t, root, "dos.txt"); got != "a\r\nb\r\n" {
		t.Errorf("dos.txt: %q", got)
	}
}
