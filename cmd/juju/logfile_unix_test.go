//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nobody is a user id that is neither the owner's nor root's.
const nobody = 65534

// giveAway makes path another user's, which only root can do.
func giveAway(t *testing.T, path string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	if err := os.Lchown(path, nobody, nobody); err != nil {
		t.Fatal(err)
	}
}

// A --log-file in a shared folder may be a link another user planted to
// the owner's ~/.bashrc: juju appended its log there, and a line quoting a
// request's X-Forwarded-Host "$(…)" ran in the owner's next shell. The
// link is refused and what it leads to is left untouched.
func TestLogFileRefusesALink(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o1777)
	rc := filepath.Join(dir, ".bashrc")
	if err := os.WriteFile(rc, []byte("# the owner's\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "juju.log")
	if err := os.Symlink(rc, link); err != nil {
		t.Fatal(err)
	}
	giveAway(t, link)
	var errw strings.Builder
	log, closeLog, err := newLogger(&errw, link, "info")
	if err == nil {
		log.Warn("refused", "host", "$(touch pwned)")
		closeLog()
		t.Fatal("newLogger took another user's link as the log file")
	}
	if !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("error = %v, want one naming the link", err)
	}
	if data, _ := os.ReadFile(rc); string(data) != "# the owner's\n" {
		t.Errorf("the link's target was written: %q", data)
	}
}

// A log file another user made, where --log-file points, is theirs to
// read: refused.
func TestLogFileRefusesAnotherUsersFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "juju.log")
	if err := os.WriteFile(p, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	giveAway(t, p)
	var errw strings.Builder
	if _, closeLog, err := newLogger(&errw, p, "info"); err == nil || !strings.Contains(err.Error(), "another user") {
		if err == nil {
			closeLog()
		}
		t.Fatalf("newLogger of another user's file: %v, want a refusal", err)
	}
}

// The owner's own link is followed, and a device such as /dev/null takes
// the log, as before.
func TestLogFileTakesOwnLinksAndDevices(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.log")
	link := filepath.Join(dir, "juju.log")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	var errw strings.Builder
	for _, name := range []string{link, os.DevNull} {
		log, closeLog, err := newLogger(&errw, name, "info")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		log.Info("kept")
		closeLog()
	}
	if data, _ := os.ReadFile(target); !strings.Contains(string(data), "kept") {
		t.Errorf("the log through the owner's link: %q", data)
	}
}
