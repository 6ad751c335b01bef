package mcpserver

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// toolsList is one version of the catalog's tools as mcp-go lists them
// (sorted by name), with their JSON encoded once, when first needed: the
// core catalog's tools/list answer is 134 KB, and encoding/json takes
// 2-3 ms to write it in a warm process (mcp-go's Tool marshals itself
// through a map, and each tool's JSON and schemas are then validated and
// compacted byte by byte), about 9 ms in a new one. mcp-go still serves
// every tools/list (the handshake gate, the hooks that follow the catalog,
// pagination, errors, the newer protocol's result fields); only the tools
// array of its answer is taken from here, when it holds exactly these
// tools (appendToolsList).
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
		if b, err := json.Marshal(l.tools); err == nil {
			l.json = b
		}
	})
	return l.json
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
