package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/internal/visible"
	"github.com/jujutools/juju/sdk/abi"
)

// handle serves one tools/call. Arguments that do not fit the tool's input
// schema, as the catalog has it now, are an INVALID_ARGUMENT tool result
// (validate.go), audited, and nothing runs. An unknown tool never gets
// here: mcp-go answers it with a JSON-RPC error (refused.go audits it).
func (s *Server) handle(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	name := req.Params.Name
	args := req.Params.Arguments
	if args == nil {
		args = map[string]any{}
	}
	in := s.schema(name)
	if in == nil {
		return s.refuse(ctx, name, args, removedTool(name)), nil
	}
	if e := in.check(name, args); e != nil {
		return s.refuse(ctx, name, args, e), nil
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return s.refuse(ctx, name, args, abi.Errorf(abi.InvalidArgument, "the arguments of %s are not JSON: %v", name, err)), nil
	}
	asker, rt := s.asker(ctx, req)
	res, err := s.host.Call(ctx, host.Request{Client: clientName(ctx), Principal: remotePrincipal(ctx), Tool: name, Args: raw, Asker: asker})
	if errors.Is(err, host.ErrUnknownTool) {
		return s.refuse(ctx, name, args, removedTool(name)), nil
	}
	if err != nil {
		return nil, err
	}
	if res.Handed && rt != nil && rt.question() != nil {
		return rt.question(), nil
	}
	return toMCP(res.CallResult), nil
}

// removedTool answers a call to a tool that a reload took out of the
// catalog after mcp-go had found it (its plugin removed in the same
// moment): the client was listed the tool, so it hears why as a result.
func removedTool(name string) *abi.Error {
	return abi.Errorf(abi.NotFound, "the tool %s was removed while this call came in (its plugin was removed); list the tools again", name)
}

// clientName is the MCP client's declared name, for logs, the audit and
// approvals. Over HTTP with an OAuth token the OAuth client is named too:
// a remote client cannot pass for a local one of the same name.
func clientName(ctx context.Context) string {
	name := declaredName(ctx)
	if p := principalOf(ctx); p != "" && p != localPrincipal {
		return name + " [" + p + "]"
	}
	return name
}

// remotePrincipal is the OAuth principal of an HTTP request, "" for the
// owner's local clients (stdio, the local token).
func remotePrincipal(ctx context.Context) string {
	if p := principalOf(ctx); p != localPrincipal {
		return p
	}
	return ""
}

// declaredName is the name the client gave at initialize (or, for newer
// protocol versions, with the request), cut to maxClientName bytes.
func declaredName(ctx context.Context) string {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientInfo != nil && info.ClientInfo.Name != "" {
		return visible.Cut(info.ClientInfo.Name, maxClientName)
	}
	if sess, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		return visible.Cut(sess.GetClientInfo().Name, maxClientName)
	}
	return ""
}

// maxClientName bounds a client's declared name as juju carries it into
// approvals, the audit and the owner's terminal: names such as
// "claude-code" are a few bytes, and one of megabytes filled the audit log.
const maxClientName = 128

// toMCP converts a plugin's result into an MCP tool result.
func toMCP(res *abi.CallResult) *mcp.CallToolResult {
	if e := res.Error; e != nil {
		sc, _ := json.Marshal(e)
		return &mcp.CallToolResult{
			Content:              []mcp.Content{mcp.NewTextContent(string(e.Code) + ": " + e.Message)},
			RawStructuredContent: sc,
			IsError:              true,
		}
	}
	out := &mcp.CallToolResult{Content: make([]mcp.Content, 0, len(res.Content))}
	budget := maxResultText
	for _, c := range res.Content {
		switch c.Type {
		case "image":
			out.Content = append(out.Content, mcp.NewImageContent(base64(c.Data), c.MimeType))
		default:
			if budget == 0 { // cut already, and said
				continue
			}
			text := strings.ToValidUTF8(c.Text, "\uFFFD") // as JSON would send it
			if len(text) > budget {
				text = cutText(text, budget)
			}
			budget = max(0, budget-len(text))
			out.Content = append(out.Content, mcp.NewTextContent(text))
		}
	}
	if len(res.Structured) > 0 {
		out.RawStructuredContent = capStructured(res.Structured)
	}
	return out
}

// maxResultText bounds the text of one result, whatever a plugin returns,
// as abi.MaxStructured bounds its structured content (cap.go): clients
// reject or truncate results past roughly 25,000 tokens (SPEC §4: each
// under 100,000 bytes), and the core tools cut their own output below
// this, saying how to read on. It is a safety net for installed plugins.
const maxResultText = 99_000

// cutText cuts s to at most n bytes at a line or rune boundary and says so.
func cutText(s string, n int) string {
	cut := s[:n]
	if i := strings.LastIndexByte(cut, '\n'); i > n/2 {
		cut = cut[:i+1]
	}
	for len(cut) > 0 && !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	return cut + fmt.Sprintf("\n[juju cut this result at %d of %d bytes, the most a client takes; ask the tool for less (an offset or range, a lower limit, a narrower path or pattern)]\n", len(cut), len(s))
}
