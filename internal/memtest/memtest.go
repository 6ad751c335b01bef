// Package memtest tells which of a process's own pages are resident, for
// the tests of juju's memory work (host/core, host): whether the binary's
// pages that hold the core plugins' wasm leave the resident set once
// compiled; and how much machine code a process holds (host/plugin, test):
// whether an unloaded or closed plugin's leaves it.
package memtest

// Resident counts the whole pages inside b, and those of them that are
// mapped in the process now (the present bit of /proc/self/pagemap). It
// fails where the system has no pagemap.
func Resident(b []byte) (n, total int, err error) { return resident(b) }

// MachineCode is the size of process pid's anonymous executable mappings
// (pid 0: this process): the machine code wazero compiled or loaded from
// its cache. It fails where the system has no /proc/PID/maps.
func MachineCode(pid int) (int64, error) { return machineCode(pid) }
