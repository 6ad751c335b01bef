// Package audit keeps the per-workspace audit log (SPEC §6): one JSON line
// per tool call — allowed, refused or held for approval — with who called,
// what, the arguments in short, the outcome, the duration and how the call
// was approved. The log lives in the workspace's state folder, outside the
// workspace; records are appended with O_APPEND and no fsync, so the hot
// path costs one small write. Arguments are shortened and never carry file
// contents beyond a short cut; results are never written.
package audit
