package test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// jujuBin is the juju binary under test, built once by TestMain.
var jujuBin string

// sharedCache is the compilation cache every session links to.
var sharedCache string

// repoRoot is the repository's top folder.
var repoRoot string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	_, file, _, _ := runtime.Caller(0)
	repoRoot = filepath.Dir(filepath.Dir(file))
	tmp, err := os.MkdirTemp("", "juju-e2e-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	sharedCache = filepath.Join(tmp, "cache")
	os.MkdirAll(sharedCache, 0o700)
	if err := buildJuju(tmp); err != nil {
		fmt.Fprintln(os.Stderr, "building juju:", err)
		return 1
	}
	if err := warmCache(tmp); err != nil {
		fmt.Fprintln(os.Stderr, "warming the compilation cache:", err)
		return 1
	}
	return m.Run()
}

// buildJuju builds the core plugins (every plugins/* folder with a
// manifest.json, as `make plugins` does; unchanged ones come from Go's
// build cache) and the binary.
func buildJuju(tmp string) error {
	manifests, err := filepath.Glob(filepath.Join(repoRoot, "plugins", "*", "manifest.json"))
	if err != nil {
		return err
	}
	args := []string{"run", "./internal/cmd/buildplugins", "-prune", "-out", "host/core/wasm", "-embed", "host/core/wasmfiles.go"}
	for _, m := range manifests {
		rel, err := filepath.Rel(repoRoot, filepath.Dir(m))
		if err != nil {
			return err
		}
		args = append(args, rel)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = repoRoot
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building core plugins: %w", err)
	}
	// Linked statically, as `make build` links them.
	static := append(os.Environ(), "CGO_ENABLED=0")
	jujuBin = filepath.Join(tmp, "juju")
	cmd = exec.Command("go", "build", "-o", jujuBin, "./cmd/juju")
	cmd.Dir = repoRoot
	cmd.Env = static
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return err
	}
	// The sandbox helper beside juju, as `make build` puts it.
	cmd = exec.Command("go", "build", "-o", filepath.Join(tmp, "juju-sandbox"), "./cmd/juju-sandbox")
	cmd.Dir = repoRoot
	cmd.Env = static
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}

// warmCache compiles every core plugin once into the shared compilation
// cache (juju doctor --warm), so that no session's calls wait on a
// compilation of the core plugins.
func warmCache(tmp string) error {
	home := filepath.Join(tmp, "home-warm")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	if err := os.Symlink(sharedCache, filepath.Join(home, "cache")); err != nil {
		return err
	}
	cmd := exec.Command(jujuBin, "doctor", "--warm")
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	cmd.Dir = tmp
	out, err := cmd.CombinedOutput()
	// doctor also exits 1 for problems that are not ours (a program
	// missing from the machine); what matters is that the plugins compiled.
	if err != nil && !strings.Contains(string(out), "compiling core-") {
		return fmt.Errorf("%w: %s", err, out)
	}
	return nil
}
