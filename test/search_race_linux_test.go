package test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestSearchCodeSwapRace: while search_code searches the folder d, a
// process in the workspace keeps exchanging d with a symlink to an outside
// folder that holds files of the same names (renameat2 RENAME_EXCHANGE, one
// atomic step each way). Whatever ripgrep reads during a swap, no result
// may hold an outside byte, name an outside-only file, count more lines
// than the inside files hold, or count as hidden a file only outside has
// (the workspace holds no secret).
func TestSearchCodeSwapRace(t *testing.T) {
	outside := workspace(t, map[string]string{
		// More matching lines than the inside file: a count above 1 came
		// from outside.
		"f.txt": "needle OUTSIDE_SECRET 1\nneedle OUTSIDE_SECRET 2\nneedle OUTSIDE_SECRET 3\n",
		// The same matching line as inside, at the same number, between
		// outside lines: context must come from the inside file.
		"ctx.txt":  "OUTSIDE_SECRET before\nneedle in ctx\nOUTSIDE_SECRET after\n",
		"only.txt": "needle OUTSIDE_SECRET only\n",
	})
	root := workspace(t, map[string]string{
		"d/f.txt":   "needle inside\n",
		"d/ctx.txt": "inside before\nneedle in ctx\ninside after\n",
		"link":      "->" + outside,
	})
	d, link := filepath.Join(root, "d"), filepath.Join(root, "link")
	skipWithoutExchange(t, d, link)
	s := start(t, root, "--mode", "trusted")
	inside := map[string]int{"d/f.txt": 1, "d/ctx.txt": 1} // matching lines per file

	var stop atomic.Bool
	var swaps atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			if unix.Renameat2(unix.AT_FDCWD, d, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE) == nil {
				swaps.Add(1)
			}
		}
	}()
	defer func() {
		stop.Store(true)
		wg.Wait()
	}()

	calls := []map[string]any{
		{"pattern": "needle", "path": "d"},
		{"pattern": "needle", "path": "d", "outputMode": "files"},
		{"pattern": "needle", "path": "d", "outputMode": "count"},
		{"pattern": "needle", "path": "d", "contextLines": 2},
	}
	var n, found, refused, partial, leaks int
	var first string
	kinds := map[string]int{} // what leaked, by kind
	deadline := time.Now().Add(6 * time.Second)
	for ; n < 400 && time.Now().Before(deadline); n++ {
		args := calls[n%len(calls)]
		res := s.call("search_code", args)
		got := text(res)
		if res.IsError {
			refused++ // d was the link when the path was resolved
		}
		var bad []string
		sc := structured(t, res)
		if sc["partial"] == true {
			partial++ // files changed under the search: said, not shown
		}
		if strings.Contains(got, "OUTSIDE_SECRET") || strings.Contains(fmt.Sprint(sc), "OUTSIDE_SECRET") {
			bad = append(bad, "outside content")
			kinds["content"]++
		}
		if h, _ := sc["hidden"].(float64); h > 0 {
			bad = append(bad, fmt.Sprintf("%d files hidden", int(h)))
			kinds["hidden count"]++
		}
		if !res.IsError {
			for _, f := range sc["files"].([]any) {
				f := f.(map[string]any)
				path, _ := f["path"].(string)
				truth, ok := inside[path]
				count, _ := f["count"].(float64)
				matches, _ := f["matches"].([]any)
				switch {
				case !ok:
					bad = append(bad, "outside file "+path)
					kinds["file name"]++
				case int(count) > truth || len(matches) > truth:
					bad = append(bad, fmt.Sprintf("%s: %d lines counted, %d listed, the file holds %d", path, int(count), len(matches), truth))
					kinds["line count"]++
				default:
					found++
				}
			}
		}
		if len(bad) > 0 {
			leaks++
			if first == "" {
				first = fmt.Sprintf("%v: %s\n%s", args, strings.Join(bad, "; "), got)
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d searches, %d swaps: %d inside files found, %d searches refused (d was the link), %d partial (files changed), %d leaked %v",
		n, swaps.Load(), found, refused, partial, leaks, kinds)
	if leaks > 0 {
		t.Fatalf("%d of %d searches returned what only the outside folder holds; the first:\n%s", leaks, n, first)
	}
	if found == 0 {
		t.Fatalf("no search found the inside files: the race test tests nothing")
	}
}

// skipWithoutExchange skips the test where renameat2(RENAME_EXCHANGE) is
// not supported, trying it on a and b twice (leaving them as they were).
func skipWithoutExchange(t *testing.T, a, b string) {
	t.Helper()
	if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
		if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
			t.Skip("renameat2(RENAME_EXCHANGE) is not supported here:", err)
		}
		t.Fatal(err)
	}
	if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
		t.Fatal(err)
	}
}
