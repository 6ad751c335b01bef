//go:build unix

package journal

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// A folder swapped for a link between the policy's check and the write
// must not take the write elsewhere: os.Root follows a link that stays
// inside the root, so "sub" turned into a link to .git/hooks would put a
// new sub/pre-commit into .git/hooks, and an edit of sub/config (a copy
// of .git/config) would rewrite .git/config. The swap is made at the
// "intent" fault point, after every check and before any file is written,
// as a process of the owner's could race it.
func TestWritesDoNotFollowAFolderSwappedMidChange(t *testing.T) {
	gitConfig := "[core]\n\tbare = false\n"
	cases := []struct {
		name string
		op   func() wop
		// escaped reports what reached the folder the link points to.
		escaped func(root string) string
	}{
		{
			name: "a new file",
			op:   func() wop { return write("sub/pre-commit", "#!/bin/sh\necho owned\n") },
			escaped: func(root string) string {
				if _, err := os.Lstat(filepath.Join(root, ".git", "pre-commit")); err == nil {
					return ".git/pre-commit was created"
				}
				return ""
			},
		},
		{
			name: "an edit of a copy",
			op: func() wop {
				return wop{ChangeOp: abi.ChangeOp{Op: abi.OpEdit, Path: "sub/config", OldString: "bare = false", NewString: "bare = false\n\tfsmonitor = ./x"}}
			},
			escaped: func(root string) string {
				if b, _ := os.ReadFile(filepath.Join(root, ".git", "config")); string(b) != gitConfig {
					return ".git/config was rewritten: " + string(b)
				}
				return ""
			},
		},
		{
			name: "a delete of a copy",
			op:   func() wop { return wop{ChangeOp: abi.ChangeOp{Op: abi.OpDelete, Path: "sub/config"}} },
			escaped: func(root string) string {
				if _, err := os.Lstat(filepath.Join(root, ".git", "config")); err != nil {
					return ".git/config was deleted"
				}
				return ""
			},
		},
		{
			name: "a new folder",
			op:   func() wop { return write("sub/hooks/post-checkout", "#!/bin/sh\n") },
			escaped: func(root string) string {
				if _, err := os.Lstat(filepath.Join(root, ".git", "hooks")); err == nil {
					return ".git/hooks was created"
				}
				return ""
			},
		},
	}
	for _, tc := range cases {
		for _, serial := range []bool{false, true} {
			name := tc.name
			if serial {
				name += ", named temporary files"
			}
			t.Run(name, func(t *testing.T) {
				var root string
				swapped := false
				f := newFixture(t, map[string]string{
					".git/config": gitConfig,
					"sub/config":  gitConfig,
					"sub/keep":    "k\n",
				}, WithFault(func(point string) {
					if point != "intent" || swapped {
						return
					}
					swapped = true
					sub := filepath.Join(root, "sub")
					if err := os.Rename(sub, sub+".real"); err != nil {
						t.Error(err)
					}
					if err := os.Symlink(".git", sub); err != nil {
						t.Error(err)
					}
				}))
				root = f.root
				f.j.opts.serial = serial
				_, e := f.apply(tc.op())
				if !swapped {
					t.Fatalf("the change never reached its intent (error %v)", e)
				}
				if what := tc.escaped(root); what != "" {
					t.Fatalf("the write followed the swapped folder: %s (error %v)", what, e)
				}
				if e == nil {
					t.Fatal("the change succeeded through a swapped folder")
				}
				if e.Code != abi.FileChanged {
					t.Errorf("code %s, want %s: %s", e.Code, abi.FileChanged, e.Message)
				}
				// Nothing was left in the real folder either.
				entries, err := os.ReadDir(filepath.Join(root, "sub.real"))
				if err != nil {
					t.Fatal(err)
				}
				for _, en := range entries {
					if en.Name() != "config" && en.Name() != "keep" {
						t.Errorf("sub.real holds %s after a refused change", en.Name())
					}
				}
			})
		}
	}
}
