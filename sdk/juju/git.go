package juju

import "github.com/jujutools/juju/sdk/abi"

// Git runs `git ARGS…` on the workspace (host function juju_git,
// capability git) and returns its exit code and stderr, and its stdout as
// the body. Only plugins that call Git import juju_git.
func Git(req abi.GitRequest) (*abi.GitResult, []byte, error) {
	return roundTripVia[abi.GitResult](gitImport(), abi.FnGit, req, nil)
}
