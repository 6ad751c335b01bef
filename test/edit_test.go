package test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// disk reads a file of the workspace, failing the test when it cannot.
func disk(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatalf("reading %s: %v", rel, err)
	}
	return string(b)
}

func absent(t *testing.T, root, rel string) {
	t.Helper()
	if _, err := os.Lstat(filepath.Join(root, rel)); !os.IsNotExist(err) {
		t.Fatalf("%s should not exist (err %v)", rel, err)
	}
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// noTempFiles fails when a temporary file of the journal is left in root.
func noTempFiles(t *testing.T, root string) {
	t.Helper()
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && strings.HasPrefix(fi.Name(), ".juju-") {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
}

func changeID(t *testing.T, s *session, tool string, args map[string]any) string {
	t.Helper()
	res := s.call(tool, args)
	if res.IsError {
		t.Fatalf("%s failed: %s", tool, text(res))
	}
	id, _ := structured(t, res)["changeId"].(string)
	if id == "" {
		t.Fatalf("%s: no change id in %s", tool, text(res))
	}
	return id
}

func TestEditTools(t *testing.T) {
	root := workspace(t, map[string]string{
		"main.go":          "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n",
		"dos.txt":          "\xef\xbb\xbfone\r\ntwo\r\nthree\r\n",
		"dup.txt":          "x = 1\ny = 2\nx = 1\n",
		"real/t.txt":       "target\n",
		"link.txt":         "->real/t.txt",
		"out.txt":          "->" + filepath.Join(os.TempDir(), "juju-e2e-outside.txt"),
		".env":             "TOKEN=1\n",
		".git/config":      "[core]\n",
		".git/description": "unnamed\n",
		"old/a.txt":        "a\n",
		"tabs.go":          "func f() {\n\treturn 1\n}\n",
	})
	if err := os.WriteFile(filepath.Join(root, "run.sh"), []byte("#!/bin/sh\necho one\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := start(t, root, "--mode", "trusted")

	t.Run("write_file creates folders", func(t *testing.T) {
		s := s.with(t)
		s.ok("write_file", map[string]any{"path": "new/deep/f.txt", "content": "hello\n"})
		if disk(t, root, "new/deep/f.txt") != "hello\n" {
			t.Fatal("content wrong")
		}
	})
	t.Run("write_file keeps mode, CRLF and BOM", func(t *testing.T) {
		s := s.with(t)
		s.ok("write_file", map[string]any{"path": "run.sh", "content": "#!/bin/sh\necho two\n"})
		fi, _ := os.Stat(filepath.Join(root, "run.sh"))
		if fi.Mode().Perm() != 0o755 {
			t.Fatalf("mode %v, want 0755", fi.Mode())
		}
		s.ok("write_file", map[string]any{"path": "dos2.txt", "content": "\xef\xbb\xbfa\r\nb\r\n"})
		s.ok("write_file", map[string]any{"path": "dos2.txt", "content": "c\nd\n"})
		if got := disk(t, root, "dos2.txt"); got != "\xef\xbb\xbfc\r\nd\r\n" {
			t.Fatalf("style not kept: %q", got)
		}
	})
	t.Run("edit_file", func(t *testing.T) {
		s := s.with(t)
		res := s.call("edit_file", map[string]any{"path": "main.go", "oldString": "println(\"hi\")", "newString": "println(\"hello\")"})
		if res.IsError {
			t.Fatal(text(res))
		}
		if !strings.Contains(text(res), "+\tprintln(\"hello\")") {
			t.Fatalf("no diff in the result: %s", text(res))
		}
		if !strings.Contains(disk(t, root, "main.go"), "println(\"hello\")") {
			t.Fatal("not edited")
		}
	})
	t.Run("edit_file keeps CRLF and BOM", func(t *testing.T) {
		s := s.with(t)
		s.ok("edit_file", map[string]any{"path": "dos.txt", "oldString": "one\ntwo", "newString": "ONE\nTWO\nmore"})
		if got := disk(t, root, "dos.txt"); got != "\xef\xbb\xbfONE\r\nTWO\r\nmore\r\nthree\r\n" {
			t.Fatalf("bytes: %q", got)
		}
	})
	t.Run("edit_file through a symlink keeps the link", func(t *testing.T) {
		s := s.with(t)
		s.ok("edit_file", map[string]any{"path": "link.txt", "oldString": "target", "newString": "changed"})
		fi, err := os.Lstat(filepath.Join(root, "link.txt"))
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
		}
		if disk(t, root, "real/t.txt") != "changed\n" {
			t.Fatal("target not edited")
		}
	})
	t.Run("NO_MATCH explains tabs against spaces", func(t *testing.T) {
		s := s.with(t)
		msg := s.fail("edit_file", map[string]any{"path": "tabs.go", "oldString": "    return 1", "newString": "    return 2"}, "NO_MATCH")
		if !strings.Contains(msg, "line 2") || !strings.Contains(msg, "tab") || !strings.Contains(msg, "space") {
			t.Fatalf("message does not explain: %s", msg)
		}
	})
	t.Run("AMBIGUOUS_EDIT lists the lines", func(t *testing.T) {
		s := s.with(t)
		msg := s.fail("edit_file", map[string]any{"path": "dup.txt", "oldString": "x = 1", "newString": "x = 3"}, "AMBIGUOUS_EDIT")
		if !strings.Contains(msg, "1, 3") {
			t.Fatalf("lines not named: %s", msg)
		}
		s.ok("edit_file", map[string]any{"path": "dup.txt", "oldString": "x = 1", "newString": "x = 3", "replaceAll": true})
		if disk(t, root, "dup.txt") != "x = 3\ny = 2\nx = 3\n" {
			t.Fatal("replaceAll")
		}
	})
	t.Run("FILE_CHANGED when the file changed since it was read", func(t *testing.T) {
		s := s.with(t)
		info := structured(t, s.call("file_info", map[string]any{"path": "dup.txt"}))
		os.WriteFile(filepath.Join(root, "dup.txt"), []byte("x = 3\ny = 9\nx = 3\n"), 0o644)
		s.fail("edit_file", map[string]any{"path": "dup.txt", "oldString": "y = 9", "newString": "y = 0", "expectedSha256": info["sha256"]}, "FILE_CHANGED")
		if disk(t, root, "dup.txt") != "x = 3\ny = 9\nx = 3\n" {
			t.Fatal("written despite FILE_CHANGED")
		}
	})
	t.Run("FILE_CHANGED when the file changed since read_file", func(t *testing.T) {
		s := s.with(t)
		s.ok("write_file", map[string]any{"path": "seen.txt", "content": "v1\n"})
		s.ok("read_file", map[string]any{"path": "seen.txt"})
		s.ok("edit_file", map[string]any{"path": "seen.txt", "oldString": "v1", "newString": "v2"})
		s.ok("edit_file", map[string]any{"path": "seen.txt", "oldString": "v2", "newString": "v3"}) // its own edits keep the read fresh
		os.WriteFile(filepath.Join(root, "seen.txt"), []byte("v3 and more\n"), 0o644)
		s.fail("edit_file", map[string]any{"path": "seen.txt", "oldString": "v3", "newString": "v4"}, "FILE_CHANGED")
		s.fail("write_file", map[string]any{"path": "seen.txt", "content": "over"}, "FILE_CHANGED")
		s.ok("read_file", map[string]any{"path": "seen.txt"})
		s.ok("edit_file", map[string]any{"path": "seen.txt", "oldString": "v3", "newString": "v4"})
		if disk(t, root, "seen.txt") != "v4 and more\n" {
			t.Fatalf("bytes: %q", disk(t, root, "seen.txt"))
		}
	})
	t.Run("refusals", func(t *testing.T) {
		s := s.with(t)
		for _, c := range []struct{ path, code string }{
			{"../escape.txt", "PATH_DENIED"},
			{"out.txt", "PATH_DENIED"},
			{".env", "SECRET_DENIED"},
			{"sub/.env.local", "SECRET_DENIED"},
			{".git/hooks/pre-commit", "PATH_DENIED"},
			{".git/config", "SECRET_DENIED"}, // a remote's password may sit in it
			{".git/description", "PATH_DENIED"},
		} {
			s.fail("write_file", map[string]any{"path": c.path, "content": "x"}, c.code)
		}
		s.fail("delete_path", map[string]any{"path": ".git/config"}, "PATH_DENIED") // inside .git, before it is a secret
		s.fail("delete_path", map[string]any{"path": ".git/description"}, "PATH_DENIED")
		s.fail("move_path", map[string]any{"path": "main.go", "destination": ".git/hooks/pre-commit"}, "PATH_DENIED")
		s.fail("edit_file", map[string]any{"path": ".env", "oldString": "1", "newString": "2"}, "SECRET_DENIED")
		if disk(t, root, ".env") != "TOKEN=1\n" || disk(t, root, ".git/config") != "[core]\n" {
			t.Fatal("a refused path was written")
		}
		absent(t, root, ".git/hooks/pre-commit")
		if _, err := os.Stat(filepath.Join(os.TempDir(), "juju-e2e-outside.txt")); err == nil {
			t.Fatal("wrote outside the root")
		}
	})
	t.Run("delete, move, mkdir and rollback", func(t *testing.T) {
		s := s.with(t)
		before := disk(t, root, "main.go")
		del := changeID(t, s, "delete_path", map[string]any{"path": "main.go"})
		absent(t, root, "main.go")
		s.fail("delete_path", map[string]any{"path": "old"}, "INVALID_ARGUMENT")
		mv := changeID(t, s, "move_path", map[string]any{"path": "old", "destination": "moved/old"})
		if disk(t, root, "moved/old/a.txt") != "a\n" {
			t.Fatal("folder not moved")
		}
		absent(t, root, "old")
		mk := changeID(t, s, "make_directory", map[string]any{"path": "x/y/z"})
		if fi, err := os.Stat(filepath.Join(root, "x/y/z")); err != nil || !fi.IsDir() {
			t.Fatal("no folder")
		}
		s.ok("rollback_changes", map[string]any{"changeId": mk})
		absent(t, root, "x")
		s.ok("rollback_changes", map[string]any{"changeId": mv})
		if disk(t, root, "old/a.txt") != "a\n" {
			t.Fatal("move not undone")
		}
		absent(t, root, "moved")
		s.ok("rollback_changes", map[string]any{"changeId": del})
		if disk(t, root, "main.go") != before {
			t.Fatal("delete not undone")
		}
		s.fail("rollback_changes", map[string]any{"changeId": del}, "CONFLICT")
		s.fail("rollback_changes", map[string]any{"changeId": "c999999"}, "NOT_FOUND")
	})
	t.Run("rollback over a changed file is a CONFLICT unless forced", func(t *testing.T) {
		s := s.with(t)
		id := changeID(t, s, "write_file", map[string]any{"path": "conf.txt", "content": "v1\n"})
		os.WriteFile(filepath.Join(root, "conf.txt"), []byte("by hand\n"), 0o644)
		msg := s.fail("rollback_changes", map[string]any{"changeId": id}, "CONFLICT")
		if !strings.Contains(msg, "conf.txt") {
			t.Fatalf("file not named: %s", msg)
		}
		if disk(t, root, "conf.txt") != "by hand\n" {
			t.Fatal("changed despite CONFLICT")
		}
		s.ok("rollback_changes", map[string]any{"changeId": id, "force": true})
		absent(t, root, "conf.txt")
	})
	t.Run("rollback since a point", func(t *testing.T) {
		s := s.with(t)
		a := changeID(t, s, "write_file", map[string]any{"path": "s.txt", "content": "1\n"})
		changeID(t, s, "write_file", map[string]any{"path": "s.txt", "content": "2\n"})
		changeID(t, s, "write_file", map[string]any{"path": "s2.txt", "content": "3\n"})
		s.ok("rollback_changes", map[string]any{"changeId": a, "scope": "after"})
		if disk(t, root, "s.txt") != "1\n" {
			t.Fatal("after: s.txt")
		}
		absent(t, root, "s2.txt")
		s.ok("rollback_changes", map[string]any{"changeId": a, "scope": "since"})
		absent(t, root, "s.txt")
	})
	t.Run("change_history", func(t *testing.T) {
		s := s.with(t)
		res := s.call("change_history", map[string]any{"limit": 3})
		sc := structured(t, res)
		ch, _ := sc["changes"].([]any)
		if len(ch) != 3 || sc["more"] != true {
			t.Fatalf("history: %s", text(res))
		}
		first := ch[0].(map[string]any)
		if first["client"] != "juju-e2e" || first["plugin"] != "core" || first["tool"] != "rollback_changes" {
			t.Fatalf("who: %v", first)
		}
		// One change: its diff in the text, its size in the structured content.
		res = s.call("change_history", map[string]any{"changeId": first["id"]})
		one := structured(t, res)
		if !strings.Contains(text(res), "\n--- a/") || num(t, one, "diffBytes") == 0 {
			t.Fatalf("no diff for one change: %s %v", text(res), one)
		}
	})
	noTempFiles(t, root)
}

func TestApplyPatch(t *testing.T) {
	root := workspace(t, map[string]string{
		"a.txt": "one\ntwo\nthree\n",
		"b.txt": "alpha\nbeta\n",
		"c.txt": "gone\n",
	})
	s := start(t, root, "--mode", "trusted")
	patch := `diff --git a/a.txt b/a.txt
--- a/a.txt
+++ b/a.txt
@@ -1,3 +1,3 @@
 one
-two
+TWO
 three
--- a/b.txt
+++ b/b.txt
@@ -1,2 +1,3 @@
 alpha
 beta
+gamma
--- /dev/null
+++ b/new/n.txt
@@ -0,0 +1,2 @@
+new
+file
--- a/c.txt
+++ /dev/null
@@ -1 +0,0 @@
-gone
`
	t.Run("conflict writes nothing", func(t *testing.T) {
		s := s.with(t)
		bad := strings.Replace(patch, " alpha\n beta\n", " alpha\n BETA\n", 1)
		msg := s.fail("apply_patch", map[string]any{"patch": bad}, "CONFLICT")
		if !strings.Contains(msg, "b.txt") || !strings.Contains(msg, "hunk 1") {
			t.Fatalf("message: %s", msg)
		}
		if disk(t, root, "a.txt") != "one\ntwo\nthree\n" {
			t.Fatal("a.txt written despite the conflict")
		}
		absent(t, root, "new")
	})
	t.Run("applies every file", func(t *testing.T) {
		s := s.with(t)
		id := changeID(t, s, "apply_patch", map[string]any{"patch": patch})
		if disk(t, root, "a.txt") != "one\nTWO\nthree\n" || disk(t, root, "b.txt") != "alpha\nbeta\ngamma\n" || disk(t, root, "new/n.txt") != "new\nfile\n" {
			t.Fatal("patch not applied")
		}
		absent(t, root, "c.txt")
		s.ok("rollback_changes", map[string]any{"changeId": id})
		if disk(t, root, "a.txt") != "one\ntwo\nthree\n" || disk(t, root, "c.txt") != "gone\n" {
			t.Fatal("rollback")
		}
		absent(t, root, "new")
	})
	t.Run("malformed", func(t *testing.T) {
		s := s.with(t)
		s.fail("apply_patch", map[string]any{"patch": "not a diff"}, "INVALID_ARGUMENT")
	})
	noTempFiles(t, root)
}

func TestReplaceInFiles(t *testing.T) {
	root := workspace(t, map[string]string{
		"src/a.go":  "foo()\nfoo()\n",
		"src/b.go":  "bar(foo)\n",
		"src/c.txt": "foo\n",
		".env":      "foo=1\n",
	})
	s := start(t, root, "--mode", "trusted")
	res := s.call("replace_in_files", map[string]any{"oldString": "foo", "newString": "baz", "fileGlob": "**/*.go"})
	if res.IsError {
		t.Fatal(text(res))
	}
	sc := structured(t, res)
	if sc["replacements"] != float64(3) || sc["filesMatched"] != float64(2) || sc["dryRun"] != true {
		t.Fatalf("dry run: %v", sc)
	}
	if disk(t, root, "src/a.go") != "foo()\nfoo()\n" {
		t.Fatal("dry run wrote")
	}
	s.fail("replace_in_files", map[string]any{"oldString": "foo", "newString": "baz", "fileGlob": "**/*.go", "dryRun": false, "expectedCount": 2}, "CONFLICT")
	s.ok("replace_in_files", map[string]any{"oldString": "foo", "newString": "baz", "fileGlob": "**/*.go", "dryRun": false, "expectedCount": 3})
	if disk(t, root, "src/a.go") != "baz()\nbaz()\n" || disk(t, root, "src/b.go") != "bar(baz)\n" || disk(t, root, "src/c.txt") != "foo\n" || disk(t, root, ".env") != "foo=1\n" {
		t.Fatal("replacement wrong")
	}
	s.fail("replace_in_files", map[string]any{"oldString": "nothing-like-this", "newString": "x", "fileGlob": "**/*"}, "NO_MATCH")
}

func TestReviewWorkflow(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "one\n", "b.txt": "two\n"})
	s := start(t, root, "--mode", "trusted")
	ops := []any{
		map[string]any{"op": "edit", "path": "a.txt", "oldString": "one", "newString": "ONE"},
		map[string]any{"op": "write", "path": "c.txt", "content": "three\n"},
		map[string]any{"op": "move", "path": "b.txt", "destination": "d/b.txt"},
	}
	plan := structured(t, s.call("preview_changes", map[string]any{"operations": ops}))
	id, _ := plan["planId"].(string)
	if id == "" || !strings.Contains(plan["diff"].(string), "+ONE") {
		t.Fatalf("plan: %v", plan)
	}
	if disk(t, root, "a.txt") != "one\n" {
		t.Fatal("preview wrote")
	}
	s.ok("apply_changes", map[string]any{"planId": id})
	if disk(t, root, "a.txt") != "ONE\n" || disk(t, root, "c.txt") != "three\n" || disk(t, root, "d/b.txt") != "two\n" {
		t.Fatal("plan not applied")
	}
	absent(t, root, "b.txt")
	s.fail("apply_changes", map[string]any{"planId": id}, "NOT_FOUND")

	// A file changed after the preview.
	plan = structured(t, s.call("preview_changes", map[string]any{"operations": []any{
		map[string]any{"op": "edit", "path": "a.txt", "oldString": "ONE", "newString": "uno"},
	}}))
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("ONE!\n"), 0o644)
	s.fail("apply_changes", map[string]any{"planId": plan["planId"]}, "FILE_CHANGED")
	if disk(t, root, "a.txt") != "ONE!\n" {
		t.Fatal("written despite FILE_CHANGED")
	}
	// Discard.
	plan = structured(t, s.call("preview_changes", map[string]any{"operations": []any{
		map[string]any{"op": "delete", "path": "c.txt"},
	}}))
	s.ok("discard_changes", map[string]any{"planId": plan["planId"]})
	s.fail("apply_changes", map[string]any{"planId": plan["planId"]}, "NOT_FOUND")
	if disk(t, root, "c.txt") != "three\n" {
		t.Fatal("discarded plan applied")
	}
	noTempFiles(t, root)
}

func TestTodos(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "x\n"})
	home := t.TempDir()
	s := startHome(t, home, root, "--mode", "trusted")
	if got := s.ok("todo_read", map[string]any{}); !strings.Contains(got, "empty") {
		t.Fatalf("fresh list: %s", got)
	}
	s.ok("todo_write", map[string]any{"todos": []any{
		map[string]any{"content": "write the test", "status": "completed"},
		map[string]any{"content": "make it pass", "status": "in_progress"},
	}})
	s.c.Close()
	s2 := startHome(t, home, root, "--mode", "trusted")
	res := s2.call("todo_read", map[string]any{})
	todos, _ := structured(t, res)["todos"].([]any)
	if len(todos) != 2 || todos[1].(map[string]any)["status"] != "in_progress" {
		t.Fatalf("todos: %s", text(res))
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Fatalf("the todo list was kept inside the workspace: %v", entries)
	}
}
