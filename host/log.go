package host

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// Bounds of what one plugin may write to juju's log: a message is cut at
// maxLogMessage bytes, and past logBudget bytes in a logWindow its lines are
// dropped until the next window (counted, and the count logged then). A
// plugin that logs in a loop would otherwise fill the owner's disk through
// the log file, at gigabytes a minute.
const (
	maxLogMessage = 4096
	logBudget     = 1 << 20
	// logLineFrame is what a log line writes besides its message, plugin
	// and tool: the time, the level and the keys (about 60 bytes as text).
	logLineFrame = 64
	logWindow    = time.Minute
)

// logFunc lets a plugin write to juju's log (stderr or the log file), tagged
// with its name. It needs no capability.
func logFunc(log *slog.Logger) hostfns.Func {
	b := &logBudgets{byPlugin: map[string]*logUse{}, now: time.Now}
	return hostfns.Func{
		Name: abi.FnLog,
		Handle: hostfns.Typed(func(ctx context.Context, req *abi.LogRequest, _ []byte) (*abi.Status, []byte, *abi.Error) {
			c, _ := hostfns.CallerFrom(ctx)
			msg := req.Message
			if len(msg) > maxLogMessage {
				msg = msg[:maxLogMessage] + "…"
			}
			level := slog.LevelInfo
			switch req.Level {
			case "debug":
				level = slog.LevelDebug
			case "warn":
				level = slog.LevelWarn
			case "error":
				level = slog.LevelError
			}
			if !log.Enabled(ctx, level) {
				return &abi.Status{}, nil, nil
			}
			// A line costs what it writes: the message, its tool's name and
			// the line's own frame (time, level, keys), so that empty
			// messages are not free.
			ok, dropped, first := b.take(c.Plugin, len(msg)+len(c.Plugin)+len(c.Tool)+logLineFrame)
			if dropped > 0 {
				log.Warn("plugin log lines were dropped: it logged past its budget", "plugin", c.Plugin, "dropped", dropped, "budget_bytes_per_minute", logBudget)
			}
			if first {
				log.Warn("plugin logs past its budget; its lines are dropped until the next minute", "plugin", c.Plugin, "budget_bytes_per_minute", logBudget)
			}
			if ok {
				log.Log(ctx, level, msg, "plugin", c.Plugin, "tool", c.Tool)
			}
			return &abi.Status{}, nil, nil
		}),
	}
}

// logBudgets are the plugins' uses of their log budget.
type logBudgets struct {
	mu       sync.Mutex
	byPlugin map[string]*logUse
	now      func() time.Time
}

// logUse is one plugin's use in the current window.
type logUse struct {
	start   time.Time
	bytes   int
	dropped int
}

// take counts n bytes of plugin's against its budget. It reports whether
// the line may be written, how many lines of the last window were dropped
// (once, at the first line of a new window), and whether this is the first
// line dropped in this window.
func (b *logBudgets) take(plugin string, n int) (ok bool, droppedBefore int, firstDrop bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	u := b.byPlugin[plugin]
	if u == nil {
		u = &logUse{start: now}
		b.byPlugin[plugin] = u
	}
	if now.Sub(u.start) >= logWindow {
		droppedBefore = u.dropped
		*u = logUse{start: now}
	}
	if u.bytes+n > logBudget {
		u.dropped++
		return false, droppedBefore, u.dropped == 1
	}
	u.bytes += n
	return true, droppedBefore, false
}
