package test

import (
	"os/exec"
	"strings"
	"testing"
)

// A line of whitespace on stdio is no message: juju answers none, rather
// than a parse error of id null no request of the client's matches, and
// serves the messages around it.
func TestStdioBlankLinesAreNoMessages(t *testing.T) {
	cmd := exec.Command(jujuBin, "stdio", "--root", workspace(t, map[string]string{"a.txt": "a\n"}))
	cmd.Env = append(cmd.Environ(), "JUJU_HOME="+t.TempDir())
	cmd.Stdin = strings.NewReader("\n \t\r\n" + `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n\n  ")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("juju stdio: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("want the ping's answer alone, got:\n%s", got)
	}
}
