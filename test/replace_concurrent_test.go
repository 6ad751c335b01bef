package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// replace_in_files calls sent side by side on one file, as a client sends
// the tool calls of one message at once, all land. Each call reads the file
// itself, so one that lost the race to another's write once answered
// FILE_CHANGED, "read it again and redo the change", for a read the model
// never made; it now reads again and replaces in what the file holds. No
// replacement is lost either way: the file ends holding every one.
func TestReplaceInFilesSideBySideAllLand(t *testing.T) {
	const calls = 8
	root := t.TempDir()
	var lines []string
	for i := range calls {
		lines = append(lines, fmt.Sprintf("old<%d>", i))
	}
	s := start(t, root)
	for round := range 3 {
		name := fmt.Sprintf("f%d.txt", round)
		write(t, root, name, strings.Join(lines, "\n")+"\n")
		var wg sync.WaitGroup
		errs := make([]string, calls)
		for i := range calls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := s.callErr("replace_in_files", map[string]any{
					"oldString": fmt.Sprintf("old<%d>", i), "newString": fmt.Sprintf("new<%d>", i),
					"fileGlob": name, "dryRun": false, "expectedCount": 1,
				})
				switch {
				case err != nil:
					errs[i] = err.Error()
				case res.IsError:
					errs[i] = text(res)
				}
			}()
		}
		wg.Wait()
		for i, e := range errs {
			if e != "" {
				t.Errorf("round %d, call %d: %s", round, i, e)
			}
		}
		got, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		for i := range calls {
			if !strings.Contains(string(got), fmt.Sprintf("new<%d>\n", i)) {
				t.Errorf("round %d: replacement %d is missing from the file:\n%s", round, i, got)
			}
		}
		if t.Failed() {
			return
		}
	}
}
