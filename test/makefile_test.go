package test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every fuzzer the Makefile names, with its package, exists: a package
// moved without the Makefile following it breaks `make fuzz` unseen, since
// `make test` runs only the seeds.
func TestMakefileFuzzersExist(t *testing.T) {
	mk, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile(`-fuzz=\^?(Fuzz\w+)\$?\S*\s.*?(\./\S+)\s*$`)
	n := 0
	for _, line := range strings.Split(string(mk), "\n") {
		m := named.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n++
		fuzzer, dir := m[1], filepath.Join("..", m[2])
		tests, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
		found := false
		for _, f := range tests {
			b, err := os.ReadFile(f)
			if err == nil && strings.Contains(string(b), "func "+fuzzer+"(") {
				found = true
			}
		}
		if !found {
			t.Errorf("the Makefile runs %s in %s, which has no such fuzzer", fuzzer, m[2])
		}
	}
	if n == 0 {
		t.Fatal("no fuzzer line found in the Makefile: the pattern of this test is stale")
	}
}
