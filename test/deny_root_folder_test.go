package test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// A deny glob without a slash (or starting with **/) names a folder
// wherever it lies, and was matched from the root only: with deny =
// ["private"], a root given inside private/ (a second root, or the first
// opened on a subfolder) served every file the owner had withheld, to
// read_file, listings, globs and searches alike. A root inside a folder
// such a glob denies is now denied whole, and **/generated/** holds across
// the root's own names; a glob with another slash stays a path from a root,
// for secret globs too.
func TestDenyHoldsInARootInsideADeniedFolder(t *testing.T) {
	top := workspace(t, map[string]string{
		"private/notes/plan.txt":  "DENIED-PLAN\n",
		"generated/api/client.go": "package api // DENIED-GEN\n",
		"build/out/artifact.txt":  "build output\n",
		"private-not/open.txt":    "open\n",
		"app/main.go":             "package main\n",
	})
	// A glob with another slash is a path from a root: one naming the
	// workspace's own first folder from the file system's top (tmp/**)
	// matches nothing here, where it made every file of the roots secret.
	first, _, _ := strings.Cut(strings.TrimPrefix(filepath.ToSlash(top), "/"), "/")
	home := t.TempDir()
	writeConfig(t, home, fmt.Sprintf("[policy]\ndeny = [\"private\", \"**/generated/**\", \"build/**\", %q]\nsecrets = [%q]\n", first+"/*/**", first+"/**"))
	notes, api := filepath.Join(top, "private", "notes"), filepath.Join(top, "generated", "api")
	build, open := filepath.Join(top, "build", "out"), filepath.Join(top, "private-not")
	s := startHome(t, home, notes, "--root", api, "--root", build, "--root", open, "--mode", "trusted")
	for _, p := range []string{"plan.txt", ".", filepath.Join(api, "client.go"), api} {
		s.fail("read_file", map[string]any{"path": p}, "PATH_DENIED")
		s.fail("file_info", map[string]any{"path": p}, "PATH_DENIED")
	}
	s.fail("list_directory", map[string]any{}, "PATH_DENIED")
	s.fail("list_directory", map[string]any{"path": api}, "PATH_DENIED")
	s.fail("glob_files", map[string]any{"pattern": "**", "path": api}, "PATH_DENIED")
	s.fail("search_code", map[string]any{"pattern": "DENIED", "path": api}, "PATH_DENIED")
	s.fail("search_code", map[string]any{"pattern": "DENIED"}, "PATH_DENIED")
	s.fail("write_file", map[string]any{"path": "new.txt", "content": "x\n"}, "PATH_DENIED")
	// build/** is written from a root: a root at build/out is not below a
	// root's build folder, and a name that only starts as a denied one is
	// no match.
	for p, want := range map[string]string{filepath.Join(build, "artifact.txt"): "build output", filepath.Join(open, "open.txt"): "open"} {
		if out := s.ok("read_file", map[string]any{"path": p}); !strings.Contains(out, want) {
			t.Errorf("read_file %s: %s", p, out)
		}
	}
	if out := s.ok("search_code", map[string]any{"pattern": "open", "path": open}); !strings.Contains(out, "open.txt") {
		t.Errorf("search_code in a root beside the denied folder: %s", out)
	}
}

// git's exclusions are rewritten for a repository's top from the secret
// globs that match across its names, and took the owner's tmp/** (a path
// from a root) from the file system's top: git_status called a repository
// in /tmp clean and git_diff showed no change, where read_file showed it.
func TestGitSeesARepositoryAPathFromARootDoesNotName(t *testing.T) {
	repo := workspace(t, map[string]string{"a.txt": "one\n"})
	gitIn(t, repo, "init", "-q")
	gitIn(t, repo, "add", "-A")
	gitIn(t, repo, "commit", "-qm", "one")
	writeFile(t, filepath.Join(repo, "a.txt"), "one\ntwo\n")
	first, _, _ := strings.Cut(strings.TrimPrefix(filepath.ToSlash(repo), "/"), "/")
	home := t.TempDir()
	writeConfig(t, home, fmt.Sprintf("[policy]\nsecrets = [%q]\n", first+"/**"))
	s := startHome(t, home, repo)
	if out := s.ok("git_status", map[string]any{}); !strings.Contains(out, "a.txt") {
		t.Errorf("git_status left out the changed file:\n%s", out)
	}
	if out := s.ok("git_diff", map[string]any{}); !strings.Contains(out, "+two") {
		t.Errorf("git_diff left out the change:\n%s", out)
	}
}
