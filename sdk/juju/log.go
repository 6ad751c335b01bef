package juju

import (
	"fmt"

	"github.com/jujutools/juju/sdk/abi"
)

// Level is the level of a log line.
type Level string

// The log levels.
const (
	LevelDebug Level = "debug"
	LevelInfo  Level = "info"
	LevelWarn  Level = "warn"
	LevelError Level = "error"
)

// Log writes a line on juju's log, tagged by the host with the plugin and
// the tool. It needs no capability. The line is for the owner, never shown
// to the model; failures to log are ignored.
func Log(level Level, msg string) {
	_, _, _ = roundTrip[abi.Status](hostLog, abi.FnLog, abi.LogRequest{Level: string(level), Message: msg}, nil)
}

// Logf is Log with a format.
func Logf(level Level, format string, args ...any) {
	Log(level, fmt.Sprintf(format, args...))
}
