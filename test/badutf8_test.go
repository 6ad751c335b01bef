package test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/jujutools/juju/internal/installed"
)

// A plugin's structured content that holds bytes that are not UTF-8 (in a
// JSON string, where a scan of JSON's structure, encoding/json's too, lets
// them pass) was copied byte for byte into juju's answer: not a JSON text
// (RFC 8259 requires UTF-8), which a client's strict decoder (serde_json's,
// Codex CLI's) refuses, and with it the whole message. Now each such byte
// becomes U+FFFD, as encoding/json writes a Go string; and a manifest that
// is not UTF-8, whose schemas tools/list would carry as they are, is
// refused. Every line juju writes is UTF-8.
func TestStructuredContentIsUTF8(t *testing.T) {
	home := newHome(t)
	installForTest(t, home, "plugins/testplugins/badutf8", nil)
	// The same plugin under another name, whose schema's description holds
	// such bytes, put in place by hand: its schemas are written into every
	// tools/list as they are.
	src := filepath.Join(home, "data", "plugins", "test-badutf8")
	dst := filepath.Join(home, "data", "plugins", "test-badschema")
	os.MkdirAll(dst, 0o700)
	wasm, _ := os.ReadFile(filepath.Join(src, "plugin.wasm"))
	os.WriteFile(filepath.Join(dst, "plugin.wasm"), wasm, 0o600)
	m, _ := os.ReadFile(filepath.Join(src, "manifest.json"))
	m = bytes.Replace(m, []byte(`"test-badutf8"`), []byte(`"test-badschema"`), 1)
	m = bytes.Replace(m, []byte(`"test_badutf8"`), []byte(`"test_badschema"`), 1)
	m = bytes.Replace(m, []byte("Bytes that are not UTF-8."), []byte("Bytes \xff\xfe"), 1)
	os.WriteFile(filepath.Join(dst, "manifest.json"), m, 0o600)
	if err := installed.WriteGrants(dst, installed.Grants{SHA256: installed.Hash(wasm), ManifestSHA256: installed.Hash(m)}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(jujuBin, "stdio", "--root", workspace(t, map[string]string{"a.txt": "a\n"}))
	cmd.Env = append(cmd.Environ(), "JUJU_HOME="+home)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	r := &rawSession{in: in, out: sc, cmd: cmd, home: home}
	if init := r.send(t, initializeLine); init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	r.send(t, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	if line := r.out.Bytes(); !utf8.Valid(line) {
		t.Fatalf("juju's tools/list is not UTF-8: %q", line[max(0, bytes.IndexByte(line, 0xff)-200):][:200])
	}
	got := r.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_badutf8","arguments":{}}}`)
	line := r.out.Bytes()
	if !utf8.Valid(line) {
		t.Fatalf("juju wrote a line that is not UTF-8: %q", line)
	}
	if !json.Valid(line) || !bytes.Contains(line, []byte(`"structuredContent":{"text":"a\ufffd\ufffdb\ufffd"}`)) {
		t.Fatalf("want the bytes as U+FFFD in the structured content, got %s", mustJSON(got))
	}
}
