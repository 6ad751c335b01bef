package fetch

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/golden"

	"github.com/jujutools/juju/sdk/abi"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestTranscript records the host function's answers to requests refused
// before any connection, one "==> juju_fetch(request)" and one "<== response"
// line each, and compares them with testdata/transcript.golden (go test
// -update rewrites it). None of these requests reaches the network.
func TestTranscript(t *testing.T) {
	off := New(Options{})[0]
	on := New(Options{Enabled: true, Allow: []string{"127.0.0.1:8443"}})[0]
	calls := []struct {
		fn  func(context.Context, []byte, []byte) ([]byte, []byte)
		req string
	}{
		{off.Handle, `{"url":"https://example.com/"}`},
		{on.Handle, `{"url":"http://example.com/"}`},
		{on.Handle, `{"url":"file:///etc/passwd"}`},
		{on.Handle, `{"url":"gopher://example.com:70/_x"}`},
		{on.Handle, `{"url":"data:text/plain,hi"}`},
		{on.Handle, `{"url":"https://user:secret@example.com/"}`},
		{on.Handle, `{"url":"https://169.254.169.254/latest/meta-data/"}`},
		{on.Handle, `{"url":"https://[fd00:ec2::254]/"}`},
		{on.Handle, `{"url":"https://[::ffff:10.0.0.1]/"}`},
		{on.Handle, `{"url":"https://[64:ff9b::a9fe:a9fe]/"}`},
		{on.Handle, `{"url":"https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/"}`},
		{on.Handle, `{"url":"https://100.64.0.1/"}`},
		{on.Handle, `{"url":"https://[fe80::1%25eth0]/"}`},
		{on.Handle, `{"url":"https://example.com/","format":"pdf"}`},
		{on.Handle, `{"url":"https://example.com/","maxBytes":-1}`},
		{on.Handle, `{"url":"https://example.com/","extra":1}`},
	}
	var b strings.Builder
	for _, c := range calls {
		out, body := c.fn(context.Background(), []byte(c.req), nil)
		fmt.Fprintf(&b, "==> %s(%s)\n<== %s", abi.FnFetch, c.req, out)
		if len(body) > 0 {
			fmt.Fprintf(&b, " body=%q", body)
		}
		b.WriteString("\n")
	}
	golden.Check(t, filepath.Join("testdata", "transcript.golden"), b.String(), *update)
}
