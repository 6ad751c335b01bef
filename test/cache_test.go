package test

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
)

// The compilation cache is an optimisation: when it cannot be written — a
// file where its folder should be, a read-only folder, a full disk — juju
// compiles in memory, warns once on stderr, and every tool works; juju
// doctor says why the cache is not used.
func TestUnwritableCacheCompilesInMemory(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "cached or not\n"})
	const warning = "the compilation cache cannot be used"
	cases := []struct {
		name string
		// setup makes home's cache unwritable and returns the program
		// and arguments that start `juju stdio` (a wrapper may mount),
		// or skips.
		setup func(t *testing.T, home string) (string, []string)
	}{
		{"a file where the folder should be", func(t *testing.T, home string) (string, []string) {
			if err := os.WriteFile(filepath.Join(home, "cache"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			return jujuBin, []string{"stdio", "--root", root, "--mode", "trusted"}
		}},
		{"a read-only folder", func(t *testing.T, home string) (string, []string) {
			cache := filepath.Join(home, "cache")
			if err := os.MkdirAll(filepath.Join(cache, "wazero-old"), 0o700); err != nil {
				t.Fatal(err)
			}
			if os.Geteuid() != 0 {
				os.Chmod(cache, 0o500)
				t.Cleanup(func() { os.Chmod(cache, 0o700) })
				return jujuBin, []string{"stdio", "--root", root, "--mode", "trusted"}
			}
			// root ignores modes: a read-only bind mount in a mount namespace.
			return inMountNamespace(t, "mount --bind -o ro "+cache+" "+cache, root)
		}},
		{"a full disk", func(t *testing.T, home string) (string, []string) {
			cache := filepath.Join(home, "cache")
			if err := os.MkdirAll(cache, 0o700); err != nil {
				t.Fatal(err)
			}
			if os.Geteuid() != 0 {
				t.Skip("mounting a full file system needs root")
			}
			// 1 MiB of tmpfs: the compiled plugin (about 20 MiB) does not fit.
			return inMountNamespace(t, "mount -t tmpfs -o size=1m tmpfs "+cache, root)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			program, args := c.setup(t, home)
			s := startCommand(t, append(os.Environ(), "JUJU_HOME="+home), program, args, home, root)
			if got := s.ok("read_file", map[string]any{"path": "a.txt"}); !strings.Contains(got, "cached or not") {
				t.Fatalf("read_file: %q", got)
			}
			s.ok("write_file", map[string]any{"path": "b.txt", "content": "written\n"})
			if got := s.ok("run_command", map[string]any{"command": "cat b.txt"}); !strings.Contains(got, "written") {
				t.Fatalf("run_command: %q", got)
			}
			stderr := closeAndReadStderr(t, s)
			if n := strings.Count(stderr, warning); n != 1 {
				t.Errorf("the warning %q is on stderr %d times, want once:\n%s", warning, n, stderr)
			}
		})
	}
	t.Run("juju doctor says why", func(t *testing.T) {
		home := t.TempDir()
		os.WriteFile(filepath.Join(home, "cache"), nil, 0o600)
		out, _, _ := cli(t, home, nil, "doctor", "--json")
		var r struct {
			CacheProblem string   `json:"cacheProblem"`
			Problems     []string `json:"problems"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("doctor --json: %v\n%s", err, out)
		}
		if !strings.Contains(r.CacheProblem, "not used") || !strings.Contains(r.CacheProblem, "not a directory") || !strings.Contains(r.CacheProblem, "in memory") {
			t.Errorf("cacheProblem: %q", r.CacheProblem)
		}
		for _, p := range r.Problems {
			if strings.Contains(p, "cannot load the catalog") || strings.HasPrefix(p, "plugins:") {
				t.Errorf("the catalog did not load: %s", p)
			}
		}
	})
}

// inMountNamespace returns the program and arguments that run `juju stdio
// --root root` after mount (a shell command) in a private mount namespace,
// or skips when no such namespace can be made here.
func inMountNamespace(t *testing.T, mount, root string) (string, []string) {
	t.Helper()
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare to make a mount namespace")
	}
	probe := t.TempDir()
	if out, err := exec.Command(unshare, "-m", "--propagation", "private", "sh", "-c", "mount -t tmpfs tmpfs "+probe).CombinedOutput(); err != nil {
		t.Skipf("cannot mount in a private mount namespace here: %v %s", err, out)
	}
	return unshare, []string{"-m", "--propagation", "private", "sh", "-c", mount + ` && exec "$0" stdio --root "$1" --mode trusted`, jujuBin, root}
}

// closeAndReadStderr ends the session and returns everything juju wrote on
// stderr.
func closeAndReadStderr(t *testing.T, s *session) string {
	t.Helper()
	r, ok := client.GetStderr(s.c)
	if !ok {
		t.Fatal("no stderr")
	}
	s.c.Close()
	b, _ := io.ReadAll(r)
	return string(b)
}
