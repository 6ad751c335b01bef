package git

import "os/exec"

// isolate leaves git as it is on Windows: exec.CommandContext kills it
// when the call's time runs out.
func isolate(*exec.Cmd) {}
