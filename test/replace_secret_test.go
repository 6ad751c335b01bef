package test

import (
	"strings"
	"testing"
)

// replace_in_files over a glob that names secrets or denied paths says so:
// SECRET_DENIED or PATH_DENIED when they are all it matches, and how many
// files it left out when it matches others too, never a bare "none of the
// 0 files".
func TestReplaceInFilesNamesWithheldFiles(t *testing.T) {
	root := workspace(t, map[string]string{
		".env":               "API_KEY=old\n",
		"sub/.env":           "API_KEY=old\n",
		"notes.local.txt":    "old notes\n",
		"readme.txt":         "old readme\n",
		"docs/guide.txt":     "nothing here\n",
		".gitignore":         ".env\n",
		"keys/deploy.pem":    "old\n",
		"keys/link-to-a.pem": "->../readme.txt",
	})
	home := t.TempDir()
	writeConfig(t, home, "[policy]\ndeny = [\"**/*.local.txt\"]\n")
	s := startHome(t, home, root, "--mode", "trusted")
	replace := func(glob, old string) map[string]any {
		return map[string]any{"oldString": old, "newString": "new", "fileGlob": glob}
	}

	msg := s.fail("replace_in_files", replace(".env", "old"), "SECRET_DENIED")
	if !strings.Contains(msg, `".env" matches only secrets (1 file(s)`) {
		t.Errorf(".env: %s", msg)
	}
	msg = s.fail("replace_in_files", replace("**/.env", "old"), "SECRET_DENIED")
	if !strings.Contains(msg, "(2 file(s)") {
		t.Errorf("**/.env: %s", msg)
	}
	msg = s.fail("replace_in_files", replace("*.local.txt", "old"), "PATH_DENIED")
	if !strings.Contains(msg, "matches only paths juju may not touch (1:") {
		t.Errorf("*.local.txt: %s", msg)
	}
	msg = s.fail("replace_in_files", replace("keys/*", "old"), "SECRET_DENIED")
	if !strings.Contains(msg, "(2 file(s)") {
		t.Errorf("keys/*: %s", msg)
	}
	msg = s.fail("replace_in_files", replace("nothing/**", "old"), "NO_MATCH")
	if !strings.Contains(msg, "no file matches") {
		t.Errorf("a glob matching nothing: %s", msg)
	}

	// A glob matching others too: the replacement runs and says how many
	// files it left out, and why.
	res := s.call("replace_in_files", replace("*", "old"))
	if res.IsError {
		t.Fatalf("*: %s", text(res))
	}
	if !strings.Contains(text(res), "2 more matching file(s) were left out: secrets or paths the owner's deny rules exclude") {
		t.Errorf("* dry run text: %s", text(res))
	}
	if n := structured(t, res)["filesLeftOut"]; n != float64(2) {
		t.Errorf("filesLeftOut = %v, want 2", n)
	}
	msg = s.fail("replace_in_files", replace("**/*.txt", "absent text"), "NO_MATCH")
	if !strings.Contains(msg, "none of the 2 files") || !strings.Contains(msg, "1 more matching file(s) were left out: the owner's deny rules exclude them") {
		t.Errorf("**/*.txt: %s", msg)
	}
	if disk(t, root, ".env") != "API_KEY=old\n" {
		t.Fatal(".env changed")
	}
}
