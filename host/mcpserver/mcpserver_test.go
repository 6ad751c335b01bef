package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

func TestWidenedOutputSchemaAdmitsBothShapes(t *testing.T) {
	declared := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"additionalProperties":false}`)
	wide, err := WidenOutputSchema(declared)
	if err != nil {
		t.Fatal(err)
	}
	sch, err := manifest.CompileSchema("out", wide)
	if err != nil {
		t.Fatal(err)
	}
	for _, ok := range []string{`{"path":"a.txt"}`, `{"code":"NOT_FOUND","message":"no such file"}`} {
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(ok))
		if err := sch.Validate(v); err != nil {
			t.Errorf("%s rejected: %v", ok, err)
		}
	}
	for _, bad := range []string{`{"code":"NOPE","message":"x"}`, `{"path":7}`} {
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err := sch.Validate(v); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestToMCP(t *testing.T) {
	res := toMCP(&abi.CallResult{Error: abi.Errorf(abi.SecretDenied, ".env is a secret; read another file")})
	if !res.IsError || text(res) != "SECRET_DENIED: .env is a secret; read another file" {
		t.Fatalf("error result: %+v", res)
	}
	var sc abi.Error
	if err := json.Unmarshal(res.RawStructuredContent, &sc); err != nil || sc.Code != abi.SecretDenied {
		t.Fatalf("structured error: %s", res.RawStructuredContent)
	}
	ok := toMCP(&abi.CallResult{
		Content:    []abi.Content{{Type: "text", Text: "hi"}, {Type: "image", Data: []byte{1, 2}, MimeType: "image/png"}},
		Structured: json.RawMessage(`{"a":1}`),
	})
	if ok.IsError || len(ok.Content) != 2 || string(ok.RawStructuredContent) != `{"a":1}` {
		t.Fatalf("success result: %+v", ok)
	}
	if img, isImg := ok.Content[1].(mcp.ImageContent); !isImg || img.Data != "AQI=" || img.MIMEType != "image/png" {
		t.Fatalf("image content: %+v", ok.Content[1])
	}
}

func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestResponseID(t *testing.T) {
	cases := map[string]string{
		`{"jsonrpc":"2.0","id":12,"result":{}}`:                         "12",
		`{"jsonrpc":"2.0","id":"a,b","error":{"code":1}}`:               `"a,b"`,
		`{"jsonrpc":"2.0","id":3,"method":"elicitation/create"}`:        "",
		`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`: "",
		`garbage`: "",
		// A quote inside the id is escaped: the id ends at the next one.
		`{"jsonrpc":"2.0","id":"a\"b","result":{}}`:              `"a\"b"`,
		`{"jsonrpc":"2.0","id":"a\\","result":{}}`:               `"a\\"`,
		`{"jsonrpc":"2.0","id":"\u0022,\"result\"","result":{}}`: `"\",\"result\""`,
		`{"jsonrpc":"2.0","id":"a\"`:                             "",
	}
	for in, want := range cases {
		got, ok := responseID([]byte(in))
		if got != want || ok != (want != "") {
			t.Errorf("responseID(%s) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// Whatever id a request carries, the answer mcp-go writes for it names the
// same id as the request (idKey): the request is struck off the ones in
// flight, or juju would wait for it at the end of its input for ever.
func FuzzResponseID(f *testing.F) {
	for _, id := range []string{`1`, `"a"`, `"a\"b"`, `"\\"`, `"\u0022"`, `-0`, `1e2`, `"a,\"result\":1"`} {
		f.Add(id)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var id any
		if json.Unmarshal([]byte(raw), &id) != nil {
			return
		}
		switch id.(type) {
		case string, float64:
		default:
			return // refused before it is served
		}
		answer, err := json.Marshal(mcp.JSONRPCResponse{JSONRPC: "2.0", ID: mcp.NewRequestId(id), Result: map[string]any{}})
		if err != nil {
			return
		}
		got, ok := responseID(answer)
		if !ok || got != idKey([]byte(raw)) {
			t.Fatalf("responseID(%s) = %q, %v; the request's id is %q", answer, got, ok, idKey([]byte(raw)))
		}
	})
}

func TestOversizedTextIsCut(t *testing.T) {
	big := strings.Repeat("0123456789abcdef\n", maxResultText/8)
	res := toMCP(&abi.CallResult{Content: []abi.Content{{Type: "text", Text: big}, {Type: "text", Text: "more"}, {Type: "text", Text: "and more"}}})
	total := 0
	for _, c := range res.Content {
		total += len(c.(mcp.TextContent).Text)
	}
	if total >= 100_000 || len(res.Content) != 1 {
		t.Fatalf("result text %d bytes in %d items; a client takes under 100,000", total, len(res.Content))
	}
	// Invalid UTF-8 would reach the client as three bytes a byte.
	bad := toMCP(&abi.CallResult{Content: []abi.Content{{Type: "text", Text: strings.Repeat("\xff", 90_000)}}})
	if n := len(text(bad)); n >= 100_000 {
		t.Fatalf("invalid UTF-8: %d bytes", n)
	}
	if !strings.Contains(text(res), "juju cut this result") {
		t.Fatal("the cut is not said")
	}
	small := toMCP(&abi.CallResult{Content: []abi.Content{{Type: "text", Text: "héllo"}}})
	if text(small) != "héllo" {
		t.Fatalf("small text changed: %q", text(small))
	}
}

func TestOversizedStructuredContentKeepsItsShape(t *testing.T) {
	small := json.RawMessage(`{"files":[{"path":"a"}],"total":1}`)
	if got := toMCP(&abi.CallResult{Structured: small}); string(got.RawStructuredContent) != string(small) {
		t.Fatalf("small structured content changed: %s", got.RawStructuredContent)
	}
	files := make([]map[string]any, 5000)
	for i := range files {
		files[i] = map[string]any{"path": strings.Repeat("x", 40), "size": i}
	}
	big, _ := json.Marshal(map[string]any{"files": files, "total": 5000, "truncated": false, "text": strings.Repeat("y", 200_000), "path": "src"})
	res := toMCP(&abi.CallResult{Content: []abi.Content{{Type: "text", Text: "ok"}}, Structured: big})
	if len(res.RawStructuredContent) >= 100_000 {
		t.Fatalf("structured content %d bytes", len(res.RawStructuredContent))
	}
	var got struct {
		Files     []any  `json:"files"`
		Total     int    `json:"total"`
		Truncated *bool  `json:"truncated"`
		Text      string `json:"text"`
		Path      string `json:"path"`
		Cut       struct {
			Bytes int    `json:"bytes"`
			Note  string `json:"note"`
		} `json:"jujuCut"`
	}
	if err := json.Unmarshal(res.RawStructuredContent, &got); err != nil {
		t.Fatal(err)
	}
	if got.Files == nil || len(got.Files) != 0 || got.Total != 5000 || got.Truncated == nil || got.Text != "" || got.Path != "src" ||
		got.Cut.Bytes != len(big) || !strings.Contains(got.Cut.Note, "text holds the result") {
		t.Fatalf("shape not kept: %s", res.RawStructuredContent)
	}
	// Not an object, or too many small members: the note alone.
	for _, raw := range []string{
		`[` + strings.Repeat(`1,`, 60_000) + `1]`,
		`{` + strings.Repeat(`"k":1,`, 1) + manyKeys(20_000) + `}`,
	} {
		res := toMCP(&abi.CallResult{Structured: json.RawMessage(raw)})
		if len(res.RawStructuredContent) > 1000 || !strings.Contains(string(res.RawStructuredContent), "jujuCut") {
			t.Fatalf("%.40s…: %.300s", raw, res.RawStructuredContent)
		}
	}
}

func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `"key%06d":%d,`, i, i)
	}
	return strings.TrimSuffix(b.String(), ",")
}

func TestWidenOutputSchemaRefusesBrokenJSON(t *testing.T) {
	for _, bad := range []string{``, `{"type":`, `{"type":"object"} {}`, `{"type":"object"}]},{"x":1`} {
		if wide, err := WidenOutputSchema(json.RawMessage(bad)); err == nil {
			t.Errorf("%q widened to %s", bad, wide)
		}
	}
	a, _ := WidenOutputSchema(json.RawMessage(`{"type":"object"}`))
	b, _ := WidenOutputSchema(json.RawMessage(`{"type":"object"}`))
	if !json.Valid(a) || !bytes.Equal(a, b) {
		t.Fatalf("widened: %s", a)
	}
}
