package test

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A search right after a change sees it, though search_code reuses, for
// the folders that did not change, what its last walk of the tree found
// (fs.LeftOuts): a new ignored file stays out, a .gitignore edited in
// place decides at once, a new secret says nothing, a new file is found.
// The tree is older than the few seconds within which a folder's stamp is
// not trusted, as a project's folders mostly are.
func TestSearchSeesChangesAtOnce(t *testing.T) {
	root := workspace(t, map[string]string{
		".gitignore":     "*.log\n",
		"src/a/x.go":     "needle x\n",
		"src/b/y.go":     "needle y\n",
		"sub/.gitignore": "*.tmp\n",
		"sub/z.tmp":      "needle z.tmp\n",
		"sub/z.tm2":      "needle z.tm2\n",
		"sub/deep/w.go":  "needle w\n",
	})
	time.Sleep(3500 * time.Millisecond) // past fs's racyWindow
	s := start(t, root, "--mode", "trusted")
	found := func(step string, want, notWant []string) {
		t.Helper()
		res := s.call("search_code", map[string]any{"pattern": "needle", "outputMode": "files"})
		if res.IsError {
			t.Fatalf("%s: %s", step, text(res))
		}
		var got []string
		for _, f := range structured(t, res)["files"].([]any) {
			got = append(got, f.(map[string]any)["path"].(string))
		}
		for _, w := range want {
			if !contains(got, w) {
				t.Errorf("%s: %s not found: %v", step, w, got)
			}
		}
		for _, w := range notWant {
			if contains(got, w) {
				t.Errorf("%s: %s found: %v", step, w, got)
			}
		}
	}
	write := func(rel, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	found("first", []string{"src/a/x.go", "sub/z.tm2", "sub/deep/w.go"}, []string{"sub/z.tmp"})
	found("again", []string{"src/a/x.go", "sub/z.tm2"}, []string{"sub/z.tmp"})

	write("sub/.gitignore", "*.tm2\n") // in place, the same size
	found(".gitignore edited", []string{"sub/z.tmp", "sub/deep/w.go"}, []string{"sub/z.tm2"})
	write("src/b/new.log", "needle log\n")
	found("ignored file added", []string{"src/b/y.go"}, []string{"src/b/new.log"})
	write("src/a/.env", "needle=SECRET\n")
	found("secret added", []string{"src/a/x.go"}, []string{"src/a/.env"})
	write("sub/deep/fresh.go", "needle fresh\n")
	found("file added", []string{"sub/deep/fresh.go"}, nil)
	write(".gitignore", "*.log\nsrc/a/\n")
	found("root .gitignore edited", []string{"src/b/y.go"}, []string{"src/a/x.go", "src/b/new.log"})
}
