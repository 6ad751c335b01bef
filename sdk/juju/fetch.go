package juju

import "github.com/jujutools/juju/sdk/abi"

// Fetch fetches an https URL through the host (needs net.fetch, and a tool
// of tier X). The host checks every address it connects to, on every
// redirect hop, against the private and special-purpose blocks, and the
// owner must have enabled web fetches (else FETCH_DISABLED). The returned
// bytes are the content in req.Format: Markdown, text or as sent, as
// UTF-8; empty for binary content unless req.Format is abi.FetchRaw.
func Fetch(req abi.FetchRequest) (*abi.FetchResult, []byte, error) {
	return roundTrip[abi.FetchResult](hostFetch, abi.FnFetch, req, nil)
}
