package host

import (
	"context"
	"log/slog"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// logFunc lets a plugin write to juju's log (stderr or the log file), tagged
// with its name. It needs no capability.
func logFunc(log *slog.Logger) hostfns.Func {
	return hostfns.Func{
		Name: abi.FnLog,
		Handle: hostfns.Typed(func(ctx context.Context, req *abi.LogRequest, _ []byte) (*abi.Status, []byte, *abi.Error) {
			c, _ := hostfns.CallerFrom(ctx)
			msg := req.Message
			if len(msg) > 4096 {
				msg = msg[:4096] + "…"
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
			log.Log(ctx, level, msg, "plugin", c.Plugin, "tool", c.Tool)
			return &abi.Status{}, nil, nil
		}),
	}
}
