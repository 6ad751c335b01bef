package text

import (
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

func TestParsePatch(t *testing.T) {
	fps, e := ParsePatch("diff --git a/x b/x\nindex 1..2 100644\n--- a/x\t2024-01-01\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n\\ No newline at end of file\n--- /dev/null\n+++ b/new\n@@ -0,0 +1 @@\n+n\n")
	if e != nil {
		t.Fatal(e)
	}
	if len(fps) != 2 || fps[0].Old != "x" || fps[0].New != "x" || fps[1].Old != "" || fps[1].New != "new" {
		t.Fatalf("%+v", fps)
	}
	h := fps[0].Hunks[0]
	if strings.Join(h.OldLines, "|") != "a\n|b\n" || strings.Join(h.NewLines, "|") != "a\n|B" {
		t.Fatalf("lines %q %q", h.OldLines, h.NewLines)
	}
	for _, bad := range []string{
		"",
		"just prose",
		"@@ -1 +1 @@\n-a\n+b\n",
		"--- a/x\n+++ b/x\n",
		"--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n",
		"--- a/x\n+++ b/x\n@@ bogus @@\n",
		"--- a/x\n+++ b/x\n@@ -1 +1 @@\n*a\n",
		"--- /dev/null\n+++ /dev/null\n@@ -0,0 +1 @@\n+a\n",
	} {
		if _, e := ParsePatch(bad); e == nil || e.Code != abi.InvalidArgument {
			t.Errorf("%q: got %v, want INVALID_ARGUMENT", bad, e)
		}
	}
}

func TestApplyHunks(t *testing.T) {
	text := "1\n2\n3\n4\n5\n6\n7\n8\n"
	patch := func(s string) []Hunk { return hunksOf(t, s) }
	got, e := ApplyHunks("f", text, patch("@@ -2,2 +2,2 @@\n 2\n-3\n+three\n@@ -7,1 +7,2 @@\n 7\n+7b\n"))
	if e != nil || got != "1\n2\nthree\n4\n5\n6\n7\n7b\n8\n" {
		t.Fatalf("%q %v", got, e)
	}
	// Lines above moved: the Hunk is found where its lines are, exactly,
	// and the place is told; a hunk in place is not.
	got, moved, e := PlaceHunks("f", "0\n"+text, patch("@@ -2,2 +2,2 @@\n 2\n-3\n+three\n@@ -5,1 +5,1 @@\n-4\n+four\n"))
	if e != nil || got != "0\n1\n2\nthree\nfour\n5\n6\n7\n8\n" {
		t.Fatalf("offset: %q %v", got, e)
	}
	if len(moved) != 1 || moved[0] != (Moved{Hunk: 1, Line: 3, Offset: 1}) {
		t.Fatalf("moved: %+v", moved)
	}
	// No fuzz: one changed context line is a conflict naming the Hunk.
	_, e = ApplyHunks("f", text, patch("@@ -2,2 +2,2 @@\n 2\n-3\n+three\n@@ -6,2 +6,2 @@\n 6\n-SEVEN\n+7\n"))
	msg := wantCode(t, e, abi.Conflict)
	if !strings.Contains(msg, "hunk 2") || !strings.Contains(msg, `"SEVEN"`) {
		t.Fatalf("message: %s", msg)
	}
	// Appending at the end of a file without a final newline.
	got, e = ApplyHunks("f", "a\nb", patch("@@ -1,2 +1,3 @@\n a\n-b\n\\ No newline at end of file\n+b\n+c\n"))
	if e != nil || got != "a\nb\nc\n" {
		t.Fatalf("no newline: %q %v", got, e)
	}
}

// A hunk whose line differs from the file's only in white space or in
// characters that look alike is a conflict that names the difference, and
// says hunks apply exactly where only white space differs: where it
// printed the two lines, which look the same.
func TestHunkConflictNamesTheDifference(t *testing.T) {
	for _, c := range []struct {
		file, patch string
		want        []string
	}{
		{"func f() {\n\treturn 1\n}\n", "@@ -1,3 +1,3 @@\n func f() {\n-    return 1\n+    return 2\n }\n",
			[]string{"line 2 of the file", "the file indents with 1 tab, the hunk with 4 spaces", "git apply does without --ignore-whitespace"}},
		{"alpha   \nbeta\n", "@@ -1,2 +1,2 @@\n alpha\n-beta\n+gamma\n",
			[]string{"line 1 of the file", "trailing blanks differ", "white space included"}},
		{"He said “hi”.\n", "@@ -1 +1 @@\n-He said \"hi\".\n+Bye.\n",
			[]string{"the file has a left double curly quote ('“', U+201C) where the hunk has a straight double quote"}},
		{"un cafe\u0301\n", "@@ -1 +1 @@\n-un caf\u00e9\n+deux\n",
			[]string{"line 1 of the file", "NFD against NFC"}},
	} {
		_, e := ApplyHunks("f", c.file, hunksOf(t, c.patch))
		msg := wantCode(t, e, abi.Conflict)
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("no %q in:\n%s", w, msg)
			}
		}
		if strings.Contains(msg, "oldString") {
			t.Errorf("a hunk's conflict names oldString:\n%s", msg)
		}
	}
}

// FuzzParsePatch checks that the parser never panics, that what it
// accepts has a consistent shape, and that applying a parsed Hunk never
// panics either.
func FuzzParsePatch(f *testing.F) {
	f.Add("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n", "a\nb\n")
	f.Add("--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+n\n", "")
	f.Add("--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n\\ No newline at end of file\n", "a")
	f.Add("diff --git a/x b/y\n--- a/x\n+++ b/y\n", "")
	f.Add("--- a/x\n+++ b/x\n@@ -3 +3,2 @@\n c\n+d\n@@ -9,0 +10 @@\n+z\n", "a\nb\nc\n")
	f.Add("diff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to y\ndiff --git \"a/s p\" \"b/s p\"\nold mode 100644\nnew mode 100755\n", "")
	f.Add("diff --git a/e b/e\nnew file mode 100644\nindex 0000000..e69de29\ndiff --git a/d b/d\ndeleted file mode 100755\n", "")
	f.Fuzz(func(t *testing.T, patch, text string) {
		fps, e := ParsePatch(patch)
		if e != nil {
			if !e.Code.Valid() || e.Message == "" {
				t.Fatalf("bad error %+v", e)
			}
			return
		}
		for _, fp := range fps {
			if fp.Old == "" && fp.New == "" {
				t.Fatal("a file from /dev/null to /dev/null was accepted")
			}
			for _, h := range fp.Hunks {
				if h.OldStart < 0 {
					t.Fatal("negative start")
				}
			}
			out, e := ApplyHunks("f", text, fp.Hunks)
			if e != nil {
				if e.Code != abi.Conflict {
					t.Fatalf("apply: %v", e)
				}
				continue
			}
			_ = out
		}
	})
}

// Names git quotes (a control character, a quote, a backslash, or bytes
// outside ASCII with core.quotePath) are read as the names they stand for,
// and QuotePath writes what ParsePatch reads back.
func TestPatchQuotedNames(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`"a/s p\tc.txt"` + "\t", "s p\tc.txt"},
		{`"b/caf\303\251.txt"`, "café.txt"},
		{`"a/we\nird"`, "we\nird"},
		{`"a/q\"uote\\s"` + "\t2026-12-05 10:00:00", `q"uote\s`},
		{"a/plain name.txt\t2026-12-05", "plain name.txt"},
		{`"a/unterminated`, `"a/unterminated`},
	} {
		if got := patchPath(c.line + "\n"); got != c.want {
			t.Errorf("patchPath(%q) = %q, want %q", c.line, got, c.want)
		}
	}
	for _, name := range []string{"plain.txt", "café.txt", "we\nird", "tab\there", `q"uote\s`, "del\x7f", "bell\a"} {
		quoted := QuotePath("a/" + name)
		if (quoted != "a/"+name) != strings.ContainsAny(name, "\n\t\"\\\x7f\a") {
			t.Errorf("QuotePath(%q) = %q", name, quoted)
		}
		if got := patchPath(quoted + "\n"); got != name {
			t.Errorf("%q read back as %q", quoted, got)
		}
	}
	// git's own diff of such a file.
	fps, e := ParsePatch("diff --git \"a/s p\\tc.txt\" \"b/s p\\tc.txt\"\nindex 5626abf..f719efd 100644\n--- \"a/s p\\tc.txt\"\t\n+++ \"b/s p\\tc.txt\"\t\n@@ -1 +1 @@\n-one\n+two\n")
	if e != nil || len(fps) != 1 || fps[0].Old != "s p\tc.txt" || fps[0].New != "s p\tc.txt" {
		t.Fatalf("git's diff: %+v, %v", fps, e)
	}
}

// A git diff's extended headers are read whether or not a --- line
// follows: renames, empty files made or deleted, mode changes; names as
// git writes them, quoted or with spaces.
func TestParseGitHeaders(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		patch string
		want  []FilePatch
	}{
		{"diff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to y\n", []FilePatch{{Old: "x", New: "y"}}},
		{"diff --git a/e b/e\nnew file mode 100644\nindex 0000000..e69de29\n", []FilePatch{{New: "e", Exec: &no}}},
		{"diff --git a/d b/d\ndeleted file mode 100755\nindex e69de29..0000000\n", []FilePatch{{Old: "d"}}},
		{"diff --git a/s p b/s p\nold mode 100644\nnew mode 100755\n", []FilePatch{{Old: "s p", New: "s p", Exec: &yes}}},
		{"diff --git \"a/t\\tb\" \"b/t\\tb\"\nold mode 100755\nnew mode 100644\n", []FilePatch{{Old: "t\tb", New: "t\tb", Exec: &no}}},
		{"diff --git a/old name b/new name\nrename from old name\nrename to new name\n", []FilePatch{{Old: "old name", New: "new name"}}},
		{"diff --git a/r b/r\nold mode 100644\nnew mode 100755\n--- a/r\n+++ b/r\n@@ -1 +1 @@\n-a\n+b\n", []FilePatch{{Old: "r", New: "r", Exec: &yes}}},
		// A bare diff --git line of prose before a real file changes nothing.
		{"diff --git a/p b/p\nindex 1..2\n--- a/q\n+++ b/q\n@@ -1 +1 @@\n-a\n+b\n", []FilePatch{{Old: "q", New: "q"}}},
	} {
		got, e := ParsePatch(c.patch)
		if e != nil {
			t.Errorf("%q: %v", c.patch, e)
			continue
		}
		if len(got) != len(c.want) {
			t.Errorf("%q: %d files, want %d", c.patch, len(got), len(c.want))
			continue
		}
		for i, w := range c.want {
			g := got[i]
			if g.Old != w.Old || g.New != w.New || (g.Exec == nil) != (w.Exec == nil) || g.Exec != nil && *g.Exec != *w.Exec {
				t.Errorf("%q: file %d is %+v, want %+v", c.patch, i, g, w)
			}
		}
	}
	for _, bad := range []string{
		"diff --git a/b b/b\nindex 1..2 100644\nGIT binary patch\nliteral 0\n",
		"diff --git a/b b/b\nBinary files a/b and b/b differ\n",
		"diff --git a/x b/y\ncopy from x\ncopy to y\n",
		"diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+t\n",
		"diff --git a/m b/m\nnew mode 160000\n",
		"diff --git a/m b/m\nnew mode 100777\n",
		"diff --git a/x b/y\nrename from x\n",
	} {
		if _, e := ParsePatch(bad); e == nil || e.Code != abi.InvalidArgument {
			t.Errorf("%q: got %v, want INVALID_ARGUMENT", bad, e)
		}
	}
}

// A hunk without old lines (diff -U0's insertion) goes exactly after the
// line it names or nowhere: one naming a line past the end, or a line a
// hunk before it already passed, was put at the end or after that hunk,
// where the patch never said, and reported as applied.
func TestInsertionHunkGoesWhereItSays(t *testing.T) {
	text := "1\n2\n3\n4\n5\n6\n7\n8\n"
	patch := func(s string) []Hunk { return hunksOf(t, s) }
	got, e := ApplyHunks("f", text, patch("@@ -0,0 +1 @@\n+0\n@@ -3,0 +5 @@\n+3b\n@@ -8,0 +10 @@\n+9\n"))
	if e != nil || got != "0\n1\n2\n3\n3b\n4\n5\n6\n7\n8\n9\n" {
		t.Fatalf("insertions in place: %q %v", got, e)
	}
	msg := wantCode(t, second(ApplyHunks("f", text, patch("@@ -50,0 +51 @@\n+tail\n"))), abi.Conflict)
	if !strings.Contains(msg, "after line 50, but the file has 8 lines") {
		t.Errorf("past the end: %s", msg)
	}
	msg = wantCode(t, second(ApplyHunks("f", text, patch("@@ -5,2 +5,2 @@\n 5\n-6\n+six\n@@ -2,0 +3 @@\n+2b\n"))), abi.Conflict)
	if !strings.Contains(msg, "hunk 2") || !strings.Contains(msg, "must come in order") {
		t.Errorf("before the hunk above it: %s", msg)
	}
}

// A hunk that fails to apply says why, even when its lines are in the
// file: it comes above the hunk before it, or the file's last line has
// no newline and the hunk does not mark it.
func TestHunkConflictExplains(t *testing.T) {
	patch := func(s string) []Hunk { return hunksOf(t, s) }
	msg := wantCode(t, second(ApplyHunks("f", "1\n2\n3\n4\n5\n6\n7\n8\n", patch("@@ -6,2 +6,2 @@\n 6\n-7\n+seven\n@@ -3,2 +3,2 @@\n 3\n-4\n+four\n"))), abi.Conflict)
	if !strings.Contains(msg, "it starts at line 3, but hunk 1 before it reaches line 7") {
		t.Errorf("out of order: %s", msg)
	}
	msg = wantCode(t, second(ApplyHunks("f", "x\ny", patch("@@ -1,2 +1,2 @@\n x\n-y\n+z\n"))), abi.Conflict)
	if !strings.Contains(msg, "no newline at its end") || !strings.Contains(msg, `"\ No newline at end of file"`) {
		t.Errorf("missing marker: %s", msg)
	}
}

// A patch in Codex's format is refused with what to send instead, not
// read as a broken unified diff.
func TestCodexPatchIsExplained(t *testing.T) {
	_, e := ParsePatch("*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch\n")
	msg := wantCode(t, e, abi.InvalidArgument)
	if !strings.Contains(msg, "Codex") || !strings.Contains(msg, "--- a/PATH") || !strings.Contains(msg, "edit_file") {
		t.Errorf("message: %s", msg)
	}
}

func second[T any](_ T, e *abi.Error) *abi.Error { return e }

// hunksOf parses s, the hunks of one file's patch without its header.
func hunksOf(t *testing.T, s string) []Hunk {
	t.Helper()
	fps, e := ParsePatch("--- a/f\n+++ b/f\n" + s)
	if e != nil {
		t.Fatal(e)
	}
	return fps[0].Hunks
}

// diff -ruN dates a file it makes or deletes at the Unix epoch, with no
// /dev/null: the patch makes or deletes it, as git apply does; a file
// that only changes keeps both names.
func TestParsePatchEpochIsNoFile(t *testing.T) {
	made, e := ParsePatch("diff -ruN a/n.txt b/n.txt\n--- a/n.txt\t1970-01-01 01:00:00.000000000 +0100\n+++ b/n.txt\t2026-12-06 23:43:12.763507020 +0000\n@@ -0,0 +1 @@\n+x\n")
	if e != nil || made[0].Old != "" || made[0].New != "n.txt" {
		t.Fatalf("made: %+v %v", made, e)
	}
	gone, e := ParsePatch("--- a/o.txt\t2026-12-06 23:43:12.763507020 +0000\n+++ b/o.txt\t1970-01-01 00:00:00.000000000 +0000\n@@ -1 +0,0 @@\n-x\n")
	if e != nil || gone[0].Old != "o.txt" || gone[0].New != "" {
		t.Fatalf("deleted: %+v %v", gone, e)
	}
	kept, e := ParsePatch("--- a/k.txt\t1970-01-01 00:00:00.000000000 +0000\n+++ b/k.txt\t1970-01-01 00:00:00.000000000 +0000\n@@ -1 +1 @@\n-x\n+y\n")
	if e != nil || kept[0].Old != "k.txt" || kept[0].New != "k.txt" {
		t.Fatalf("changed: %+v %v", kept, e)
	}
}

// A hunk with context starting at line 1 changes the file's start: with
// lines added above its lines since, it is a CONFLICT saying where they
// are, as git apply refuses it, not applied further down; a hunk further
// in still moves with the lines above it.
func TestHunkAtLineOneStaysThere(t *testing.T) {
	patch := func(s string) []Hunk { return hunksOf(t, s) }
	text := "new\n1\n2\n3\n4\n5\n"
	msg := wantCode(t, second(ApplyHunks("f", text, patch("@@ -1,3 +1,4 @@\n+0\n 1\n 2\n 3\n"))), abi.Conflict)
	if !strings.Contains(msg, "its lines are at line 2") || !strings.Contains(msg, "start of the file") {
		t.Fatalf("message: %s", msg)
	}
	if got, e := ApplyHunks("f", "1\n2\n3\n", patch("@@ -1,3 +1,4 @@\n+0\n 1\n 2\n 3\n")); e != nil || got != "0\n1\n2\n3\n" {
		t.Fatalf("in place: %q %v", got, e)
	}
	if got, e := ApplyHunks("f", text, patch("@@ -2,2 +2,2 @@\n 2\n-3\n+three\n")); e != nil || got != "new\n1\n2\nthree\n4\n5\n" {
		t.Fatalf("further in: %q %v", got, e)
	}
}

// A hunk's lines past what its @@ line counts are refused, not skipped as
// text between files; context alone past the count, a blank line and a
// mail's signature are not hunk lines.
func TestParsePatchRefusesLinesPastTheCount(t *testing.T) {
	head := "--- a/f\n+++ b/f\n"
	for _, body := range []string{
		"@@ -1,2 +1,2 @@\n a\n-b\n+B\n-c\n",
		"@@ -1,2 +1,2 @@\n a\n-b\n+B\n+C\n",
		"@@ -1,2 +1,2 @@\n a\n-b\n+B\n c\n\\ No newline at end of file\n+d\n",
	} {
		_, e := ParsePatch(head + body)
		if msg := wantCode(t, e, abi.InvalidArgument); !strings.Contains(msg, "would be left out") {
			t.Fatalf("%q: %s", body, msg)
		}
	}
	for _, body := range []string{
		"@@ -1,2 +1,2 @@\n a\n-b\n+B\n c\n",
		"@@ -1,2 +1,2 @@\n a\n-b\n+B\n\n-- \n2.43.0\n",
		"@@ -1,2 +1,2 @@\n a\n-b\n+B\n-- \n2.43.0\n",
		"@@ -1,2 +1,2 @@\n a\n-b\n+B\n--- a/g\n+++ b/g\n@@ -1 +1 @@\n-x\n+y\n",
	} {
		if _, e := ParsePatch(head + body); e != nil {
			t.Fatalf("%q: %v", body, e)
		}
	}
}

// A hunk's lines are read with LF line ends, and kept as written too: a
// file of mixed line ends holds its carriage returns as text.
func TestParsePatchKeepsCarriageReturnsRaw(t *testing.T) {
	fps, e := ParsePatch("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\r\n-b\n+B\r\n\\ No newline at end of file\n")
	if e != nil {
		t.Fatal(e)
	}
	h := fps[0].Hunks[0]
	if strings.Join(h.OldLines, "|") != "a\n|b\n" || strings.Join(h.NewLines, "|") != "a\n|B" {
		t.Fatalf("LF lines: %q %q", h.OldLines, h.NewLines)
	}
	raw, ok := fps[0].Raw()
	if !ok || strings.Join(raw.Hunks[0].OldLines, "|") != "a\r\n|b\n" || strings.Join(raw.Hunks[0].NewLines, "|") != "a\r\n|B\r" {
		t.Fatalf("raw lines: %v %q %q", ok, raw.Hunks[0].OldLines, raw.Hunks[0].NewLines)
	}
	if fps, _ := ParsePatch("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-b\n+B\n"); fps[0].Hunks[0].RawOld != nil {
		t.Fatal("a hunk without carriage returns keeps raw lines")
	}
}
