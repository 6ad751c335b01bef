package discover

import (
	"fmt"
	"slices"
	"sync"

	"github.com/jujutools/juju/sdk/abi"
)

// The bounds of one discovery's answer, over all its discoverers. Each
// discoverer keeps its first DefaultMaxTasks tasks, but a plugin may have
// 64 discoverers and a repository a build file for each core one: 100
// discoverers of 5,000 tasks took juju from 67 to 703 MB and the overview
// failed, and seven build files of 4,900 long tasks made an answer past
// the 16 MiB a host function may return (abi.MaxHeader), so the overview
// lost its languages and git state too. Past either bound, the first
// tasks, in the discoverers' order (core plugins first), are kept and a
// warning says how many were left out. project_overview shows about 90 KB
// of them at a time, by offset.
const (
	MaxTotalTasks = 20_000
	maxTotalBytes = 8 << 20 // the tasks and warnings as JSON, at most: half of abi.MaxHeader
)

// budget gathers what the discoverers found, in their order, within
// MaxTotalTasks and maxTotalBytes. Discoverers end in any order: what one
// returns is kept, cut or dropped as soon as it ends, by what the
// discoverers before it returned (one still running counts as returning
// nothing, so what is cut then would be cut once all have ended). Memory
// holds at most the budget's worth, and the discoverers still running;
// the answer is the one the discoverers' order gives, whichever ends
// first.
type budget struct {
	mu     sync.Mutex
	outs   []outcome // by the discoverers' index
	tasks  int       // tasks left out
	warns  int       // warnings left out
	notRun int       // discoverers not run: the budget was spent before them
}

// outcome is what one discoverer returned and the budget kept: its
// warnings, then its tasks, and the size of each in that order.
type outcome struct {
	job   *job
	tasks []abi.Task
	warns []abi.Warning
	sizes []int
	lost  bool // some or all of what it found was left out, or it was not run
}

func newBudget(n int) *budget { return &budget{outs: make([]outcome, n)} }

// open reports whether the discoverer i, of job j, may still add
// something: no discoverer before it lost anything to the budget. When
// not, it is counted as not run: all it found would be left out.
func (b *budget) open(i int, j *job) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !slices.ContainsFunc(b.outs[:i], func(o outcome) bool { return o.lost }) {
		return true
	}
	b.notRun++
	b.outs[i] = outcome{job: j, lost: true}
	return false
}

// add keeps what the discoverer i, of job j, returned, then cuts
// everything past the bounds in the discoverers' order.
func (b *budget) add(i int, j *job, tasks []abi.Task, warns []abi.Warning) {
	sizes := make([]int, 0, len(warns)+len(tasks))
	for _, w := range warns {
		sizes = append(sizes, warningSize(w))
	}
	for _, t := range tasks {
		sizes = append(sizes, taskSize(t))
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.outs[i] = outcome{job: j, tasks: tasks, warns: warns, sizes: sizes}
	n, bytes := 0, 0
	for k := range b.outs {
		o := &b.outs[k]
		kept := 0 // items of o that fit
		for ; kept < len(o.sizes); kept++ {
			if kept >= len(o.warns) {
				n++
			}
			if bytes += o.sizes[kept]; n > MaxTotalTasks || bytes > maxTotalBytes {
				break
			}
		}
		if kept == len(o.sizes) {
			continue
		}
		w, t := min(kept, len(o.warns)), max(kept-len(o.warns), 0)
		b.warns += len(o.warns) - w
		b.tasks += len(o.tasks) - t
		o.lost = true
		// Copies, so that what is left out is let go at once.
		o.warns, o.tasks, o.sizes = clip(o.warns, w), clip(o.tasks, t), clip(o.sizes, kept)
		n, bytes = MaxTotalTasks, maxTotalBytes // full: all after this is cut
	}
}

// merge appends what was kept to res, in the discoverers' order, after
// the warning that says what was left out, which names the first file of
// the first discoverer that lost something.
func (b *budget) merge(res *abi.DiscoverTasksResult) {
	if i := slices.IndexFunc(b.outs, func(o outcome) bool { return o.lost }); i >= 0 {
		msg := fmt.Sprintf("the discoverers found more than one answer holds (%d tasks or %d MiB): the first tasks are kept, and %d tasks and %d warnings were left out", MaxTotalTasks, maxTotalBytes>>20, b.tasks, b.warns)
		if b.notRun > 0 {
			msg += fmt.Sprintf("; %d discoverers were not run", b.notRun)
		}
		res.Warnings = append(res.Warnings, abi.Warning{File: b.outs[i].job.files[0], Message: msg})
	}
	for _, o := range b.outs {
		res.Tasks = append(res.Tasks, o.tasks...)
		res.Warnings = append(res.Warnings, o.warns...)
	}
}

func clip[T any](s []T, n int) []T {
	if n == 0 {
		return nil
	}
	return slices.Clone(s[:n])
}

// taskSize is at least the size of t in JSON: each byte of a string
// counted as the six of \u00XX when JSON may escape it.
func taskSize(t abi.Task) int {
	return len(`{"name":"","runner":"","command":"","cwd":"","file":"","line":,"description":"","kind":"","plugin":"","discoverer":""},`) + 20 +
		abi.JSONLen(t.Name) + abi.JSONLen(t.Runner) + abi.JSONLen(t.Command) + abi.JSONLen(t.Cwd) + abi.JSONLen(t.File) + abi.JSONLen(t.Description) + abi.JSONLen(t.Kind) +
		abi.JSONLen(t.Plugin) + abi.JSONLen(t.Discoverer)
}

func warningSize(w abi.Warning) int {
	return len(`{"file":"","message":""},`) + abi.JSONLen(w.File) + abi.JSONLen(w.Message)
}
