// Package sandbox is juju's OS sandbox for commands (SPEC §7). For now it
// holds detection only; confining a command (bubblewrap and Landlock on
// Linux, sandbox-exec on macOS, with writes kept to the roots and declared
// caches and the network optionally denied) arrives in a later issue.
//
// Detection means proof, not presence. A bwrap binary on PATH proves nothing
// when the kernel or a container forbids the namespaces it needs, so
// DetectBubblewrap runs it on a minimal sandbox and counts it available only
// when that exits 0; otherwise it reports the error bwrap printed. A Landlock
// call on a kernel without Landlock can silently do nothing, so LandlockABI
// asks the kernel itself for its Landlock ABI version, with
// landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION), and
// reports why not when the call fails. DetectProgram proves, the same way,
// that a program the tools rely on (git, ripgrep) runs here.
//
// The sandbox confines writes, not reads, and is not a boundary against a
// hostile process of the same user.
package sandbox
