//go:build unix

package test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runRefused runs juju stdio with env and args and wants it to refuse to
// start, naming want in what it says.
func runRefused(t *testing.T, env []string, want string, args ...string) {
	t.Helper()
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	cmd := exec.Command(jujuBin, append([]string{"stdio", "--root", root}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(initializeLine + "\n")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("juju started on a folder or file another user controls; it said:\n%s", out)
	}
	if !strings.Contains(string(out), want) || strings.Contains(string(out), `"result"`) {
		t.Errorf("juju said %q, want a refusal naming %s", out, want)
	}
}

// plantedHome is a JUJU_HOME whose config folder another user (nobody)
// made and filled with a config.toml turning trusted mode on and the
// sandbox off, as a second user of the machine can in a shared folder.
func plantedHome(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("giving a folder to another user needs root")
	}
	home := filepath.Join(t.TempDir(), "jh")
	cfg := filepath.Join(home, "config")
	if err := os.MkdirAll(cfg, 0o777); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(cfg, "config.toml")
	if err := os.WriteFile(file, []byte("mode = \"trusted\"\nsandbox = \"off\"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{home, cfg, file} {
		if err := os.Chown(p, nobodyUID, nobodyUID); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// A JUJU_HOME another user made is theirs to fill: juju read their
// config.toml and served in trusted mode with the sandbox off, and would
// have run the machine code they left in its compilation cache. juju
// refuses to start, naming the folder.
func TestHomeOfAnotherUserRefused(t *testing.T) {
	home := plantedHome(t)
	runRefused(t, []string{"JUJU_HOME=" + home}, filepath.Join(home, "config")+" belongs to another user")
}

// Only the compilation cache (XDG_CACHE_HOME) another user's: refused, as
// the code in it runs inside juju.
func TestCacheFolderOfAnotherUserRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a folder to another user needs root")
	}
	own := t.TempDir()
	cache := filepath.Join(t.TempDir(), "cache")
	if err := os.MkdirAll(filepath.Join(cache, "juju"), 0o700); err != nil {
		t.Fatal(err)
	}
	os.Chown(filepath.Join(cache, "juju"), nobodyUID, nobodyUID)
	env := []string{"JUJU_HOME=", "HOME=" + own, "XDG_CONFIG_HOME=" + own + "/c", "XDG_STATE_HOME=" + own + "/s",
		"XDG_DATA_HOME=" + own + "/d", "XDG_CACHE_HOME=" + cache}
	runRefused(t, env, filepath.Join(cache, "juju")+" belongs to another user")
}

// A state folder every user can write to (made 0777 by a careless umask
// or a shared setup) lets any of them replace the journal, approvals and
// audit: refused. Needs no root.
func TestWorldWritableStateRefused(t *testing.T) {
	home := t.TempDir()
	state := filepath.Join(home, "state")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	os.Chmod(state, 0o777)
	runRefused(t, []string{"JUJU_HOME=" + home}, state+" can be written by every user")
}

// --config naming a file another user owns (planted in /tmp, say) is
// refused: it could set trusted mode, the sandbox off, fetch's allow-list.
func TestConfigFileOfAnotherUserRefused(t *testing.T) {
	home := plantedHome(t)
	own := t.TempDir()
	runRefused(t, []string{"JUJU_HOME=" + own}, "belongs to another user", "--config", filepath.Join(home, "config", "config.toml"))
}

// A JUJU_HOME not yet made, in a folder every user can write to (/tmp),
// juju makes itself, private, so no other user makes it first; and it
// serves.
func TestHomeInStickyFolderMadePrivate(t *testing.T) {
	shared := t.TempDir()
	if err := os.Chmod(shared, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(shared, "jh")
	startCommand(t, append(os.Environ(), "JUJU_HOME="+home), jujuBin,
		[]string{"stdio", "--root", workspace(t, map[string]string{"a.txt": "a\n"})}, home, "")
	for _, d := range []string{home, filepath.Join(home, "config")} {
		st, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o700 {
			t.Errorf("%s has mode %v, want 0700", d, st.Mode().Perm())
		}
	}
}
