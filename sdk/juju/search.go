package juju

import "github.com/jujutools/juju/sdk/abi"

// Search runs a content search on the host with ripgrep (see
// abi.SearchRequest; needs fs.read). When no search program is installed
// the result says Unavailable and the plugin must search by itself.
func Search(req abi.SearchRequest) (*abi.SearchResult, error) {
	res, _, err := roundTrip[abi.SearchResult](hostSearch, abi.FnSearch, req, nil)
	return res, err
}

// Environment describes the machine juju runs on and juju's setup; the
// host probes the programs, so the plugin needs no exec grant.
func Environment() (*abi.EnvironmentResult, error) {
	res, _, err := roundTrip[abi.EnvironmentResult](hostEnvironment, abi.FnEnvironment, abi.EnvironmentRequest{}, nil)
	return res, err
}
