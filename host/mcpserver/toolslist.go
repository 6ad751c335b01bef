package mcpserver

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/sdk/abi"
)

// toolsList is one version of the catalog's tools as mcp-go lists them
// (sorted by name), with their JSON encoded once, when first needed.
// mcp-go still serves every tools/list (the handshake gate, the hooks that
// follow the catalog, pagination, errors, the newer protocol's result
// fields); only the tools array of its answer is taken from here, when it
// holds exactly these tools (appendToolsList).
type toolsList struct {
	tools []mcp.Tool
	once  sync.Once
	json  []byte // json.Marshal(tools); nil when it failed
}

// newToolsList is the tools registered in m, in mcp-go's order.
func newToolsList(m *server.MCPServer) *toolsList {
	reg := m.ListTools()
	tools := make([]mcp.Tool, 0, len(reg))
	for _, t := range reg {
		tools = append(tools, t.Tool)
	}
	slices.SortFunc(tools, func(a, b mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
	return &toolsList{tools: tools}
}

// encoded is the tools' JSON, encoded by the first caller; the others wait
// for it.
func (l *toolsList) encoded() []byte {
	l.once.Do(func() {
		if b, ok := appendTools(nil, l.tools); ok {
			l.json = b
		} else if b, err := json.Marshal(l.tools); err == nil {
			l.json = b
		}
	})
	return l.json
}

// appendTools appends json.Marshal(tools), written field by field: the
// core catalog's tools/list answer is 134 KB, and encoding/json took 2-9
// ms to write it (mcp-go's Tool marshals itself through a map, and each
// tool's JSON and schemas are then validated and compacted byte by byte,
// twice), beside the answer to initialize on a 2-core machine; this takes
// a tenth of that, most of it checking the schemas (RATIONALE). It reports
// false, leaving the list to json.Marshal, for a tool with anything
// Tool.MarshalJSON writes that this does not: structured schemas, meta
// data, icons, an execution or deferred loading.
func appendTools(b []byte, tools []mcp.Tool) ([]byte, bool) {
	if tools == nil {
		return b, false
	}
	n := 2
	for _, t := range tools {
		n += 256 + len(t.Name) + len(t.Title) + len(t.Description) + len(t.Annotations.Title) + len(t.RawInputSchema) + len(t.RawOutputSchema)
	}
	b = slices.Grow(b, n)
	b = append(b, '[')
	for i, t := range tools {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = appendTool(b, t); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

// appendTool appends Tool.MarshalJSON's object: its map's keys in
// encoding/json's order (sorted), the schemas compacted and HTML-escaped
// as json.Marshal leaves a json.RawMessage.
func appendTool(b []byte, t mcp.Tool) ([]byte, bool) {
	if t.RawInputSchema == nil || t.InputSchema.Type != "" || t.OutputSchema.Type != "" ||
		t.DeferLoading || t.Meta != nil || t.Icons != nil || t.Execution != nil {
		return b, false
	}
	b = appendAnnotations(append(b, `{"annotations":`...), t.Annotations)
	if t.Description != "" {
		b = abi.AppendJSONString(append(b, `,"description":`...), t.Description, true)
	}
	var ok bool
	if b, ok = appendRawJSON(append(b, `,"inputSchema":`...), t.RawInputSchema); !ok {
		return b, false
	}
	b = abi.AppendJSONString(append(b, `,"name":`...), t.Name, true)
	if t.RawOutputSchema != nil {
		if b, ok = appendRawJSON(append(b, `,"outputSchema":`...), t.RawOutputSchema); !ok {
			return b, false
		}
	}
	if t.Title != "" {
		b = abi.AppendJSONString(append(b, `,"title":`...), t.Title, true)
	}
	return append(b, '}'), true
}

// appendAnnotations appends json.Marshal(a): its fields in their order,
// the empty ones left out.
func appendAnnotations(b []byte, a mcp.ToolAnnotation) []byte {
	b = append(b, '{')
	start := len(b)
	if a.Title != "" {
		b = abi.AppendJSONString(append(b, `"title":`...), a.Title, true)
	}
	b = appendHint(b, start, `"readOnlyHint":`, a.ReadOnlyHint)
	b = appendHint(b, start, `"destructiveHint":`, a.DestructiveHint)
	b = appendHint(b, start, `"idempotentHint":`, a.IdempotentHint)
	b = appendHint(b, start, `"openWorldHint":`, a.OpenWorldHint)
	return append(b, '}')
}

// appendHint appends the hint v after key, unless it is nil; after a comma
// unless it is the first field of the object started at start.
func appendHint(b []byte, start int, key string, v *bool) []byte {
	if v == nil {
		return b
	}
	if len(b) > start {
		b = append(b, ',')
	}
	return strconv.AppendBool(append(b, key...), *v)
}

// appendRawJSON appends raw as json.Marshal writes a json.RawMessage:
// compacted, with <, >, &, U+2028 and U+2029 escaped. It reports false for
// raw that is not JSON, which json.Marshal refuses.
func appendRawJSON(b, raw []byte) ([]byte, bool) {
	if !abi.ValidJSON(raw) {
		return b, false
	}
	if compactAndPlain(raw) {
		return append(b, raw...), true
	}
	var c, e bytes.Buffer
	if json.Compact(&c, raw) != nil {
		return b, false
	}
	json.HTMLEscape(&e, c.Bytes())
	return append(b, e.Bytes()...), true
}

// compactAndPlain reports whether valid JSON raw is as json.Marshal would
// leave it: no space between its tokens, and nothing it escapes for HTML.
func compactAndPlain(raw []byte) bool {
	inString := false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case inString && c == '\\':
			i++ // the escaped byte, whatever it is
		case inString && c == '"':
			inString = false
		case c == '<' || c == '>' || c == '&':
			return false
		case c == 0xE2 && i+2 < len(raw) && raw[i+1] == 0x80 && raw[i+2]&^1 == 0xA8: // U+2028, U+2029
			return false
		case inString:
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return false
		}
	}
	return true
}

// listing is the catalog's tools list as the server has them now.
func (s *Server) listing() *toolsList { return s.listed.Load() }

// noteTools records the tools just registered in mcp-go.
func (s *Server) noteTools() { s.listed.Store(newToolsList(s.mcp)) }

// appendToolsList appends the answer to a tools/list, resp, as json.Marshal
// writes it, with its tools array taken from the catalog's listing when the
// answer lists exactly the listing's tools. The rest of the answer (the id,
// a next cursor, the newer protocol's result fields) is marshalled as it
// comes, the tools left out, and the array is put where json.Marshal would
// write it: tools is the result's last field, and the result the answer's.
// It reports false, leaving the answer to json.Marshal, for anything else.
func (s *Server) appendToolsList(b []byte, resp mcp.JSONRPCMessage) ([]byte, bool) {
	r, ok := resp.(mcp.JSONRPCResponse)
	if !ok {
		return b, false
	}
	var res mcp.ListToolsResult
	switch v := r.Result.(type) {
	case mcp.ListToolsResult:
		res = v
	case *mcp.ListToolsResult:
		if v == nil {
			return b, false
		}
		res = *v
	default:
		return b, false
	}
	l := s.listing()
	if l == nil || !sameTools(res.Tools, l.tools) {
		return b, false
	}
	tools := l.encoded()
	if tools == nil {
		return b, false
	}
	res.Tools = nil
	r.Result = res
	head, err := json.Marshal(r)
	if err != nil || !bytes.HasSuffix(head, []byte(`"tools":null}}`)) {
		return b, false
	}
	b = slices.Grow(b, len(head)+len(tools))
	b = append(b, head[:len(head)-len(`null}}`)]...)
	b = append(b, tools...)
	return append(b, "}}"...), true
}

// sameTools reports whether a and b hold the same tools, in the same order,
// as Tool.MarshalJSON sees them. The tools mcp-go lists are copies of the
// ones it holds, sharing their strings and schemas, so each comparison ends
// at the first byte's address.
func sameTools(a, b []mcp.Tool) bool {
	return slices.EqualFunc(a, b, sameTool)
}

// sameTool reports whether a and b marshal alike: every field
// Tool.MarshalJSON writes is equal, and the structured schemas, which it
// writes only without the raw ones, are unset in both.
func sameTool(a, b mcp.Tool) bool {
	return a.Name == b.Name && a.Title == b.Title && a.Description == b.Description &&
		a.RawInputSchema != nil && b.RawInputSchema != nil && bytes.Equal(a.RawInputSchema, b.RawInputSchema) &&
		(a.RawOutputSchema == nil) == (b.RawOutputSchema == nil) && bytes.Equal(a.RawOutputSchema, b.RawOutputSchema) &&
		a.InputSchema.Type == "" && b.InputSchema.Type == "" && a.OutputSchema.Type == "" && b.OutputSchema.Type == "" &&
		sameAnnotations(a.Annotations, b.Annotations) &&
		a.DeferLoading == b.DeferLoading && a.Meta == b.Meta && a.Execution == b.Execution &&
		a.Icons == nil && b.Icons == nil
}

func sameAnnotations(a, b mcp.ToolAnnotation) bool {
	return a.Title == b.Title && sameHint(a.ReadOnlyHint, b.ReadOnlyHint) && sameHint(a.DestructiveHint, b.DestructiveHint) &&
		sameHint(a.IdempotentHint, b.IdempotentHint) && sameHint(a.OpenWorldHint, b.OpenWorldHint)
}

func sameHint(a, b *bool) bool { return a == b || (a != nil && b != nil && *a == *b) }
