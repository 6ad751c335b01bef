//go:build unix

package install

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/installed"
)

// The crash helper: the test binary run again, installing a plugin and
// killed with SIGKILL at a step of the swap into place.
const (
	envData    = "JUJU_INSTALL_CRASH_DATA"
	envSrc     = "JUJU_INSTALL_CRASH_SRC"
	envTwoStep = "JUJU_INSTALL_CRASH_TWO_STEP"
	envCache   = "JUJU_INSTALL_CRASH_CACHE"
)

func init() { crashHelper = installAndDie }

func installAndDie() {
	at := os.Getenv(envCrash)
	o := Options{Data: os.Getenv(envData), Cache: os.Getenv(envCache), twoStep: os.Getenv(envTwoStep) != ""}
	o.fault = func(step string) {
		if step == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Hour)
		}
	}
	if _, err := Install(context.Background(), os.Getenv(envSrc), o); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(0)
}

// An update killed at any step of the swap into place leaves a whole
// plugin installed once the next lifecycle command has run: the old
// version or the new one, never none. With a one-step exchange there is
// no step without one; where the old folder is moved aside first, the
// next command puts it back.
func TestUpdateKilledMidSwapLeavesAPlugin(t *testing.T) {
	for _, c := range []struct {
		at, want string
		twoStep  bool
	}{
		{"exchanged", "2.0.0", false},
		{"aside", "1.0.0-old", true},
		{"swapped", "2.0.0", true},
	} {
		t.Run(c.at, func(t *testing.T) {
			e := newEnv(t)
			src := testPlugin(t, "echo")
			editManifest(t, src, func(m map[string]any) { m["version"] = "1.0.0-old" })
			e.install(t, src, e.opts())
			editManifest(t, src, func(m map[string]any) { m["version"] = "2.0.0" })

			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), envCrash+"="+c.at, envData+"="+e.data, envSrc+"="+src, envCache+"="+e.cache)
			if c.twoStep {
				cmd.Env = append(cmd.Env, envTwoStep+"=1")
			}
			cmd.Stderr = os.Stderr
			err := cmd.Run()
			ee, ok := err.(*exec.ExitError)
			if !ok || !ee.Sys().(syscall.WaitStatus).Signaled() {
				t.Fatalf("the helper was not killed at %s: %v", c.at, err)
			}

			// The next lifecycle command (here a grant) finds a whole plugin.
			if _, err := Grant(context.Background(), e.data, "test-echo", nil, nil); err != nil {
				t.Fatalf("after a crash at %s: %v (data holds %v)", c.at, err, dataEntries(t, e.data))
			}
			in, err := installed.ReadInstalled(filepath.Join(installed.PluginsDir(e.data), "test-echo"))
			if err == nil {
				err = in.CheckWasm()
			}
			if err != nil || in.Manifest.Version != c.want {
				t.Fatalf("after a crash at %s: %v, %+v; want version %s", c.at, err, in, c.want)
			}
			if top := dataEntries(t, e.data); len(top) != 1 || top[0] != "plugins" {
				t.Errorf("after a crash at %s the data dir holds %v", c.at, top)
			}
		})
	}
}
