package test

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestSearchAnswerIsNoOracleOfOutsideFiles: rg opens files by path, so a
// process in the workspace that keeps exchanging a folder d with a link
// to an outside folder (renameat2 RENAME_EXCHANGE) has rg read the
// outside files under d's names. The host shows nothing rg read, but its
// answer must not depend on it either: rg names a file only when the
// pattern matches its content, so an answer that said "files changed"
// (for d/token, which holds no match) or "more matches exist" (rg's
// candidates counted before the host confirmed them) told the pattern's
// author whether an outside file matched, one bit a search: the bearer
// token in juju's own folder, which a confined command cannot read, by
// successive patterns. A search whose pattern matches the outside file
// must answer exactly as one that matches nothing outside. An inotify
// watch on the outside file proves rg read it during the searches. The
// host's own search (no rg) opens a file by its path beneath the root,
// which follows a link inside it: d exchanged with a link to .git had it
// read .git/config, a secret, and the answer said so the same way.
func TestSearchAnswerIsNoOracleOfOutsideFiles(t *testing.T) {
	for _, engine := range []string{"ripgrep", "juju"} {
		t.Run(engine, func(t *testing.T) {
			secret := "tok=SECRET1\ntok=SECRET2\ntok=SECRET3\n"
			files := map[string]string{
				"decoy.txt": "DECOY\n",
				"d/x.txt":   "filler\n",
			}
			var target string // the file read through the link
			if engine == "ripgrep" {
				if _, err := exec.LookPath("rg"); err != nil {
					t.Skip("no rg:", err)
				}
				outside := workspace(t, map[string]string{"token": secret})
				files["d/token"] = "nothing to see\n"
				files["link"] = "->" + outside
				target = filepath.Join(outside, "token")
			} else {
				withoutRipgrep(t)
				files[".git/config"] = secret
				files["d/config"] = "nothing to see\n"
				files["link"] = "->.git"
			}
			root := workspace(t, files)
			if target == "" {
				target = filepath.Join(root, ".git", "config")
			}
			d, link := filepath.Join(root, "d"), filepath.Join(root, "link")
			skipWithoutExchange(t, d, link)
			s := start(t, root, "--mode", "trusted")

			// What the tool answers when the outside file is not read: the pattern
			// that matches it and the one that does not get these answers.
			calls := []map[string]any{
				{},
				{"maxResults": 1},
				{"outputMode": "files", "maxResults": 1},
				{"outputMode": "count"},
			}
			answer := func(pattern string, args map[string]any) string {
				a := map[string]any{"pattern": pattern}
				for k, v := range args {
					a[k] = v
				}
				res := s.call("search_code", a)
				if res.IsError {
					t.Fatalf("search_code %v: %s", a, text(res))
				}
				sc := structured(t, res)
				delete(sc, "pattern") // the one field the patterns may differ in
				b, _ := json.Marshal(sc)
				return string(b)
			}
			want := make([]string, len(calls))
			for i, c := range calls {
				want[i] = answer("DECOY|tok=NOTIT", c)
				if got := answer("DECOY|tok=SECRET", c); got != want[i] {
					t.Fatalf("without a swap, %v answers %s for the outside pattern and %s for the other", c, got, want[i])
				}
			}

			in, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
			if err != nil {
				t.Fatal(err)
			}
			defer unix.Close(in)
			if _, err := unix.InotifyAddWatch(in, target, unix.IN_OPEN); err != nil {
				t.Fatal(err)
			}
			opens := func() int {
				n := 0
				buf := make([]byte, 64<<10)
				for {
					k, err := unix.Read(in, buf)
					if err != nil || k <= 0 {
						return n
					}
					n += k / unix.SizeofInotifyEvent
				}
			}

			var stop atomic.Bool
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for !stop.Load() {
					unix.Renameat2(unix.AT_FDCWD, d, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE)
				}
			}()
			halt := func() {
				stop.Store(true)
				wg.Wait()
			}
			defer halt()

			var n, read, leaks int
			differed := map[string]int{} // by pattern
			var first string
			deadline := time.Now().Add(30 * time.Second)
			for ; n < 2000 && read < 20 && time.Now().Before(deadline); n++ {
				// The pattern that matches the outside file, and one that matches
				// nothing outside, in turn: each must answer as without a swap.
				c, pattern := calls[n/2%len(calls)], []string{"DECOY|tok=SECRET", "DECOY|tok=NOTIT"}[n%2]
				got := answer(pattern, c)
				if n%2 == 0 {
					read += opens()
				}
				if got != want[n/2%len(calls)] {
					leaks++
					differed[pattern]++
					if first == "" {
						first = fmt.Sprintf("%s, %v: %s, where no swap answers %s", pattern, c, got, want[n/2%len(calls)])
					}
				}
			}
			halt()
			t.Logf("%d searches, the file behind the link was read %d times during them, %d answers differed %v", n, read, leaks, differed)
			if leaks > 0 {
				t.Fatalf("%d of %d answers told that an outside file matched; the first:\n%s", leaks, n, first)
			}
			if read == 0 {
				t.Skip("the file behind the link was never read during the searches: the race was not met, nothing tested")
			}
		})
	}
}
