//go:build unix

package test

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sandbox"
)

// TestGitReadsNeverOpenAFIFO: a confined command may git init a root that
// had no repository when juju started, and the .git folder it makes is
// then all its own: a FIFO at objects/info/alternates, which juju reads
// before each git run to check where git's objects come from, held
// git_status (and every git tool) for ever, as opening a FIFO for reading
// waits for a writer.
func TestGitReadsNeverOpenAFIFO(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	plant := "git init -q && mkfifo .git/objects/info/alternates"
	var s *session
	if a := sandbox.DetectBubblewrap(context.Background()); a.Available {
		// The attacker: a confined command.
		s = start(t, root, "--mode", "trusted", "--sandbox", "require")
		s.ok("run_command", map[string]any{"command": plant, "sandbox": true})
	} else {
		t.Log("no working bubblewrap: the FIFO is planted from outside")
		s = start(t, root, "--mode", "trusted")
		cmd := exec.Command("sh", "-c", plant)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v: %s", plant, err, out)
		}
	}
	if fi, err := os.Lstat(filepath.Join(root, ".git", "objects", "info", "alternates")); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("no FIFO planted: %v %v", fi, err)
	}
	began := time.Now()
	res, err := s.callErr("git_status", map[string]any{})
	took := time.Since(began)
	if err != nil {
		t.Fatalf("git_status with a FIFO for alternates: %v after %v", err, took.Round(time.Millisecond))
	}
	if !res.IsError || !strings.Contains(text(res), "PATH_DENIED") || !strings.Contains(text(res), "alternates") {
		t.Errorf("git_status with a FIFO for alternates answers, after %v: %s", took.Round(time.Millisecond), text(res))
	}
	t.Logf("after %v: %s", took.Round(time.Millisecond), text(res))
}
