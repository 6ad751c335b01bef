package test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	var lines []string
	for i := 1; i <= 30; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	root := workspace(t, map[string]string{
		"notes.txt": strings.Join(lines, "\n") + "\n",
		"crlf.txt":  "a\r\nb\r\n",
		"empty.txt": "",
	})
	if err := os.WriteFile(filepath.Join(root, "blob.bin"), []byte{0x89, 'P', 'N', 'G', 0, 1, 2, 3, 0, 0}, 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, root)

	t.Run("whole", func(t *testing.T) {
		s := s.with(t)
		got := s.ok("read_file", map[string]any{"path": "notes.txt"})
		if !strings.Contains(got, "line 1\n") || !strings.Contains(got, "line 30") {
			t.Fatalf("whole file not returned: %q", got)
		}
	})
	t.Run("range", func(t *testing.T) {
		s := s.with(t)
		res := s.call("read_file", map[string]any{"path": "notes.txt", "offset": 10, "limit": 3})
		got := text(res)
		if !strings.Contains(got, "line 10") || !strings.Contains(got, "line 12") || strings.Contains(got, "line 13\n") || strings.Contains(got, "line 9\n") {
			t.Fatalf("range 10..12 wrong: %q", got)
		}
		sc := structured(t, res)
		if sc["firstLine"] != float64(10) || sc["lineCount"] != float64(3) || sc["totalLines"] != float64(30) {
			t.Fatalf("structured range wrong: %v", sc)
		}
	})
	t.Run("numbered", func(t *testing.T) {
		s := s.with(t)
		got := s.ok("read_file", map[string]any{"path": "notes.txt", "offset": 5, "limit": 2, "numbered": true})
		if !strings.Contains(got, "5\tline 5") || !strings.Contains(got, "6\tline 6") {
			t.Fatalf("numbered lines wrong: %q", got)
		}
	})
	t.Run("binary described not dumped", func(t *testing.T) {
		s := s.with(t)
		got := s.ok("read_file", map[string]any{"path": "blob.bin"})
		if strings.Contains(got, "\x00") || !strings.Contains(strings.ToLower(got), "binary") {
			t.Fatalf("binary file should be described: %q", got)
		}
	})
	t.Run("offset past end", func(t *testing.T) {
		s := s.with(t)
		res := s.call("read_file", map[string]any{"path": "notes.txt", "offset": 500})
		if !res.IsError && !strings.Contains(text(res), "30") {
			t.Fatalf("offset past the end should say how long the file is: %q", text(res))
		}
	})
	t.Run("offset in an empty file", func(t *testing.T) {
		s := s.with(t)
		msg := s.fail("read_file", map[string]any{"path": "empty.txt", "offset": 2}, "INVALID_ARGUMENT")
		if !strings.Contains(msg, "empty.txt is empty") || strings.Contains(msg, "from 1 to 1") {
			t.Fatalf("the message should say the file is empty: %s", msg)
		}
	})
	t.Run("missing", func(t *testing.T) {
		s := s.with(t)
		s.fail("read_file", map[string]any{"path": "nope.txt"}, "NOT_FOUND")
	})
	t.Run("directory", func(t *testing.T) {
		s := s.with(t)
		s.fail("read_file", map[string]any{"path": "."}, "INVALID_ARGUMENT")
	})
}

func TestReadFileTruncatesLongFiles(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&b, "this is line number %d of a long file\n", i)
	}
	s := start(t, workspace(t, map[string]string{"big.txt": b.String()}))
	res := s.call("read_file", map[string]any{"path": "big.txt"})
	got := text(res)
	if len(got) > 120_000 {
		t.Fatalf("result not cut: %d bytes", len(got))
	}
	if sc := structured(t, res); sc["truncated"] != true {
		t.Fatalf("truncated not reported: %v", sc["truncated"])
	}
	if !strings.Contains(got, "offset") {
		t.Fatalf("the notice must say how to read the rest (offset): %q", got[len(got)-300:])
	}
}

func TestReadFiles(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n", ".env": "TOKEN=hunter2\n"})
	s := start(t, root)
	res := s.call("read_files", map[string]any{"paths": []any{"a.txt", "missing.txt", ".env", "b.txt"}, "numbered": true})
	if res.IsError {
		t.Fatalf("partial failure must not fail the call: %s", text(res))
	}
	got := text(res)
	for _, want := range []string{"alpha", "beta", "NOT_FOUND", "SECRET_DENIED"} {
		if !strings.Contains(got, want) {
			t.Errorf("read_files result lacks %q: %s", want, got)
		}
	}
	if strings.Contains(got, "hunter2") {
		t.Fatal("secret content leaked through read_files")
	}
	// Every path bad: the call is an error.
	res = s.call("read_files", map[string]any{"paths": []any{"x", "y"}})
	if !res.IsError {
		t.Fatalf("all paths failing must be an error: %s", text(res))
	}
}

// Every section of read_files ends with an empty line, an empty or a
// binary file's one-line description too, so no header runs on from the
// line above it.
func TestReadFilesSectionsAreSeparated(t *testing.T) {
	root := workspace(t, map[string]string{"empty.txt": "", "blob.bin": "a\x00b\n", "a.txt": "alpha"})
	s := start(t, root)
	got := s.ok("read_files", map[string]any{"paths": []any{"empty.txt", "blob.bin", "a.txt"}})
	if !strings.HasPrefix(got, "==> empty.txt <==\n(empty.txt is empty)\n\n==> blob.bin <==\nblob.bin is a binary file") ||
		!strings.HasSuffix(got, ".\n\n==> a.txt <==\nalpha\n") {
		t.Fatalf("sections run together:\n%s", got)
	}
}

func TestFileInfo(t *testing.T) {
	content := "hash me\n"
	root := workspace(t, map[string]string{"f.txt": content, "link.txt": "->f.txt"})
	s := start(t, root)
	res := s.call("file_info", map[string]any{"path": "f.txt"})
	sc := structured(t, res)
	sum := sha256.Sum256([]byte(content))
	if sc["sha256"] != hex.EncodeToString(sum[:]) {
		t.Fatalf("sha256 %v, want %x", sc["sha256"], sum)
	}
	if sc["type"] != "file" || sc["size"] != float64(len(content)) {
		t.Fatalf("file_info: %v", sc)
	}
	res = s.call("file_info", map[string]any{"path": "link.txt"})
	if sc := structured(t, res); !strings.Contains(fmt.Sprint(sc), "f.txt") {
		t.Fatalf("a link's info should name its target: %v", sc)
	}
	dir := structured(t, s.call("file_info", map[string]any{"path": "."}))
	if dir["type"] != "dir" {
		t.Fatalf("root type %v", dir["type"])
	}
}

// A file past the hash's bound (a 10 GB sparse file, a disk image) is
// described at once, without its sha256 and saying why: hashing it took
// the whole of the call's time and failed it.
func TestFileInfoOfAHugeFile(t *testing.T) {
	root := workspace(t, map[string]string{})
	const size = 10 << 30
	f, err := os.Create(filepath.Join(root, "disk.img"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s := start(t, root)
	begin := time.Now()
	res := s.call("file_info", map[string]any{"path": "disk.img"})
	took := time.Since(begin)
	sc := structured(t, res)
	if res.IsError || sc["type"] != "file" || sc["size"] != float64(size) || sc["sha256"] != nil {
		t.Fatalf("file_info of a 10 GiB file: %s %v", text(res), sc)
	}
	if !strings.Contains(text(res), "sha256: not computed: the file is larger than 1 GiB") {
		t.Errorf("the text must say why there is no hash: %s", text(res))
	}
	if took > 10*time.Second {
		t.Errorf("file_info took %v: it read the file", took)
	}
}

func TestListDirectory(t *testing.T) {
	root := workspace(t, map[string]string{
		"src/main.go":     "package main\n",
		"README.md":       "# hi\n",
		".env":            "SECRET=1\n",
		".gitignore":      "build/\n",
		"build/out.bin":   "x",
		"id_rsa":          "-----BEGIN OPENSSH PRIVATE KEY-----\n",
		"docs/guide.md":   "guide\n",
		"docs/.env.local": "X=1\n",
	})
	s := start(t, root)
	got := s.ok("list_directory", map[string]any{"path": "."})
	for _, want := range []string{"src", "README.md", "docs"} {
		if !strings.Contains(got, want) {
			t.Errorf("listing lacks %s: %s", want, got)
		}
	}
	for _, hidden := range []string{".env", "id_rsa", "build"} {
		if strings.Contains(got, hidden+"\n") || strings.Contains(got, hidden+"/") || strings.Contains(got, "\""+hidden+"\"") {
			t.Errorf("listing shows %s: %s", hidden, got)
		}
	}
	all := s.ok("list_directory", map[string]any{"path": ".", "includeIgnored": true})
	if !strings.Contains(all, "build") {
		t.Errorf("includeIgnored should list build/: %s", all)
	}
	if strings.Contains(all, ".env") {
		t.Errorf("includeIgnored must still hide secrets: %s", all)
	}
	s.fail("list_directory", map[string]any{"path": "README.md/x"}, "NOT_FOUND")
}

// A listing shows where a link inside the workspace leads, says a broken
// one is broken (never that it leads out), and withholds a link out.
func TestListDirectoryLinks(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	for link, target := range map[string]string{"to-a": "a.txt", "dangling": "missing.txt", "loop1": "loop2", "loop2": "loop1", "out": "/etc/passwd"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	s := start(t, root)
	res := s.call("list_directory", map[string]any{"path": "."})
	got := text(res)
	for _, want := range []string{
		"to-a -> a.txt\n",
		"dangling -> (broken: its target is missing or loops)\n",
		"loop1 -> (broken: its target is missing or loops)\n",
		"[1 entry withheld by the workspace policy.]",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("listing lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "out") || strings.Contains(got, "passwd") {
		t.Errorf("listing shows the link out:\n%s", got)
	}
	for _, e := range structured(t, res)["entries"].([]any) {
		if e := e.(map[string]any); e["name"] == "dangling" && (e["type"] != "symlink" || e["target"] != nil) {
			t.Errorf("dangling link entry: %v", e)
		}
	}
}

// A folder of 200,000 entries is listed cut, the cut said, each of the
// text and the structured content under 100,000 bytes, and the rest
// readable by offset.
func TestListHugeDirectory(t *testing.T) {
	if testing.Short() {
		t.Skip("makes 200,000 files")
	}
	root := workspace(t, map[string]string{"README.md": "hi\n"})
	dir := filepath.Join(root, "huge")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const n = 200_000
	for i := 0; i < n; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file-%06d.txt", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := start(t, root)
	res := s.call("list_directory", map[string]any{"path": "huge"})
	body := text(res)
	if res.IsError {
		t.Fatalf("listing 200,000 entries failed: %.300s", body)
	}
	sc := structured(t, res)
	raw, _ := json.Marshal(sc)
	t.Logf("text %d bytes, structured content %d bytes", len(body), len(raw))
	if len(body) >= 100_000 || len(raw) >= 100_000 {
		t.Fatalf("text %d bytes, structured content %d bytes; each must stay under 100,000", len(body), len(raw))
	}
	entries, _ := sc["entries"].([]any)
	if len(entries) == 0 || len(entries) >= n || sc["truncated"] != true || sc["total"] != float64(n) {
		t.Fatalf("want a cut listing (truncated, total %d): %d entries, truncated %v, total %v", n, len(entries), sc["truncated"], sc["total"])
	}
	if !strings.Contains(body, "offset") || !strings.Contains(body, "200000") {
		t.Fatalf("the cut is not said with how to read on: %s", body[max(0, len(body)-400):])
	}
	next := structured(t, s.call("list_directory", map[string]any{"path": "huge", "offset": len(entries)}))
	more, _ := next["entries"].([]any)
	if len(more) == 0 || more[0].(map[string]any)["name"] != fmt.Sprintf("file-%06d.txt", len(entries)) {
		t.Fatalf("offset %d does not read on where the listing stopped: %v", len(entries), more[:min(1, len(more))])
	}
}

func TestGlobFiles(t *testing.T) {
	root := workspace(t, map[string]string{
		"a/x_test.go":   "package a\n",
		"a/x.go":        "package a\n",
		"b/c/y_test.go": "package c\n",
		"vendor/.env":   "K=V\n",
		".gitignore":    "gen/\n",
		"gen/z_test.go": "package gen\n",
		"notes/key.pem": "-----BEGIN PRIVATE KEY-----\n",
	})
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(root, "a/x_test.go"), old, old)
	s := start(t, root)
	res := s.call("glob_files", map[string]any{"pattern": "**/*_test.go"})
	got := text(res)
	if !strings.Contains(got, "a/x_test.go") || !strings.Contains(got, "b/c/y_test.go") {
		t.Fatalf("glob missed files: %s", got)
	}
	if strings.Contains(got, "gen/z_test.go") || strings.Contains(got, "a/x.go") {
		t.Fatalf("glob returned ignored or unmatched files: %s", got)
	}
	bymtime := text(s.call("glob_files", map[string]any{"pattern": "**/*_test.go", "sortBy": "mtime"}))
	if strings.Index(bymtime, "b/c/y_test.go") > strings.Index(bymtime, "a/x_test.go") {
		t.Fatalf("sortBy mtime must put the newest first: %s", bymtime)
	}
	limited := structured(t, s.call("glob_files", map[string]any{"pattern": "**/*.go", "limit": 1}))
	if limited["truncated"] != true {
		t.Fatalf("limit 1 of 3 must be truncated: %v", limited)
	}
	res = s.call("glob_files", map[string]any{"pattern": "**/*"})
	if secrets := text(res); strings.Contains(secrets, ".env") || strings.Contains(secrets, "key.pem") || !strings.Contains(secrets, "[2 matching files withheld: secrets") {
		t.Fatalf("glob leaks secrets, or does not say it withheld them: %s", secrets)
	}
	if sc := structured(t, res); sc["hidden"] != float64(2) {
		t.Fatalf("glob's structured content does not count the secrets withheld: %v", sc)
	}
}

// A glob written as the model often writes it finds what it names: a
// leading ./, or an absolute pattern inside the root (SPEC §4: absolute
// paths are accepted inside a root) with path left at its default.
func TestGlobFilesPatternForms(t *testing.T) {
	root := workspace(t, map[string]string{"src/a/x.go": "package a\n", "src/b.go": "package src\n", "top.go": "package top\n"})
	s := start(t, root)
	for _, pattern := range []string{"./src/**/*.go", filepath.Join(root, "src") + "/**/*.go"} {
		res := s.call("glob_files", map[string]any{"pattern": pattern})
		if got := text(res); res.IsError || got != "src/a/x.go\nsrc/b.go\n[2 matches.]\n" {
			t.Errorf("glob_files %q: %s", pattern, got)
		}
	}
	s.fail("glob_files", map[string]any{"pattern": "/etc/*"}, "PATH_DENIED")
	s.fail("glob_files", map[string]any{"pattern": "/etc/*", "path": "src"}, "INVALID_ARGUMENT")
}

// A search that finds nothing names the folder it looked under so that
// the root reads as itself: `under "."`, never `under ..`, which reads as
// the parent folder.
func TestNoMatchNamesTheFolder(t *testing.T) {
	s := start(t, workspace(t, map[string]string{"src/a.go": "package a\n"}))
	for tool, args := range map[string]map[string]any{
		"glob_files":  {"pattern": "*.rs"},
		"search_code": {"pattern": "nowhere to be found"},
	} {
		got := s.ok(tool, args)
		if !strings.Contains(got, `under "."`) || strings.Contains(got, "under ..") {
			t.Errorf("%s: %s", tool, got)
		}
	}
	if got := s.ok("glob_files", map[string]any{"pattern": "*.rs", "path": "src"}); !strings.Contains(got, `under "src"`) {
		t.Errorf("glob_files under src: %s", got)
	}
}

// search_code has no includeIgnored: a search that finds nothing says how
// an ignored file is searched (path naming it), and that way finds it.
func TestSearchCodeNoMatchSaysHowIgnoredFilesAreSearched(t *testing.T) {
	s := start(t, workspace(t, map[string]string{".gitignore": "gen/\n", "gen/deep/z.go": "the word\n", "a.go": "package a\n"}))
	got := s.ok("search_code", map[string]any{"pattern": "the word"})
	if !strings.Contains(got, "No matches") || !strings.Contains(got, ".gitignore excludes are searched only when path is one of them or inside one") {
		t.Fatalf("the answer does not say how to search ignored files: %s", got)
	}
	for _, path := range []string{"gen", "gen/deep", "gen/deep/z.go"} {
		if got := s.ok("search_code", map[string]any{"pattern": "the word", "path": path}); !strings.Contains(got, "gen/deep/z.go:1:1:the word") {
			t.Errorf("path %s: %s", path, got)
		}
	}
}
