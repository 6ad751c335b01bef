package juju

import "github.com/jujutools/juju/sdk/abi"

// LSP asks the language server of a file's language one question (see
// abi.LSPRequest; needs lsp). When no server is registered for the
// language the result says Unregistered, and the plugin answers by itself.
func LSP(req abi.LSPRequest) (*abi.LSPResult, error) {
	header := appendLSPRequest(make([]byte, 0, 96+len(req.Path)+len(req.Query)), &req)
	res, _, err := send[abi.LSPResult](hostLSP, abi.FnLSP, header, nil, func(rh []byte, res *abi.LSPResult) bool {
		if decodeLSPResult(rh, res) {
			return true
		}
		*res = abi.LSPResult{}
		return unmarshalFast(rh, res)
	})
	return res, err
}
