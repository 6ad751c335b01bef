// Package proc is the one way juju starts a child process: in its own
// session and process group (so it and everything it starts are killed
// together), killed with juju itself on Linux (a parent-death signal), with
// an empty stdin, the environment the caller gives (scrubbed by
// sandbox.Scrub where it comes from the owner's), and output kept to a cap.
// Commands, git, ripgrep, the environment probes and the sandbox's
// detection all start processes here.
package proc

import (
	"bytes"
	"context"
	"os/exec"
	"time"
)

// DefaultWaitDelay is how long Wait waits for a killed child's output
// pipes to close before it gives up on them.
const DefaultWaitDelay = time.Second

// Command returns the command that runs argv in dir with env (nil: an
// empty environment), in its own process group, killed with everything it
// started when ctx ends (KillTree). Stdin is empty.
func Command(ctx context.Context, dir string, env []string, argv ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	if env == nil {
		env = []string{}
	}
	cmd.Env = env
	cmd.SysProcAttr = Attr()
	cmd.Cancel = func() error { KillTree(cmd.Process.Pid); return nil }
	cmd.WaitDelay = DefaultWaitDelay
	return cmd
}

// Capped is a writer that keeps the first Max bytes written to it and
// notes whether anything was dropped.
type Capped struct {
	bytes.Buffer
	Max int
	Cut bool
}

// NewCapped returns a Capped keeping max bytes.
func NewCapped(max int) *Capped { return &Capped{Max: max} }

func (c *Capped) Write(p []byte) (int, error) {
	if room := c.Max - c.Len(); room < len(p) {
		c.Cut = true
		if room > 0 {
			c.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return c.Buffer.Write(p)
}
