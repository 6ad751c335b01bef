package search

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/testfs"
	"github.com/jujutools/juju/sdk/abi"
)

// withheldHome is a home folder searched as a root, holding files the
// policy withholds whose names rg's exclusions of secret and deny globs
// do not cover, each holding TOKEN_4f9a: juju's own config folder (a
// private folder), a private key hard-linked under an innocent name, under
// a name that is not UTF-8 and 300 folders deep (more than the policy
// resolves), a file as deep, and a file an owner's deny glob covers
// as written from the root nested inside (proj). It returns the policy
// over home and home/proj.
func withheldHome(t *testing.T) *policy.Policy {
	t.Helper()
	home := testfs.Workspace(t, map[string]string{
		"notes.txt":                "needle\n",
		".config/juju/token":       "TOKEN_4f9a\n",
		".config/juju/config.toml": "token = \"TOKEN_4f9a\"\n",
		"proj/main.go":             "package main // needle\n",
		"proj/build/secret.txt":    "TOKEN_4f9a\n",
	})
	key := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(key, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nTOKEN_4f9a\n-----END OPENSSH PRIVATE KEY-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A path deeper than the policy resolves (256 names) can be named by
	// no tool, yet rg and the host's walk reach it.
	deep := filepath.Join(home, strings.Repeat("d/", 300))
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(deep, "plain.txt"), []byte("TOKEN_4f9a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"innocent.txt", "b\xff.txt", strings.Repeat("d/", 300) + "linked.txt"} {
		if err := os.Link(key, filepath.Join(home, name)); err != nil && name == "innocent.txt" {
			t.Fatal(err)
		}
	}
	p, err := policy.New(policy.Config{
		Roots:   []string{home, filepath.Join(home, "proj")},
		Deny:    []string{"build/secret.txt"},
		Private: []string{filepath.Join(home, ".config/juju")},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestWithheldContentSaysNothing: nothing a search answers depends on the
// content of a file the policy withholds. rg nominates a file only when
// the pattern matches it, so a count of the files refused, or any other
// trace of them, would let a pattern read them one character at a time.
// Two patterns that match the same visible lines, one of which also
// matches every withheld file's content, get the same answer, field by
// field, from both engines in every mode.
func TestWithheldContentSaysNothing(t *testing.T) {
	p := withheldHome(t)
	for engine, opts := range engines(t) {
		for _, mode := range []string{abi.SearchContent, abi.SearchFiles, abi.SearchCount} {
			answer := func(pattern string) string {
				res := call(t, p, opts, abi.SearchRequest{Pattern: pattern, Mode: mode, ContextLines: 1})
				if res.Error != nil {
					t.Fatalf("%s %s %q: %v", engine, mode, pattern, res.Error)
				}
				// rg's threads finish files in no set order.
				slices.SortFunc(res.Files, func(a, b abi.SearchFile) int { return strings.Compare(a.Path, b.Path) })
				b, _ := json.Marshal(res)
				return string(b)
			}
			hit, miss := answer("needle|^TOKEN_4f9a|TOKEN_4f9a"), answer("needle|^TOKEN_0000|TOKEN_0000")
			if hit != miss {
				t.Errorf("%s %s: the answer depends on withheld content:\n matching it: %s\n not:         %s", engine, mode, hit, miss)
			}
		}
	}
}

// A private key hard-linked under an innocent name, named as the path to
// search, is SECRET_DENIED whatever the pattern, as read_file and every
// other tool answer it: it said "no matches", which told the model the
// file lacked what it holds. A file of two links that holds no key is
// searched.
func TestLinkedKeyAsThePathIsSecretDenied(t *testing.T) {
	p := withheldHome(t)
	if err := os.Link(filepath.Join(p.Roots()[0].Path, "notes.txt"), filepath.Join(p.Roots()[0].Path, "notes2.txt")); err != nil {
		t.Fatal(err)
	}
	for engine, opts := range engines(t) {
		for _, pattern := range []string{"TOKEN_4f9a", "TOKEN_0000"} {
			res := call(t, p, opts, abi.SearchRequest{Pattern: pattern, Path: "innocent.txt"})
			if res.Error == nil || res.Error.Code != abi.SecretDenied {
				t.Errorf("%s %q in innocent.txt: %+v, want SECRET_DENIED", engine, pattern, res)
			}
		}
		res := call(t, p, opts, abi.SearchRequest{Pattern: "needle", Path: "notes2.txt"})
		if res.Error != nil || len(res.Files) != 1 {
			t.Errorf("%s needle in notes2.txt: %+v, want its line", engine, res)
		}
	}
}
