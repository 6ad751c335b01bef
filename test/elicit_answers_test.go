package test

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An approval asked through elicitation runs the call only on a yes juju
// can read: accept with approve true. An accept whose approve is of another
// type or value is no yes, and nothing runs.
func TestElicitationAnswersJujuCannotReadRefuse(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	r := startRaw(t, root, "--mode", "edit", "--sandbox", "off")
	init := r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}`)
	if init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	for i, c := range []struct {
		content string // the accept's content
		runs    bool
	}{
		{`{"approve":"maybe"}`, false},
		{`{"approve":1}`, false},
		{`["approve"]`, false},
		{`{"approve":true}`, true},
	} {
		marker := fmt.Sprintf("ran-%d", i)
		io.WriteString(r.in, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"touch %s"}}}`+"\n", 10+i, marker))
		ask := r.recv(t, "the approval question", 15*time.Second)
		if ask["method"] != "elicitation/create" {
			t.Fatalf("want an elicitation, got %s", mustJSON(ask))
		}
		id, _ := json.Marshal(ask["id"])
		got := r.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"action":"accept","content":%s}}`, id, c.content))
		res, _ := got["result"].(map[string]any)
		_, err := os.Stat(filepath.Join(root, marker))
		ran := err == nil
		if ran != c.runs || res == nil || (res["isError"] == true) == c.runs {
			t.Fatalf("accept with %s: ran %v, answer %s", c.content, ran, mustJSON(got))
		}
		if !c.runs && !strings.Contains(string(mustJSON(res)), "APPROVAL_DENIED") {
			t.Fatalf("accept with %s: %s", c.content, mustJSON(got))
		}
	}
}
