package test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestSpecReadInstructionsStructuredIsNoCopy: read_instructions' structured
// content carries each file's shape (path, kind, front matter, how much
// was shown), not a second copy of its text (SPEC §4), which it held
// whole, outside the untrusted fence the text puts around it: an
// instruction file of 40 KB made 40 KB of structured content beside the
// same 40 KB of text.
func TestSpecReadInstructionsStructuredIsNoCopy(t *testing.T) {
	body := strings.Repeat("Use table tests and keep functions short.\n", 1000)
	root := workspace(t, map[string]string{
		"CLAUDE.md": body,
		"AGENTS.md": "short\n",
	})
	s := start(t, root)
	res := s.call("read_instructions", map[string]any{})
	if res.IsError {
		t.Fatal(text(res))
	}
	if !strings.Contains(text(res), body) {
		t.Fatalf("the text does not hold CLAUDE.md whole (%d bytes)", len(text(res)))
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) > 2000 || strings.Contains(string(raw), "table tests") {
		t.Fatalf("structured content of %d bytes copies the files' text: %.300s", len(raw), raw)
	}
	sc := structured(t, res)
	files, _ := sc["files"].([]any)
	if len(files) != 2 {
		t.Fatalf("files: %v", sc["files"])
	}
	for _, f := range files {
		f := f.(map[string]any)
		want := map[string]float64{"CLAUDE.md": float64(len(body)), "AGENTS.md": 6}[f["path"].(string)]
		if f["bytes"] != want {
			t.Fatalf("%v: bytes %v, want %v", f["path"], f["bytes"], want)
		}
	}
}

// TestSpecReadInstructionsMatchOverview: the instruction files
// project_overview names are the files read_instructions returns. The
// overview named every file at any depth of .cursor/rules and the like
// (a notes.txt, a README.md), while read_instructions took only the
// folder's own files with the convention's suffix, so a rule in
// .cursor/rules/frontend/ was named and never read.
func TestSpecReadInstructionsMatchOverview(t *testing.T) {
	root := workspace(t, map[string]string{
		"AGENTS.md":                                  "agents\n",
		".cursor/rules/a.mdc":                        "a\n",
		".cursor/rules/frontend/b.mdc":               "b\n",
		".cursor/rules/notes.txt":                    "not a rule\n",
		".github/instructions/README.md":             "not an instructions file\n",
		".github/instructions/py/py.instructions.md": "py\n",
		".kiro/steering/deep/product.md":             "product\n",
	})
	s := start(t, root)
	var read []string
	for _, f := range structured(t, s.call("read_instructions", map[string]any{}))["files"].([]any) {
		read = append(read, f.(map[string]any)["path"].(string))
	}
	var named []string
	for _, p := range structured(t, s.call("project_overview", map[string]any{}))["instructions"].([]any) {
		named = append(named, p.(string))
	}
	slices.Sort(read)
	want := []string{".cursor/rules/a.mdc", ".cursor/rules/frontend/b.mdc", ".github/instructions/py/py.instructions.md", ".kiro/steering/deep/product.md", "AGENTS.md"}
	if !slices.Equal(read, want) || !slices.Equal(named, want) {
		t.Fatalf("read_instructions read %v, project_overview named %v, want %v", read, named, want)
	}
}
