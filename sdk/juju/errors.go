package juju

import (
	"errors"

	"github.com/jujutools/juju/sdk/abi"
)

// Error is a tool error: a code from abi and a sentence telling the model
// what to do next. It is abi.Error, so errors from host functions are Errors.
type Error = abi.Error

// Errorf returns an *Error with the given code and a formatted message. The
// message reaches the model: say what went wrong and what to do next, and
// leave out host paths.
func Errorf(code abi.Code, format string, args ...any) *Error {
	return abi.Errorf(code, format, args...)
}

// AsError reports whether err is (or wraps) an *Error with a valid code, and
// returns it.
func AsError(err error) (*Error, bool) {
	var e *abi.Error
	if errors.As(err, &e) && e != nil && e.Code.Valid() {
		return e, true
	}
	return nil, false
}

// IsCode reports whether err is (or wraps) an *Error with the given code.
func IsCode(err error, code abi.Code) bool {
	e, ok := AsError(err)
	return ok && e.Code == code
}
