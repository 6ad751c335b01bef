package abi

import "fmt"

// Code is one of the stable error codes of juju's tool errors. The set is
// closed: a code not listed here never reaches a client.
type Code string

// The error codes, as SPEC §10 lists them.
const (
	InvalidArgument    Code = "INVALID_ARGUMENT"
	NotFound           Code = "NOT_FOUND"
	PathDenied         Code = "PATH_DENIED"
	SecretDenied       Code = "SECRET_DENIED"
	CapabilityDenied   Code = "CAPABILITY_DENIED"
	AmbiguousEdit      Code = "AMBIGUOUS_EDIT"
	NoMatch            Code = "NO_MATCH"
	FileChanged        Code = "FILE_CHANGED"
	Conflict           Code = "CONFLICT"
	TooLarge           Code = "TOO_LARGE"
	Timeout            Code = "TIMEOUT"
	ApprovalDenied     Code = "APPROVAL_DENIED"
	ApprovalPending    Code = "APPROVAL_PENDING"
	SandboxUnavailable Code = "SANDBOX_UNAVAILABLE"
	FetchDisabled      Code = "FETCH_DISABLED"
	SSRFBlocked        Code = "SSRF_BLOCKED"
	PluginFailed       Code = "PLUGIN_FAILED"
	Internal           Code = "INTERNAL"
)

// Codes lists every code, in the order of SPEC §10.
var Codes = []Code{
	InvalidArgument, NotFound, PathDenied, SecretDenied, CapabilityDenied,
	AmbiguousEdit, NoMatch, FileChanged, Conflict, TooLarge, Timeout,
	ApprovalDenied, ApprovalPending, SandboxUnavailable, FetchDisabled,
	SSRFBlocked, PluginFailed, Internal,
}

// Valid reports whether c is one of the codes above.
func (c Code) Valid() bool {
	for _, k := range Codes {
		if c == k {
			return true
		}
	}
	return false
}

// Error is a tool error: a stable code and a sentence for the model that says
// what to do next. It is what host functions return to plugins and what
// plugins return to the host; it never carries host paths or stack traces.
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
