//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package fs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/jujutools/juju/sdk/abi"
)

// A folder the walk listed and then exchanged with .git (renameat2
// RENAME_EXCHANGE) before the walk enters it is not entered: the walk
// would list .git's files under its name, each a regular file its own
// lstat agrees with, and the host's search would read them.
func TestWalksNeverEnterAnExchangedFolder(t *testing.T) {
	for _, walk := range []string{"glob", "scan"} {
		t.Run(walk, func(t *testing.T) {
			f := newFixture(t, Options{})
			src, dotgit := filepath.Join(f.ws, "src"), filepath.Join(f.ws, ".git")
			must(t, os.MkdirAll(src, 0o755))
			must(t, writeFile(src, "plain.txt", "plain"))
			exchange := func() error {
				return unix.Renameat2(unix.AT_FDCWD, src, unix.AT_FDCWD, dotgit, unix.RENAME_EXCHANGE)
			}
			if err := exchange(); err != nil {
				t.Skip("no RENAME_EXCHANGE here:", err)
			}
			must(t, exchange())
			var once sync.Once
			swapped := false
			beforeChild = func(name string) {
				if name == "src" {
					once.Do(func() { must(t, exchange()); swapped = true })
				}
			}
			defer func() { beforeChild = nil }()

			var got []string
			switch walk {
			case "glob":
				var res abi.GlobResult
				f.call(t, abi.FnFSGlob, abi.GlobRequest{Pattern: "**"}, &res)
				for _, e := range res.Entries {
					got = append(got, e.Path)
				}
			case "scan":
				if _, e := Scan(context.Background(), f.p, ".", ScanOptions{}, func(sf ScanFile) { got = append(got, sf.Path) }); e != nil {
					t.Fatal(e)
				}
			}
			if !swapped {
				t.Fatal("the walk never entered src")
			}
			for _, p := range got {
				if strings.HasPrefix(p, "src/") {
					t.Errorf("the walk listed %s, of .git exchanged with src", p)
				}
			}
			if len(got) == 0 {
				t.Error("the walk listed nothing")
			}
		})
	}
}
