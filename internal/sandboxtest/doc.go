// Package sandboxtest holds what the command sandbox's tests share, at the
// package level (sandbox) and end to end through juju (test): a probe of a
// command's privileges. It does not import the sandbox.
package sandboxtest
