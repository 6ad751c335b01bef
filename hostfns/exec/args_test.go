package exec

import (
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/proc"
	"github.com/jujutools/juju/sdk/abi"
)

// Arguments no program can receive are the caller's to fix: a NUL byte is
// INVALID_ARGUMENT, an argument past the kernel's bound (or all of them
// past it together) TOO_LARGE, each with a bounded message, never
// INTERNAL.
func TestArgumentsNoProgramCanReceive(t *testing.T) {
	m, _ := newManager(t, Options{})
	fns := m.Funcs()
	argv, shell := fns[0].Handle, fns[1].Handle
	many := make([]string, 24) // 24 × 127 KiB: past the 2 MiB of arguments Linux takes with an 8 MiB stack
	for i := range many {
		many[i] = strings.Repeat("x", proc.MaxArg-1024)
	}
	tests := []struct {
		name string
		req  abi.ExecRequest
		fn   int
		want abi.Code
	}{
		{"NUL in an argument", abi.ExecRequest{Program: "echo", Args: []string{"a\x00b"}}, 0, abi.InvalidArgument},
		{"NUL in the program", abi.ExecRequest{Program: "ec\x00ho"}, 0, abi.InvalidArgument},
		{"NUL in a command line", abi.ExecRequest{Command: "echo a\x00b"}, 1, abi.InvalidArgument},
		{"a 10 MB command line", abi.ExecRequest{Command: "echo " + strings.Repeat("y", 10<<20)}, 1, abi.TooLarge},
		{"a 128 KiB argument", abi.ExecRequest{Program: "echo", Args: []string{strings.Repeat("y", proc.MaxArg)}}, 0, abi.TooLarge},
		{"arguments too long together", abi.ExecRequest{Program: "echo", Args: many}, 0, abi.TooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := argv
			if tt.fn == 1 {
				h = shell
			}
			_, _, err := call[abi.ExecResult](t, h, tt.req)
			if err == nil || err.Code != tt.want {
				t.Fatalf("got %v, want %s", err, tt.want)
			}
			if len(err.Message) > 1000 {
				t.Errorf("a message of %d bytes", len(err.Message))
			}
		})
	}
}

// What a call names is quoted cut (abi.Quote), not echoed whole: a
// program or a job id of 100 KB made a 100 KB message.
func TestMessagesQuoteNamesCut(t *testing.T) {
	m, _ := newManager(t, Options{})
	fns := m.Funcs()
	long := strings.Repeat("n", 100<<10)
	_, _, err := call[abi.ExecResult](t, fns[0].Handle, abi.ExecRequest{Program: long})
	if err == nil || err.Code != abi.NotFound || len(err.Message) > 1000 {
		t.Errorf("a program of 100 KB: %.300v", err)
	}
	_, _, err = call[abi.JobResult](t, fns[2].Handle, abi.JobRequest{Op: "status", JobID: long})
	if err == nil || err.Code != abi.NotFound || len(err.Message) > 1000 {
		t.Errorf("a job id of 100 KB: %.300v", err)
	}
}
