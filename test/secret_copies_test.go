package test

import (
	"strings"
	"testing"
)

// An editor's or a merge tool's copy of a secret beside it holds the
// secret: Emacs saves .env's last content as .env~ and auto-saves it as
// #.env#, vim swaps it to ..env.swp, git mergetool leaves server.key.orig.
// read_file served each; they are secrets as the file they copy is, to
// every tool, and the copies of ordinary files stay readable.
func TestSecretCopiesAreSecrets(t *testing.T) {
	copies := map[string]string{
		".env~":                "API_KEY=SECRET-BACKUP\n",
		"#.env#":               "API_KEY=SECRET-AUTOSAVE\n",
		"..env.swp":            "API_KEY=SECRET-SWAP\n",
		"tls/server.key.orig":  "SECRET-MERGE-ORIG\n",
		"credentials.json.bak": "{\"token\":\"SECRET-BAK\"}\n",
		".aws/credentials~":    "SECRET-AWS-BACKUP\n",
	}
	copiesAreSecrets(t, copies, "SECRET", map[string]string{"main.go~": "package main // SECRET-NOT\n", "notes.bak": "plain\n"})
}

// copiesAreSecrets starts juju on a workspace holding copies (name →
// content) and plain (name → content) and checks that each copy is
// SECRET_DENIED to read_file and file_info and shown, by name or content,
// by neither list_directory, glob_files nor a search for pattern, while
// each plain file reads as it is.
func copiesAreSecrets(t *testing.T, copies map[string]string, pattern string, plain map[string]string) {
	t.Helper()
	files := map[string]string{}
	for name, content := range plain {
		files[name] = content
	}
	for name, content := range copies {
		files[name] = content
	}
	s := start(t, workspace(t, files))
	for name := range copies {
		s.fail("read_file", map[string]any{"path": name}, "SECRET_DENIED")
		s.fail("file_info", map[string]any{"path": name}, "SECRET_DENIED")
	}
	for _, out := range []string{
		s.ok("list_directory", map[string]any{"path": "."}),
		s.ok("glob_files", map[string]any{"pattern": "**/*", "includeIgnored": true}),
		s.ok("search_code", map[string]any{"pattern": pattern}),
	} {
		for name, content := range copies {
			if strings.Contains(out, name) || strings.Contains(out, strings.TrimSpace(content)) {
				t.Errorf("%s shown:\n%s", name, out)
			}
		}
	}
	for name, content := range plain {
		if out := s.ok("read_file", map[string]any{"path": name}); !strings.Contains(out, strings.TrimSpace(content)) {
			t.Errorf("%s: %s", name, out)
		}
	}
}
