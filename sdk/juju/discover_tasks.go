package juju

import "github.com/jujutools/juju/sdk/abi"

// DiscoverTasks runs every discoverer juju has loaded over the workspace
// (host function juju_discover_tasks, capability fs.read) and returns
// their merged tasks and warnings with the walk's file counts.
func DiscoverTasks(req abi.DiscoverTasksRequest) (*abi.DiscoverTasksResult, error) {
	res, _, err := roundTrip[abi.DiscoverTasksResult](hostDiscoverTasks, abi.FnDiscoverTasks, req, nil)
	return res, err
}
