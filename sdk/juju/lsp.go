package juju

import "github.com/jujutools/juju/sdk/abi"

// LSP asks the language server of a file's language one question (see
// abi.LSPRequest; needs lsp). When no server is registered for the
// language the result says Unregistered, and the plugin answers by itself.
func LSP(req abi.LSPRequest) (*abi.LSPResult, error) {
	res, _, err := roundTrip[abi.LSPResult](hostLSP, abi.FnLSP, req, nil)
	return res, err
}
