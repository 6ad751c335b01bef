// Package exec provides juju's command host functions: FnExec (capability
// exec: a program and its argv, never a shell), FnExecShell (capability
// exec.shell: a string run by bash -c) and FnJob (the jobs they start).
//
// Every command is a job with an id. Its child:
//
//   - runs in a folder inside a root (the path policy resolves cwd);
//   - reads an empty stdin (/dev/null), so it can never read the MCP stream;
//   - gets the server's environment scrubbed by Scrub: secret-looking
//     variables and juju's own JUJU_* settings are dropped;
//   - gets a GIT_EDITOR that fails at once, saying how to pass the text,
//     when the environment names no editor (see noEditor);
//   - leads its own session and process group; on timeout, on cancel, when
//     it exits and when the host closes, the whole group is killed, so a
//     child's own children do not outlive it. Should juju itself be
//     killed (SIGKILL, no Close), Linux kills the leader of each group
//     (Pdeathsig); what it started in the background may then survive;
//   - writes stdout and stderr straight into two log files in the jobs
//     folder (under the workspace's state folder, outside the roots).
//     Replies carry a head and a tail of each stream with the cut marked
//     in the text and the offset where the rest starts; JobOutput reads any
//     part by offset.
//
// A call waits for its command up to WaitMs, the host's BackgroundAfter
// limit (50 s by default: most clients give up on a call after about 60 s)
// and the plugin call's own deadline, whichever comes first; a command still
// running then is a background job and the call returns its id. Background
// asks for the id at once.
//
// With the sandbox (Options.Sandbox, or Sandbox in the request) the command
// is wrapped by package sandbox. Under "require", or when the request asks
// for it, a machine without a working sandbox gets SANDBOX_UNAVAILABLE and
// nothing runs; under "prefer" the command runs unconfined and the result
// says so.
package exec
