package mcpserver

import (
	"bytes"
	stdbase64 "encoding/base64"
	"encoding/json"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/mark3labs/mcp-go/mcp"
)

func base64(b []byte) string { return stdbase64.StdEncoding.EncodeToString(b) }

// appendAnswer appends the answer to a tools/call or a tools/list, resp, as
// json.Marshal writes it (appendToolAnswer, appendToolsList), and reports
// false, leaving the answer to json.Marshal, for any other.
func (s *Server) appendAnswer(b []byte, resp mcp.JSONRPCMessage) ([]byte, bool) {
	if out, ok := appendToolAnswer(b, resp); ok {
		return out, true
	}
	return s.appendToolsList(b, resp)
}

// appendToolAnswer appends the JSON-RPC answer to a tools/call, resp, as
// json.Marshal writes it, without its detours: mcp-go's CallToolResult
// marshals itself through a map (keys sorted, content items through
// interfaces) and encoding/json then validates and compacts the structured
// content, already valid JSON, byte by byte (110 µs of a list_directory's
// 1.1 ms, in a profile of juju stdio). It reports false, leaving the
// answer to json.Marshal, for anything but a plain result: a result with
// meta data or the newer protocol's fields, or content other than text and
// images without annotations. The keys come in json.Marshal's order; the
// structured content keeps the spaces a plugin put between its tokens
// (never a line break, which would end the stdio message).
func appendToolAnswer(b []byte, resp mcp.JSONRPCMessage) ([]byte, bool) {
	r, ok := resp.(mcp.JSONRPCResponse)
	if !ok {
		return b, false
	}
	res, ok := r.Result.(*mcp.CallToolResult)
	if !ok || res.Meta != nil || res.ResultType != "" || len(res.InputRequests) > 0 || res.RequestState != "" || res.StructuredContent != nil {
		return b, false
	}
	id, err := json.Marshal(r.ID)
	if err != nil {
		return b, false
	}
	b = appendMarshal(append(b, `{"jsonrpc":`...), r.JSONRPC)
	b = append(append(append(b, `,"id":`...), id...), `,"result":{"content":[`...)
	for i, c := range res.Content {
		if i > 0 {
			b = append(b, ',')
		}
		switch c := c.(type) {
		case mcp.TextContent:
			if c.Annotations != nil || c.Meta != nil {
				return b, false
			}
			b = appendMarshal(append(b, `{"type":`...), c.Type)
			b = append(appendMarshal(append(b, `,"text":`...), c.Text), '}')
		case mcp.ImageContent:
			if c.Annotations != nil || c.Meta != nil {
				return b, false
			}
			b = appendMarshal(append(b, `{"type":`...), c.Type)
			b = appendMarshal(append(b, `,"data":`...), c.Data)
			b = append(appendMarshal(append(b, `,"mimeType":`...), c.MIMEType), '}')
		default:
			return b, false
		}
	}
	b = append(b, ']')
	if res.IsError {
		b = append(b, `,"isError":true`...)
	}
	if raw := res.RawStructuredContent; len(raw) > 0 {
		b = append(b, `,"structuredContent":`...)
		if !abi.ValidJSON(raw) { // encoding/json's answer, at three times its speed
			return b, false
		}
		if bytes.IndexAny(raw, "\r\n<>&") >= 0 || bytes.Contains(raw, []byte("\u2028")) || bytes.Contains(raw, []byte("\u2029")) {
			// What encoding/json rewrites: a line break between tokens
			// (which would also end the stdio message), and the characters
			// it escapes for HTML.
			var c, e bytes.Buffer
			json.Compact(&c, raw)
			json.HTMLEscape(&e, c.Bytes())
			raw = e.Bytes()
		}
		b = append(b, raw...)
	}
	return append(b, "}}"...), true
}

// appendMarshal appends json.Marshal(s): a string alone is encoded by
// encoding/json's own loop, HTML characters escaped as it escapes them.
func appendMarshal(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always encodes
	return append(b, q...)
}
