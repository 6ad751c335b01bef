package test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestElicitationOnlyInAModeTheClientTakes: juju's approval questions are
// form-mode elicitations, sent only to a client whose elicitation
// capability takes form mode: {} (form mode alone, as MCP 2025-11-25 reads
// it) or one naming "form". A client that declared URL mode alone is not
// asked, as MCP forbids a request of a mode the client did not declare:
// its call gets APPROVAL_PENDING, as a client without the capability does,
// and nothing runs.
func TestElicitationOnlyInAModeTheClientTakes(t *testing.T) {
	for _, c := range []struct {
		capability string
		asked      bool
	}{
		{`{}`, true},
		{`{"form":{}}`, true},
		{`{"form":{},"url":{}}`, true},
		{`{"url":{}}`, false},
	} {
		root := workspace(t, map[string]string{"a.txt": "a\n"})
		r := startRaw(t, root, "--mode", "edit", "--sandbox", "off")
		init := r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":`+c.capability+`},"clientInfo":{"name":"raw","version":"1"}}}`)
		if init["result"] == nil {
			t.Fatalf("initialize: %s", mustJSON(init))
		}
		io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		// The first call may compile the plugin, on a busy machine.
		io.WriteString(r.in, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"touch ran"}}}`+"\n")
		got := r.recv(t, "run_command with the elicitation capability "+c.capability, 90*time.Second)
		if asked := got["method"] == "elicitation/create"; asked != c.asked {
			t.Errorf("elicitation %s: the call was answered %.300s, asked %v, want %v", c.capability, mustJSON(got), asked, c.asked)
			continue
		}
		if c.asked {
			if got["params"].(map[string]any)["requestedSchema"] == nil {
				t.Errorf("elicitation %s: not a form-mode question: %.300s", c.capability, mustJSON(got))
			}
			continue
		}
		if res, _ := got["result"].(map[string]any); res == nil || !strings.Contains(string(mustJSON(res)), "APPROVAL_PENDING") {
			t.Errorf("elicitation %s: the call was answered %.300s, want APPROVAL_PENDING", c.capability, mustJSON(got))
		}
		time.Sleep(100 * time.Millisecond)
		if _, err := os.Stat(filepath.Join(root, "ran")); err == nil {
			t.Errorf("elicitation %s: the command ran unapproved", c.capability)
		}
	}
}
