package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// The answer to a tools/call is what json.Marshal writes of it, byte for
// byte, or left to json.Marshal.
func TestAppendToolAnswer(t *testing.T) {
	answer := func(id any, r *mcp.CallToolResult) mcp.JSONRPCMessage {
		return mcp.NewJSONRPCResultResponse(mcp.NewRequestId(id), r)
	}
	text := mcp.NewTextContent("line <1> & \"two\"\n\ttabbed \u2028 é \x01")
	structured := json.RawMessage(`{"path":"a <b>.go","n":[1,2.5,-3e2],"ok":true,"none":null,"s":"\u00e9\n"}`)
	for _, c := range []struct {
		name string
		msg  mcp.JSONRPCMessage
	}{
		{"text", answer(float64(7), &mcp.CallToolResult{Content: []mcp.Content{text}})},
		{"string id", answer("req-1", &mcp.CallToolResult{Content: []mcp.Content{text, mcp.NewTextContent("")}})},
		{"structured", answer(int64(1), &mcp.CallToolResult{Content: []mcp.Content{text}, RawStructuredContent: structured})},
		{"error", answer(float64(2), &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("NOT_FOUND: gone")}, RawStructuredContent: json.RawMessage(`{"code":"NOT_FOUND","message":"gone"}`), IsError: true})},
		{"image", answer(float64(3), &mcp.CallToolResult{Content: []mcp.Content{text, mcp.NewImageContent("iVBORw0KGgo=", "image/png")}})},
		{"no content", answer(float64(4), &mcp.CallToolResult{Content: []mcp.Content{}})},
	} {
		want, err := json.Marshal(c.msg)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendToolAnswer(nil, c.msg)
		if !ok || string(got) != string(want) {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.name, got, ok, want)
		}
	}

	// Structured content with line breaks between its tokens is compacted:
	// the answer is one line.
	spread := answer(float64(5), &mcp.CallToolResult{Content: []mcp.Content{text}, RawStructuredContent: json.RawMessage("{\n  \"a\": [1,\r\n 2]\n}")})
	got, ok := appendToolAnswer(nil, spread)
	want, _ := json.Marshal(spread)
	if !ok || string(got) != string(want) || strings.ContainsAny(string(got), "\r\n") {
		t.Errorf("spread structured content:\n got %s (%v)\nwant %s", got, ok, want)
	}

	// Anything else is declined.
	annotated := mcp.NewTextContent("x")
	annotated.Annotations = &mcp.Annotations{Priority: ptr(1.0)}
	for name, msg := range map[string]mcp.JSONRPCMessage{
		"meta":          answer(float64(1), &mcp.CallToolResult{Result: mcp.Result{Meta: &mcp.Meta{}}, Content: []mcp.Content{text}}),
		"annotations":   answer(float64(1), &mcp.CallToolResult{Content: []mcp.Content{annotated}}),
		"audio":         answer(float64(1), &mcp.CallToolResult{Content: []mcp.Content{mcp.NewAudioContent("AAAA", "audio/wav")}}),
		"any structure": answer(float64(1), &mcp.CallToolResult{Content: []mcp.Content{text}, StructuredContent: map[string]any{"a": 1}}),
		"bad structure": answer(float64(1), &mcp.CallToolResult{Content: []mcp.Content{text}, RawStructuredContent: json.RawMessage(`{"a":`)}),
		"other result":  mcp.NewJSONRPCResultResponse(mcp.NewRequestId(float64(1)), &mcp.ListToolsResult{}),
		"error answer":  internalError(msgHead{ID: json.RawMessage(`1`)}, "x"),
	} {
		if _, ok := appendToolAnswer(nil, msg); ok {
			t.Errorf("%s: written by hand", name)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// Whatever text and structured content a plugin sends, the answer written
// by hand is json.Marshal's (but for the spaces a plugin put between the
// tokens of its structured content, which it keeps), on one line, or
// json.Marshal is left to write it.
func FuzzAppendToolAnswer(f *testing.F) {
	f.Add("text <&> \u2028", []byte(`{"a":"<b>","c":[1,2]}`), true)
	f.Add("", []byte("{\n\"a\" : 1}"), false)
	f.Add("\xff\xfe", []byte(`"x"`), false)
	f.Fuzz(func(t *testing.T, text string, structured []byte, isError bool) {
		msg := mcp.NewJSONRPCResultResponse(mcp.NewRequestId(float64(9)), &mcp.CallToolResult{
			Content: []mcp.Content{mcp.NewTextContent(text)}, RawStructuredContent: structured, IsError: isError})
		got, ok := appendToolAnswer(nil, msg)
		want, err := json.Marshal(msg)
		switch {
		case ok && err != nil:
			t.Fatalf("written by hand, but json.Marshal fails: %v", err)
		case ok && (compact(got) != string(want) || strings.ContainsAny(string(got), "\r\n")):
			t.Fatalf("\n got %s\nwant %s", got, want)
		case !ok && err == nil && json.Valid(structured):
			t.Fatalf("declined valid structured content %q", structured)
		}
	})
}

// compact is b without the spaces between its tokens.
func compact(b []byte) string {
	var c bytes.Buffer
	if json.Compact(&c, b) != nil {
		return "invalid JSON: " + string(b)
	}
	return c.String()
}

// BenchmarkAppendToolAnswer writes the answer of a list_directory of 80
// entries: its text and its structured content.
func BenchmarkAppendToolAnswer(b *testing.B) {
	var text strings.Builder
	var ents []string
	for i := range 80 {
		fmt.Fprintf(&text, "file%02d.go  (13 B)\n", i)
		ents = append(ents, fmt.Sprintf(`{"name":"file%02d.go","path":"list80/file%02d.go","type":"file","size":13,"modTime":"2026-12-06T04:35:10.123456789Z"}`, i, i))
	}
	structured := json.RawMessage(`{"path":"list80","entries":[` + strings.Join(ents, ",") + `],"total":80}`)
	msg := mcp.NewJSONRPCResultResponse(mcp.NewRequestId(float64(9)), &mcp.CallToolResult{
		Content: []mcp.Content{mcp.NewTextContent(text.String())}, RawStructuredContent: structured})
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		var ok bool
		if buf, ok = appendToolAnswer(buf[:0], msg); !ok {
			b.Fatal("declined")
		}
	}
}
