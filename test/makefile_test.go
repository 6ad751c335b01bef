package test

import (
	"os"
	"os/exec"
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

// `make run` and `make serve` check the machine with juju doctor before
// serving ROOT: the doctor's report on the change journal must be that of
// ROOT, the workspace served, not of juju's own folder.
func TestMakeServeDoctorsTheRootServed(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	for _, target := range []string{"run", "serve"} {
		out, err := exec.Command("make", "-C", "..", "-n", target, "ROOT=/some/project").CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", target, err, out)
		}
		found := false
		for _, line := range strings.Split(string(out), "\n") {
			if strings.Contains(line, " doctor ") {
				found = true
				if !strings.Contains(line, `--root "/some/project"`) {
					t.Errorf("make %s runs %q, not on ROOT", target, line)
				}
			}
		}
		if !found {
			t.Errorf("make %s runs no juju doctor:\n%s", target, out)
		}
	}
}
