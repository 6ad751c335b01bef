package test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jujutools/juju/internal/lspconfig"
)

// The language servers the LSP tests run against: gopls v0.23.0 (go
// install) and pyright 1.1.414 (npm ci in test/lspservers), both installed
// by `make lsp-servers` (part of `make test`). Missing ones skip the tests
// on a developer's machine and fail them in CI.

// goplsCommand finds gopls: the pinned one in test/lspservers/bin, else
// one on PATH.
func goplsCommand(t *testing.T) string {
	t.Helper()
	if p := filepath.Join(repoRoot, "test", "lspservers", "bin", "gopls"); isExecutable(p) {
		return p
	}
	if p, err := exec.LookPath("gopls"); err == nil {
		return p
	}
	missingServer(t, "gopls", "GOBIN=$PWD/test/lspservers/bin go install golang.org/x/tools/gopls@v0.23.0")
	return ""
}

// pyrightCommand finds the pinned pyright language server.
func pyrightCommand(t *testing.T) string {
	t.Helper()
	p := filepath.Join(repoRoot, "test", "lspservers", "node_modules", ".bin", "pyright-langserver")
	if !isExecutable(p) {
		missingServer(t, "pyright", "cd test/lspservers && npm ci")
	}
	return p
}

func missingServer(t *testing.T, name, install string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not installed (make lsp-servers runs: %s)", name, install)
	}
	t.Skipf("%s is not installed; run make lsp-servers (%s)", name, install)
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// lspHome makes a JUJU_HOME whose config registers servers.
func lspHome(t *testing.T, servers ...lspconfig.Server) string {
	t.Helper()
	home := t.TempDir()
	if len(servers) > 0 {
		if err := lspconfig.Save(filepath.Join(home, "config"), servers); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// fixture copies test/testdata/lsp/NAME into a fresh workspace. A file
// named X.fixture becomes X: the Go fixtures put identifiers after emoji
// comments on one line, which gofmt (run over the repository) would undo.
func fixture(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join(repoRoot, "test", "testdata", "lsp", name)
	dst := t.TempDir()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, strings.TrimSuffix(rel, ".fixture")), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// colOf is the 1-based code-point column of the n-th (1-based) occurrence
// of sub on line line (1-based) of the file at root/rel.
func colOf(t *testing.T, root, rel string, line int, sub string, n int) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if line > len(lines) {
		t.Fatalf("%s has no line %d", rel, line)
	}
	l := lines[line-1]
	off := 0
	for i := 0; i < n; i++ {
		j := strings.Index(l[off:], sub)
		if j < 0 {
			t.Fatalf("%s:%d has no %q (#%d): %q", rel, line, sub, n, l)
		}
		off += j
		if i < n-1 {
			off += len(sub)
		}
	}
	col := utf8.RuneCountInString(l[:off]) + 1
	if col == off+1 && strings.ContainsFunc(l[:off], func(r rune) bool { return r > 0x7f }) {
		t.Fatalf("fixture line %s:%d must put non-ASCII text before %q", rel, line, sub)
	}
	return col
}

// at formats a place as the tools write it.
func at(path string, line, col int) string { return fmt.Sprintf("%s:%d:%d", path, line, col) }

// proc is a process seen in /proc.
type proc struct {
	pid, ppid, pgid int
	cmd             string
}

// procs lists the processes of this machine (Linux).
func procs(t *testing.T) []proc {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc: cannot watch processes here")
	}
	var out []proc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:]) // state ppid pgrp …
		if len(f) < 3 || f[0] == "Z" {
			continue // zombies are counted apart (zombiesOf)
		}
		ppid, _ := strconv.Atoi(f[1])
		pgid, _ := strconv.Atoi(f[2])
		cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		out = append(out, proc{pid: pid, ppid: ppid, pgid: pgid, cmd: strings.ReplaceAll(string(cmd), "\x00", " ")})
	}
	return out
}

// jujuPID finds the juju serving root.
func jujuPID(t *testing.T, root string) int {
	t.Helper()
	for _, p := range procs(t) {
		if strings.Contains(p.cmd, jujuBin+" stdio --root "+root) {
			return p.pid
		}
	}
	t.Fatalf("no juju process serving %s", root)
	return 0
}

// childrenOf lists the live children of pid whose command holds sub.
func childrenOf(t *testing.T, pid int, sub string) []proc {
	t.Helper()
	var out []proc
	for _, p := range procs(t) {
		if p.ppid == pid && strings.Contains(p.cmd, sub) {
			out = append(out, p)
		}
	}
	return out
}

// groupGone waits until no live process is left in process group pgid.
func groupGone(t *testing.T, pgid int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		var left []proc
		for _, p := range procs(t) {
			if p.pgid == pgid {
				left = append(left, p)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes of group %d still running: %+v", pgid, left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// noZombies waits until pid has no zombie (exited, unreaped) child.
func noZombies(t *testing.T, pid int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		var zombies []int
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
			if err != nil {
				continue
			}
			s := string(stat)
			i := strings.LastIndexByte(s, ')')
			if f := strings.Fields(s[i+1:]); i > 0 && len(f) > 2 && f[0] == "Z" && f[1] == strconv.Itoa(pid) {
				n, _ := strconv.Atoi(e.Name())
				zombies = append(zombies, n)
			}
		}
		if len(zombies) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("juju (%d) left zombie children: %v", pid, zombies)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
