package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"sync"
	"time"
)

// commandRuns bounds the run_command echo calls per server.
const commandRuns = 200

// commandGap is the pause before each run_command echo (and each native
// echo): a session's commands come after its model's turn, not back to
// back, and juju readies the next sandboxed command's reaper in between.
const commandGap = 50 * time.Millisecond

// commands are the lines of the command tools: run_command echo per call
// (9 under the default sandbox setting, 9b with --sandbox off) against
// os/exec in this process, and run_commands of 8 × sleep 1 (10) against
// the same 8 sleeps started natively at once.
func (b *bench) commands() []row {
	r9 := row{ID: "9", Work: "run_command echo, per call (sandbox prefer: bubblewrap+landlock here)", Unit: "ms", Target: target{Limit: 5},
		Via:     fmt.Sprintf("one warm process, --mode trusted, sequential calls %v apart, raw JSON-RPC over stdio", commandGap),
		Against: fmt.Sprintf("exec.Command(\"bash\", \"-c\", \"echo hi\").Run() in the report's process, %v apart", commandGap)}
	r9b := row{ID: "9b", Work: "run_command echo, per call, --sandbox off", Unit: "ms", Target: target{Limit: 5},
		Via: r9.Via, Against: r9.Against}
	r10 := row{ID: "10", Work: "run_commands 8 × sleep 1, wall time", Unit: "ms", Target: target{Limit: 1.5, OnRatio: true},
		Via: "one warm process, --mode trusted, --sandbox off; n=3", Against: "8 × sleep 1 started at once natively (as long as the slowest)"}
	native, err := nativeEcho()
	if err != nil {
		return []row{r9.with(nil, nil, err), r9b.with(nil, nil, err), r10.with(nil, nil, err)}
	}
	echo := callParams("run_command", map[string]any{"command": "echo hi"})
	for _, r := range []*row{&r9, &r9b} {
		c := b.juju(b.warmHome, b.ws)
		c.args = append(c.args, "--mode", "trusted")
		if r.ID == "9b" {
			c.args = append(c.args, "--sandbox", "off")
		}
		s, err := b.live(c)
		if err != nil {
			*r = r.with(nil, nil, err)
			continue
		}
		b.progress("run_command echo (%s), %d calls", r.ID, commandRuns)
		var js sample
		for i := range commandRuns + 20 {
			time.Sleep(commandGap)
			d, err := timedCall(s, echo)
			if err != nil {
				*r = r.with(nil, nil, err)
				break
			}
			if i >= 20 {
				js = append(js, d)
			}
		}
		if len(js) == commandRuns {
			*r = r.with(js, native, nil)
		}
		if raw, err := s.request("tools/call", echo); err == nil {
			var sc struct {
				Structured struct {
					Sandbox string `json:"sandbox"`
				} `json:"structuredContent"`
			}
			json.Unmarshal(raw, &sc)
			r.Note = "sandbox: " + sc.Structured.Sandbox
		}
	}

	c := b.juju(b.warmHome, b.ws)
	c.args = append(c.args, "--mode", "trusted", "--sandbox", "off")
	s, err := b.live(c)
	if err != nil {
		return []row{r9, r9b, r10.with(nil, nil, err)}
	}
	var cmds []string
	for range 8 {
		cmds = append(cmds, "sleep 1")
	}
	params := callParams("run_commands", map[string]any{"commands": cmds})
	b.progress("run_commands 8 × sleep 1, 3 runs")
	var js, ns sample
	for range 3 {
		d, err := timedCall(s, params)
		if err != nil {
			return []row{r9, r9b, r10.with(nil, nil, err)}
		}
		js = append(js, d)
		t := time.Now()
		if err := nativeSleeps(8); err != nil {
			return []row{r9, r9b, r10.with(nil, nil, err)}
		}
		ns = append(ns, time.Since(t))
	}
	return []row{r9, r9b, r10.with(js, ns, nil)}
}

// nativeEcho times bash -c "echo hi" spawned by this process, the same
// command run_command runs.
func nativeEcho() (sample, error) {
	var s sample
	for i := range commandRuns + 20 {
		time.Sleep(commandGap)
		t := time.Now()
		if err := exec.Command("bash", "-c", "echo hi").Run(); err != nil {
			return nil, fmt.Errorf("native echo: %w", err)
		}
		if i >= 20 {
			s = append(s, time.Since(t))
		}
	}
	return s, nil
}

// nativeSleeps runs n × sleep 1 at once and waits for all.
func nativeSleeps(n int) error {
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			if err := exec.Command("sleep", "1").Run(); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}
