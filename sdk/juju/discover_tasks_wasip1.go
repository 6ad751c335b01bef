//go:build wasip1

package juju

//go:wasmimport extism:host/user juju_discover_tasks
func hostDiscoverTasks(uint64) uint64

// discoverTasksImport is the juju_discover_tasks import, referenced only
// from DiscoverTasks.
func discoverTasksImport() func(uint64) uint64 { return hostDiscoverTasks }
