package proc

import (
	"context"
	"errors"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

func TestCheckArgv(t *testing.T) {
	tests := []struct {
		argv  []string
		index int
		want  error
	}{
		{[]string{"echo", "hi"}, -1, nil},
		{[]string{"echo", strings.Repeat("x", MaxArg-1)}, -1, nil},
		{[]string{"echo", "a\x00b"}, 1, ErrArgNUL},
		{[]string{"echo", "ok", strings.Repeat("x", MaxArg)}, 2, ErrArgLong},
	}
	for _, tt := range tests {
		err := CheckArgv(tt.argv)
		var ae *ArgError
		switch {
		case tt.want == nil && err != nil:
			t.Errorf("CheckArgv: %v, want nil", err)
		case tt.want != nil && (!errors.As(err, &ae) || ae.Index != tt.index || !errors.Is(err, tt.want)):
			t.Errorf("CheckArgv: %v, want argument %d %v", err, tt.index, tt.want)
		}
	}
}

// The figures are the kernel's: an argument one byte shorter than MaxArg
// starts, one of MaxArg fails as TooLong says.
func TestMaxArgIsTheKernels(t *testing.T) {
	if _, err := exec.LookPath("true"); err != nil || runtime.GOOS != "linux" {
		t.Skip("MAX_ARG_STRLEN is Linux's")
	}
	if err := Command(context.Background(), "", nil, "true", strings.Repeat("x", MaxArg-1)).Run(); err != nil {
		t.Fatalf("an argument of MaxArg-1 bytes: %v", err)
	}
	err := Command(context.Background(), "", nil, "true", strings.Repeat("x", MaxArg)).Run()
	if !TooLong(err) {
		t.Fatalf("an argument of MaxArg bytes: %v, want E2BIG", err)
	}
}
