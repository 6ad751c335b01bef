// Package sandboxtest holds what the command sandbox's tests share, at the
// package level (sandbox) and end to end through juju (test): a probe of a
// command's privileges, a git workspace to attack, the attacks on its .git
// and a snapshot of what must not change. It does not import the sandbox.
package sandboxtest
