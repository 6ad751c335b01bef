package mcpserver

import (
	"encoding/json"

	"github.com/jujutools/juju/sdk/abi"
)

// capStructured passes structured content of at most abi.MaxStructured bytes
// as it is and replaces a larger one by its shape (abi.CutStructured): an
// object keeps its small members (counts, flags, short strings), its large
// arrays, strings and objects are emptied, and a member "jujuCut" says what
// was dropped and that the text holds the result. No client ever gets more
// than the cap. Structured content built from splices comes cut already
// (abi.CallResult.Resolve), so that it is never built past the cap.
func capStructured(raw json.RawMessage) json.RawMessage {
	return abi.CutStructured(raw)
}
