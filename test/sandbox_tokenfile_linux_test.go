package test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// juju serve's --token-file, outside the roots and juju's folders, cannot
// be read by a confined command, in a sandbox built for it or in the one
// a standby built ahead: with the token, a command that reaches juju
// serve would call it as the owner. The file lies outside /tmp, which
// the sandbox makes private anyway.
func TestSandboxCannotReadServesTokenFile(t *testing.T) {
	needSandbox(t)
	dir, err := os.MkdirTemp("/var/tmp", "juju-e2e-token-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	tokenFile := filepath.Join(dir, "juju.token")
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	srv := startServe(t, root, "--token-file", tokenFile, "--mode", "trusted", "--sandbox", "require")
	tok, err := os.ReadFile(tokenFile)
	if err != nil || len(strings.TrimSpace(string(tok))) < 40 {
		t.Fatalf("token file: %q %v", tok, err)
	}
	srv.token = strings.TrimSpace(string(tok))
	s := srv.connect(t, "token-file", "2025-11-25")
	check := func(how, got string) {
		t.Helper()
		if strings.Contains(got, srv.token) {
			t.Errorf("a command in %s read the token file:\n%s", how, got)
		}
		if !strings.HasSuffix(got, "end\n") {
			t.Errorf("the command in %s did not run through: %q", how, got)
		}
	}
	script := "cat " + tokenFile + " 2>&1; cat " + dir + "/* 2>&1; echo end"

	// The first sandboxed command finds no standby: its sandbox is built for it.
	check("a fresh sandbox", runIn(t, s, script))

	// The next runs in the sandbox the standby built ahead.
	helper := filepath.Join(filepath.Dir(jujuBin), "juju-sandbox")
	standby := waitProcess(t, func(args []string) bool {
		return len(args) >= 3 && args[0] == helper && args[1] == "--reap" && slices.Contains(args, "--await")
	}, srv.cmd.Process.Pid)
	waitBuilt(t, standby)
	marker := fmt.Sprintf("%d.%04d", 9000+os.Getpid()%1000, 7)
	res := s.call("run_command", map[string]any{"command": "{ " + script + "; } > out.txt; sleep " + marker, "background": true})
	if res.IsError {
		t.Fatalf("run_command: %v", res.Content)
	}
	sleep := waitProcess(t, func(args []string) bool { return len(args) == 2 && args[0] == "sleep" && args[1] == marker })
	if !descends(sleep, standby) {
		t.Fatalf("the command (pid %d) did not run in the standby's sandbox (pid %d)", sleep, standby)
	}
	out, err := os.ReadFile(filepath.Join(root, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	check("the standby's sandbox", string(out))
}
