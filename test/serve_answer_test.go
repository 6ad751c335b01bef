package test

import (
	"strconv"
	"strings"
	"testing"
)

// A tool's answer over HTTP that fits net/http's buffer goes out whole,
// with its Content-Length, in one write: the front left it chunked by
// flushing before net/http could size it, which cost a second write for
// the chunks' end on every call (docs/RATIONALE.md, "An HTTP answer is
// written once").
func TestServeAnswerHasItsLength(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted")
	hdr := srv.bearer()
	hdr["Mcp-Session-Id"] = srv.initSession(t, hdr)
	hdr["Mcp-Protocol-Version"] = "2025-11-25"
	res, body := srv.raw(t, "POST", "/mcp", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`, hdr)
	if res.StatusCode != 200 || !strings.Contains(body, "alpha") {
		t.Fatalf("read_file: %d %s", res.StatusCode, body)
	}
	if len(res.TransferEncoding) > 0 || res.ContentLength != int64(len(body)) {
		t.Fatalf("the answer came with Transfer-Encoding %v and Content-Length %d, not its length %d (Content-Length header %q)",
			res.TransferEncoding, res.ContentLength, len(body), strconv.Quote(res.Header.Get("Content-Length")))
	}
}
