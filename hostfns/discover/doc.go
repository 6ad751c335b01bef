// Package discover is the juju_discover_tasks host function (capability
// fs.read): it finds the task discoverers of every loaded plugin, core and
// installed, walks the workspace once to find the files their globs match,
// calls each discoverer's juju_discover export with its files under a time
// cap, and merges their tasks and warnings. A discoverer that fails, traps
// or runs out of time becomes a warning; the others' tasks still come back.
// Discoverers parse files statically: nothing here runs project code.
package discover
