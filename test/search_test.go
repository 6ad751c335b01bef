package test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// searchWorkspace is a project with code, ignored files, secrets, a
// multiply-linked private key under an innocent name, a denied folder and
// links out of the root, every secret holding the word the tests search for.
func searchWorkspace(t *testing.T) (root, home string) {
	t.Helper()
	outside := workspace(t, map[string]string{
		"leak.txt":     "needle OUTSIDE_TOKEN\n",
		"dir/leak.txt": "needle OUTSIDE_TOKEN\n",
		"key.pem":      "-----BEGIN RSA PRIVATE KEY-----\nneedle SECRET_TOKEN_123\n-----END RSA PRIVATE KEY-----\n",
	})
	var many []string
	for i := 1; i <= 50; i++ {
		many = append(many, fmt.Sprintf("match line %d", i))
	}
	root = workspace(t, map[string]string{
		"main.go":                 "package main\n\nfunc Handler() {}\nfunc handler2() {}\n// call a.b(c) here\n",
		"lib/util.go":             "one\ntwo\nneedle here\nfour\nfive\n",
		"lib/util_test.go":        "needle in test\n",
		"docs/readme.md":          "Needle upper ünïcode needle\n",
		"many.txt":                strings.Join(many, "\n") + "\n",
		".gitignore":              "build/\n*.log\n",
		"build/out.go":            "needle ignored\n",
		"app.log":                 "needle log\n",
		".env":                    "needle=SECRET_TOKEN_123\n",
		"config/credentials.json": `{"needle": "SECRET_TOKEN_123"}`,
		"keys/server.pem":         "needle SECRET_TOKEN_123\n",
		".ssh/config":             "needle SECRET_TOKEN_123\n",
		"private/notes.txt":       "needle DENIED_TOKEN\n",
		"conf/app.mysecret":       "needle SECRET_TOKEN_123\n",
		"link-out.txt":            "->" + filepath.Join(outside, "leak.txt"),
		"link-dir":                "->" + filepath.Join(outside, "dir"),
	})
	if err := os.Link(filepath.Join(outside, "key.pem"), filepath.Join(root, "innocent.txt")); err != nil {
		t.Fatal(err)
	}
	home = t.TempDir()
	writeConfig(t, home, "[policy]\ndeny = [\"private\"]\nsecrets = [\"*.mysecret\"]\n")
	return root, home
}

// withoutRipgrep makes PATH hold no rg, for juju's own search.
func withoutRipgrep(t *testing.T) {
	t.Helper()
	t.Setenv("PATH", t.TempDir())
}

func TestSearchCodeRipgrep(t *testing.T) {
	root, home := searchWorkspace(t)
	s := startHome(t, home, root, "--mode", "trusted")
	searchChecks(t, s, "ripgrep")
}

func TestSearchCodeFallback(t *testing.T) {
	root, home := searchWorkspace(t)
	withoutRipgrep(t)
	s := startHome(t, home, root, "--mode", "trusted")
	searchChecks(t, s, "juju")
}

// searchChecks runs the same checks against either engine: both must give
// the same answers.
func searchChecks(t *testing.T, s *session, engine string) {
	search := func(t *testing.T, args map[string]any) (string, map[string]any) {
		t.Helper()
		s := s.with(t)
		res := s.call("search_code", args)
		if res.IsError {
			t.Fatalf("search_code(%v) failed: %s", args, text(res))
		}
		sc := structured(t, res)
		if sc["engine"] != engine {
			t.Fatalf("engine %v, want %s", sc["engine"], engine)
		}
		return text(res), sc
	}
	files := func(sc map[string]any) []string {
		var out []string
		for _, f := range sc["files"].([]any) {
			out = append(out, f.(map[string]any)["path"].(string))
		}
		return out
	}
	noLeak := func(t *testing.T, pattern, got string, sc map[string]any) {
		t.Helper()
		got = strings.ReplaceAll(got, pattern, "")
		sc["pattern"] = nil
		for _, secret := range []string{"SECRET_TOKEN_123", "OUTSIDE_TOKEN", "DENIED_TOKEN", "PRIVATE KEY"} {
			if strings.Contains(got, secret) || strings.Contains(fmt.Sprint(sc), secret) {
				t.Fatalf("%s leaked into the result:\n%s", secret, got)
			}
		}
	}

	t.Run("regex content with file line column", func(t *testing.T) {
		got, sc := search(t, map[string]any{"pattern": `func \w+\(`})
		if !strings.Contains(got, "main.go:3:1:func Handler() {}") || !strings.Contains(got, "main.go:4:1:func handler2() {}") {
			t.Fatalf("matches missing:\n%s", got)
		}
		if sc["matches"] != float64(2) || sc["truncated"] != false || sc["partial"] != false {
			t.Fatalf("structured: %v", sc)
		}
	})
	t.Run("column in code points", func(t *testing.T) {
		_, sc := search(t, map[string]any{"pattern": "needle", "path": "docs", "caseSensitive": true})
		m := sc["files"].([]any)[0].(map[string]any)["matches"].([]any)[0].(map[string]any)
		if m["line"] != float64(1) || m["column"] != float64(22) {
			t.Fatalf("want line 1 column 22 (after ü and ï), got %v", m)
		}
	})
	t.Run("literal versus metacharacters", func(t *testing.T) {
		got, _ := search(t, map[string]any{"pattern": "a.b(c)", "literal": true})
		if !strings.Contains(got, "main.go:5:9:// call a.b(c) here") {
			t.Fatalf("literal not found:\n%s", got)
		}
		_, sc := search(t, map[string]any{"pattern": "a.b(c)"})
		if len(files(sc)) != 0 {
			t.Fatalf("as a regex, a.b(c) must not match a.b(c): %v", sc)
		}
		got, _ = search(t, map[string]any{"pattern": `a\.b\(c\)`})
		if !strings.Contains(got, "main.go:5:9:") {
			t.Fatalf("escaped regex not found:\n%s", got)
		}
	})
	t.Run("smart case and caseSensitive", func(t *testing.T) {
		_, sc := search(t, map[string]any{"pattern": "needle", "outputMode": "files"})
		if !contains(files(sc), "docs/readme.md") || !contains(files(sc), "lib/util.go") {
			t.Fatalf("lower-case pattern ignores case: %v", files(sc))
		}
		_, sc = search(t, map[string]any{"pattern": "Needle", "outputMode": "files"})
		if got := files(sc); len(got) != 1 || got[0] != "docs/readme.md" {
			t.Fatalf("a capital makes it case sensitive: %v", got)
		}
		_, sc = search(t, map[string]any{"pattern": "needle", "caseSensitive": true, "path": "lib", "outputMode": "files"})
		if got := files(sc); len(got) != 2 {
			t.Fatalf("caseSensitive true: %v", got)
		}
		_, sc = search(t, map[string]any{"pattern": "NEEDLE", "caseSensitive": false, "path": "docs", "outputMode": "files"})
		if got := files(sc); len(got) != 1 {
			t.Fatalf("caseSensitive false: %v", got)
		}
		_, sc = search(t, map[string]any{"pattern": `\Wupper`, "outputMode": "files"})
		if got := files(sc); len(got) != 1 {
			t.Fatalf(`\W is no capital letter: %v`, got)
		}
	})
	t.Run("fileGlob by name and by path", func(t *testing.T) {
		_, sc := search(t, map[string]any{"pattern": "needle", "fileGlob": "*_test.go", "outputMode": "files"})
		if got := files(sc); len(got) != 1 || got[0] != "lib/util_test.go" {
			t.Fatalf("*_test.go: %v", got)
		}
		_, sc = search(t, map[string]any{"pattern": "needle", "fileGlob": "lib/*.go", "outputMode": "files"})
		if got := files(sc); len(got) != 2 || !contains(got, "lib/util.go") {
			t.Fatalf("lib/*.go: %v", got)
		}
		_, sc = search(t, map[string]any{"pattern": "needle", "fileGlob": "*.log", "outputMode": "files"})
		if got := files(sc); len(got) != 0 {
			t.Fatalf("a file glob must not bring back ignored files: %v", got)
		}
		// A leading ! leaves out what the glob matches, by name or by path.
		_, all := search(t, map[string]any{"pattern": "needle", "outputMode": "files"})
		_, sc = search(t, map[string]any{"pattern": "needle", "fileGlob": "!*_test.go", "outputMode": "files"})
		if got := files(sc); len(got) != len(files(all))-1 || contains(got, "lib/util_test.go") {
			t.Fatalf("!*_test.go: %v of %v", got, files(all))
		}
		_, sc = search(t, map[string]any{"pattern": "needle", "fileGlob": "!lib/**", "outputMode": "files"})
		for _, f := range files(sc) {
			if strings.HasPrefix(f, "lib/") {
				t.Fatalf("!lib/**: %v", files(sc))
			}
		}
		if len(files(sc)) == 0 {
			t.Fatal("!lib/** left out every file")
		}
		s.fail("search_code", map[string]any{"pattern": "needle", "fileGlob": "../**"}, "INVALID_ARGUMENT")
	})
	t.Run("context lines", func(t *testing.T) {
		got, sc := search(t, map[string]any{"pattern": "needle here", "contextLines": 2})
		for _, want := range []string{"lib/util.go-1-one", "lib/util.go-2-two", "lib/util.go:3:1:needle here", "lib/util.go-4-four", "lib/util.go-5-five"} {
			if !strings.Contains(got, want) {
				t.Fatalf("%q missing:\n%s", want, got)
			}
		}
		m := sc["files"].([]any)[0].(map[string]any)["matches"].([]any)[0].(map[string]any)
		if fmt.Sprint(m["before"]) != "[one two]" || fmt.Sprint(m["after"]) != "[four five]" {
			t.Fatalf("before/after: %v", m)
		}
	})
	t.Run("count and files modes", func(t *testing.T) {
		got, sc := search(t, map[string]any{"pattern": "match line", "outputMode": "count"})
		if !strings.Contains(got, "many.txt:50") || sc["matches"] != float64(50) {
			t.Fatalf("count:\n%s\n%v", got, sc)
		}
		got, _ = search(t, map[string]any{"pattern": "needle", "outputMode": "files"})
		if !strings.Contains(got, "lib/util.go\n") || strings.Contains(got, "needle here") {
			t.Fatalf("files mode lists paths only:\n%s", got)
		}
	})
	t.Run("gitignore respected", func(t *testing.T) {
		_, sc := search(t, map[string]any{"pattern": "needle", "outputMode": "files"})
		if contains(files(sc), "build/out.go") || contains(files(sc), "app.log") {
			t.Fatalf("ignored files searched: %v", files(sc))
		}
	})
	t.Run("secrets denied and outside never shown", func(t *testing.T) {
		for _, p := range []string{"needle", "SECRET_TOKEN_123", "OUTSIDE_TOKEN", "DENIED_TOKEN", "PRIVATE KEY", "."} {
			for _, mode := range []string{"content", "files", "count"} {
				got, sc := search(t, map[string]any{"pattern": p, "outputMode": mode, "contextLines": 3, "maxResults": 2000})
				noLeak(t, p, got, sc)
				for _, f := range files(sc) {
					switch f {
					case ".env", "config/credentials.json", "keys/server.pem", ".ssh/config", "private/notes.txt",
						"conf/app.mysecret", "innocent.txt", "link-out.txt", "link-dir/leak.txt":
						t.Fatalf("%s found by %q (%s)", f, p, mode)
					}
				}
			}
		}
		// innocent.txt, a hard link to a private key, is left out unsaid:
		// a count of it would say what it holds.
		_, hit := search(t, map[string]any{"pattern": "SECRET_TOKEN_123"})
		_, miss := search(t, map[string]any{"pattern": "SECRET_TOKEN_999"})
		if _, ok := hit["hidden"]; ok || fmt.Sprint(hit["files"], hit["matches"], hit["partial"]) != fmt.Sprint(miss["files"], miss["matches"], miss["partial"]) {
			t.Fatalf("the answer says whether the multiply-linked key matches:\n %v\n %v", hit, miss)
		}
	})
	t.Run("maxResults cut said", func(t *testing.T) {
		got, sc := search(t, map[string]any{"pattern": "match line", "maxResults": 5})
		if sc["matches"] != float64(5) || sc["truncated"] != true || !strings.Contains(got, "more matches exist") {
			t.Fatalf("cut not said:\n%s\n%v", got, sc)
		}
		_, sc = search(t, map[string]any{"pattern": "needle", "maxResults": 1, "outputMode": "files"})
		if len(files(sc)) != 1 || sc["truncated"] != true {
			t.Fatalf("files cut: %v", sc)
		}
	})
	t.Run("path", func(t *testing.T) {
		_, sc := search(t, map[string]any{"pattern": "needle", "path": "lib", "outputMode": "files"})
		if got := files(sc); len(got) != 2 {
			t.Fatalf("path lib: %v", got)
		}
		_, sc = search(t, map[string]any{"pattern": "needle", "path": "lib/util.go"})
		if got := files(sc); len(got) != 1 || got[0] != "lib/util.go" {
			t.Fatalf("path to a file: %v", got)
		}
		s := s.with(t)
		s.fail("search_code", map[string]any{"pattern": "needle", "path": "../"}, "PATH_DENIED")
		s.fail("search_code", map[string]any{"pattern": "needle", "path": "link-dir"}, "PATH_DENIED")
		s.fail("search_code", map[string]any{"pattern": "needle", "path": ".env"}, "SECRET_DENIED")
		s.fail("search_code", map[string]any{"pattern": "needle", "path": ".ssh"}, "SECRET_DENIED")
		s.fail("search_code", map[string]any{"pattern": "needle", "path": "nowhere"}, "NOT_FOUND")
	})
	t.Run("bad pattern", func(t *testing.T) {
		s := s.with(t)
		msg := s.fail("search_code", map[string]any{"pattern": "func("}, "INVALID_ARGUMENT")
		if !strings.Contains(msg, "literal") {
			t.Fatalf("the message should point to literal: %s", msg)
		}
		// The message says what is wrong, in either engine's words, and
		// where: rg's own message puts the reason on its last line.
		for pattern, why := range map[string][]string{
			"func(":   {"unclosed group", "missing closing )"},
			"(?<=a)b": {"look-around"},
			`(a)\1`:   {"backreferences are not supported"},
		} {
			msg := s.fail("search_code", map[string]any{"pattern": pattern}, "INVALID_ARGUMENT")
			if !slices.ContainsFunc(why, func(w string) bool { return strings.Contains(msg, w) }) || !strings.Contains(msg, "(at ") {
				t.Errorf("%s: the message should say what is wrong (%q) and where: %s", pattern, why, msg)
			}
		}
		s.fail("search_code", map[string]any{"pattern": "-e", "fileGlob": "[", "outputMode": "files"}, "INVALID_ARGUMENT")
	})
	t.Run("a pattern that looks like a flag is a pattern", func(t *testing.T) {
		_, sc := search(t, map[string]any{"pattern": "--files", "outputMode": "files"})
		if len(files(sc)) != 0 {
			t.Fatalf("--files was read as a flag: %v", sc)
		}
	})
}

// TestSearchCodeFallbackTimeCap: juju's own search (no rg on PATH) stops
// at its time cap and says the result is partial.
func TestSearchCodeFallbackTimeCap(t *testing.T) {
	files := map[string]string{}
	for i := range 400 {
		files[fmt.Sprintf("d%d/f%d.txt", i%20, i)] = strings.Repeat("some text without the word\n", 5) + "needle\n"
	}
	root := workspace(t, files)
	withoutRipgrep(t)
	s := start(t, root, "--mode", "trusted")
	res := s.call("search_code", map[string]any{"pattern": "needle", "timeoutMs": 1, "outputMode": "files"})
	sc := structured(t, res)
	if res.IsError || sc["partial"] != true || !strings.Contains(text(res), "PARTIAL") {
		t.Fatalf("want a partial result: %s %v", text(res), sc)
	}
	if n := len(sc["files"].([]any)); n >= 400 {
		t.Fatalf("a 1 ms cap searched all %d files", n)
	}
	full := s.call("search_code", map[string]any{"pattern": "needle", "outputMode": "files", "maxResults": 1000, "timeoutMs": 25000})
	if sc := structured(t, full); sc["partial"] != false || len(sc["files"].([]any)) != 400 {
		t.Fatalf("without the cap every file is searched: %v", sc["partial"])
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
