package test

import (
	"fmt"
	"strings"
	"testing"
)

// A rules folder holding more files than read_instructions takes from
// one (100) gets an answer saying how many it holds and how to read the
// rest, marked truncated. Before, the first 100 of 150 came back as if
// they were all, and the rules the model never saw could be the ones
// that always apply.
func TestReadInstructionsSaysWhatARulesFolderLeftOut(t *testing.T) {
	files := map[string]string{"AGENTS.md": "Use tabs.\n"}
	for i := range 150 {
		files[fmt.Sprintf(".cursor/rules/r%03d.md", i)] = fmt.Sprintf("rule %d\n", i)
	}
	s := start(t, workspace(t, files), "--mode", "trusted")
	res := s.call("read_instructions", map[string]any{})
	if res.IsError {
		t.Fatalf("read_instructions: %s", text(res))
	}
	sc := structured(t, res)
	if n := len(sc["files"].([]any)); n != 101 || sc["truncated"] != true {
		t.Errorf("%d files, truncated %v", n, sc["truncated"])
	}
	if got := text(res); !strings.Contains(got, "[.cursor/rules holds 150 files named *.md; the first 100 are shown: list the rest with glob and read them with read_file]") {
		t.Errorf("no note of the files left out:\n%s", got[max(0, len(got)-600):])
	}
}
