package juju

import "github.com/jujutools/juju/sdk/abi"

// Search runs a content search on the host (see abi.SearchRequest; needs
// fs.read): with ripgrep, or with the host's own search where rg is not
// installed.
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
