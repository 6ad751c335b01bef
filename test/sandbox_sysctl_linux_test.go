//go:build linux && amd64

package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The kernel lets the machine's root user write its settings in
// /proc/sys with no capability at all, by the files' modes alone: juju run
// as root (containers, devcontainers) gave a confined command, root in
// its user namespace with every capability dropped, kernel.core_pattern
// (a program the kernel runs as root on the next crash, outside any
// sandbox) and 766 more, wherever Landlock did not refuse the open.
// bubblewrap covers /proc/sys only when it finds the folder itself
// writable, which it never is. With Landlock and without; for an
// ordinary user the settings are not writable anyway.
func TestSandboxWritesNoKernelSetting(t *testing.T) {
	needSandbox(t)
	dir, err := buildTestProgram()
	if err != nil {
		t.Fatal(err)
	}
	root := workspace(t, map[string]string{"src/a.go": "package a\n"})
	// Opened for appending, never written: an open that succeeds changes
	// nothing.
	script := "for f in kernel/core_pattern kernel/poweroff_cmd vm/drop_caches; do (exec 3>>/proc/sys/$f) 2>/dev/null && echo writable $f; done; echo done"
	for _, wrap := range [][]string{nil, {filepath.Join(dir, "nolandlock")}} {
		s := startWrapped(t, t.TempDir(), root, wrap, "--mode", "trusted", "--sandbox", "require")
		got := runIn(t, s, script)
		if !strings.Contains(got, "done") || strings.Contains(got, "writable") {
			t.Errorf("a confined command (juju's uid %d, wrapped in %q) may write the kernel's settings: %q", os.Getuid(), wrap, got)
		}
	}
}
