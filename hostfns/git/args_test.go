package git

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/proc"
	"github.com/jujutools/juju/sdk/abi"
)

// An argument git cannot be given is the caller's to fix, not INTERNAL:
// a NUL byte is INVALID_ARGUMENT, an argument of 128 KiB or more, or
// arguments past the kernel's bound together, TOO_LARGE; each message is
// bounded whatever the argument's size.
func TestArgumentsGitCannotReceive(t *testing.T) {
	git, _ := fixture(t)
	var many []string // 30,000 paths of 100 bytes: past the 2 MiB Linux takes
	for i := range 30000 {
		many = append(many, fmt.Sprintf("%0100d", i))
	}
	tests := []struct {
		name string
		args []string
		want abi.Code
	}{
		{"NUL in a revision", []string{"log", "a\x00b"}, abi.InvalidArgument},
		{"NUL in a message", []string{"commit", "--message=a\x00b"}, abi.InvalidArgument},
		{"NUL in a path", []string{"log", "--", "a\x00b"}, abi.InvalidArgument},
		{"a 128 KiB revision", []string{"log", strings.Repeat("x", proc.MaxArg)}, abi.TooLarge},
		{"a 10 MB message", []string{"commit", "--message=" + strings.Repeat("m", 10<<20)}, abi.TooLarge},
		{"paths too long together", append([]string{"log", "--"}, many...), abi.TooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := git(abi.TierExec, tt.args...)
			if err == nil || err.Code != tt.want {
				t.Fatalf("got %v, want %s", err, tt.want)
			}
			if len(err.Message) > 1000 {
				t.Errorf("a message of %d bytes", len(err.Message))
			}
		})
	}
}
