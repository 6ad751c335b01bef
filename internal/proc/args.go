package proc

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
)

// MaxArg is the longest string a program can be given as one argument,
// its final NUL included: Linux's MAX_ARG_STRLEN (32 pages of 4 KiB). A
// longer one fails execve with E2BIG however short the rest.
const MaxArg = 128 << 10

// The reasons CheckArgv gives, for errors.Is.
var (
	ErrArgNUL  = errors.New("holds a NUL byte, which no program argument can")
	ErrArgLong = fmt.Errorf("is longer than the %d KiB a program argument can be", MaxArg>>10)
)

// ArgError says which element of an argument list cannot be handed to a
// program, and why (ErrArgNUL, ErrArgLong).
type ArgError struct {
	Index int // in the list checked
	Err   error
}

func (e *ArgError) Error() string { return fmt.Sprintf("argument %d %v", e.Index, e.Err) }
func (e *ArgError) Unwrap() error { return e.Err }

// CheckArgv returns an *ArgError for the first element of argv that no
// program can receive: one holding a NUL byte (the kernel takes C
// strings: Go refuses it as EINVAL) or one of MaxArg bytes or more (E2BIG).
// Callers check what they built from a call before starting anything, so
// the call hears which argument to fix, not an unexpected failure.
func CheckArgv(argv []string) error {
	for i, a := range argv {
		switch {
		case strings.IndexByte(a, 0) >= 0:
			return &ArgError{Index: i, Err: ErrArgNUL}
		case len(a) >= MaxArg:
			return &ArgError{Index: i, Err: ErrArgLong}
		}
	}
	return nil
}

// TooLong reports whether err, from starting a program, says that its
// arguments and environment were too long for the kernel (E2BIG: one
// past MaxArg, or all of them past ARG_MAX).
func TooLong(err error) bool {
	return errors.Is(err, ErrArgLong) || errors.Is(err, syscall.E2BIG)
}
