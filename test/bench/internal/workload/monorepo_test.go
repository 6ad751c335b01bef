package workload

import (
	"io/fs"
	"path/filepath"
	"testing"
)

func TestMonorepo(t *testing.T) {
	dir := t.TempDir()
	if err := Monorepo(dir); err != nil {
		t.Fatal(err)
	}
	n := 0
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, _ error) error {
		if !d.IsDir() {
			n++
		}
		return nil
	})
	if n != MonorepoFiles {
		t.Errorf("Monorepo wrote %d files, want %d", n, MonorepoFiles)
	}
}
