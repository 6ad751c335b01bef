// Package golden compares a test's output with a golden file, or rewrites
// the file when the test runs with its -update flag. Tests of the host
// functions' transcripts use it.
package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// Check compares got with the file name; with update it writes got there
// instead.
func Check(t testing.TB, name, got string, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("transcript differs from %s (go test -update rewrites it):\n%s", name, got)
	}
}
