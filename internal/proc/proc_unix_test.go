//go:build unix

package proc

import (
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A child and what it starts in the background die together when the
// context ends; its stdin is empty and its environment only what was given.
func TestCommandKillsTheGroup(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	out := NewCapped(1 << 10)
	cmd := Command(ctx, t.TempDir(), []string{"A=1"}, "/bin/sh", "-c", `sleep 30 & echo $!; echo "env:$A:$HOME"; cat; wait`)
	cmd.Stdout = out
	start := time.Now()
	cmd.Run()
	if time.Since(start) > 10*time.Second {
		t.Fatal("the command outlived its context")
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) < 2 || lines[1] != "env:1:" {
		t.Fatalf("output %q", out.String())
	}
	pid, _ := strconv.Atoi(lines[0])
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("the background child %d survived its group", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
