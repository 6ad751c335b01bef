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
	if e := unreadableArguments(ctx); e != nil {
		return s.refuse(ctx, name, nil, e), nil
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
	res, err := s.host.Call(ctx, host.Request{Client: clientName(ctx), Principal: remotePrincipal(ctx), Session: sessionID(ctx), Tool: name, Args: raw, Asker: asker})
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
	return identity(declaredName(ctx), principalOf(ctx))
}

// identity is how juju names a client that declared name, authenticated
// as principal: the name with its square brackets made round, then, for
// an OAuth client, its principal in brackets ("claude [oauth:c_1]"). Only
// juju writes brackets, so no declared name, local or remote, reads as
// another principal's client: a local client declaring "claude
// [oauth:c_1]" is "claude (oauth:c_1)". Approvals also compare the
// principal itself (approval.Request.Principal).
func identity(name, principal string) string {
	name = strings.NewReplacer("[", "(", "]", ")").Replace(name)
	if principal != "" && principal != localPrincipal {
		return name + " [" + principal + "]"
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
		return abi.Cut(info.ClientInfo.Name, maxClientName)
	}
	if sess, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		return abi.Cut(sess.GetClientInfo().Name, maxClientName)
	}
	return ""
}

// maxClientName bounds a client's declared name as juju carries it into
// approvals, the audit and the owner's terminal: names such as
// "claude-code" are a few bytes, and one of megabytes filled the audit log.
const maxClientName = 128

// toMCP converts a plugin's result into an MCP tool result, within what a
// client takes: text past maxResultText is cut, images past
// maxResultImages and items past maxContentItems are left out, an image
// item whose MIME type is not an image's too, each with a note saying so.
func toMCP(res *abi.CallResult) *mcp.CallToolResult {
	if e := res.Error; e != nil {
		msg, sc := errorContent(e)
		return &mcp.CallToolResult{
			Content:              []mcp.Content{mcp.NewTextContent(string(e.Code) + ": " + msg)},
			RawStructuredContent: sc,
			IsError:              true,
		}
	}
	out := &mcp.CallToolResult{Content: make([]mcp.Content, 0, min(len(res.Content), maxContentItems))}
	budget, images := maxResultText, maxResultImages
	var left leftOut
	for i, c := range res.Content {
		if len(out.Content) == maxContentItems {
			left.items = len(res.Content) - i
			break
		}
		switch c.Type {
		case "image":
			switch {
			case !imageType(c.MimeType):
				left.untyped++
			case len(c.Data) > images:
				left.images++
				left.largest = max(left.largest, len(c.Data))
			default:
				images -= len(c.Data)
				out.Content = append(out.Content, mcp.NewImageContent(base64(c.Data), c.MimeType))
			}
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
	for _, note := range left.notes() {
		out.Content = append(out.Content, mcp.NewTextContent(note))
	}
	if len(res.Structured) > 0 {
		out.RawStructuredContent = capStructured(res.Structured)
	}
	return out
}

// errorContent is the message of e as a client gets it, cut when it is
// long (a message quoting a megabyte the call sent), and the structured
// content {"code", "message"} holding that same message. The message is
// cut until that content fits abi.MaxStructured: cut to maxResultText
// alone, it left the content past the cap, whose cut then emptied the
// message, so the model read a code and no sentence, and a client checking
// the error shape found a member it does not allow.
func errorContent(e *abi.Error) (string, json.RawMessage) {
	msg := e.Message
	for n := maxResultText; ; n = n * 3 / 4 {
		if len(msg) > n {
			msg = cutText(strings.ToValidUTF8(e.Message, "\uFFFD"), n)
		}
		sc, _ := json.Marshal(abi.Error{Code: e.Code, Message: msg})
		if len(sc) <= abi.MaxStructured || n < 1024 {
			return msg, capStructured(sc)
		}
	}
}

// maxResultText bounds the text of one result, whatever a plugin returns,
// as abi.MaxStructured bounds its structured content (cap.go): clients
// reject or truncate results past roughly 25,000 tokens (SPEC §4: each
// under 100,000 bytes), and the core tools cut their own output below
// this, saying how to read on. It is a safety net for installed plugins.
const maxResultText = 99_000

// maxResultImages bounds the bytes of a result's images (5.6 MB once in
// base64): four images as large as read_image sends (1 MiB, its own cap,
// about what a model's image input takes at 1568 px), where a plugin's
// images were base64-encoded whatever their size (two of 30 MiB made one
// answer of 84 MB). maxContentItems bounds its items: half a million
// empty ones made an answer of 13 MB while the text budget stayed unused.
const (
	maxResultImages = 4 << 20
	maxContentItems = 100
)

// imageType reports whether m is an image's MIME type, as a client shows
// it: image/ and a subtype of letters, digits and . + -, no parameters.
func imageType(m string) bool {
	sub, ok := strings.CutPrefix(m, "image/")
	if !ok || sub == "" || len(m) > 64 {
		return false
	}
	for _, c := range sub {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '+' || c == '-') {
			return false
		}
	}
	return true
}

// leftOut counts what toMCP left out of a result, for its notes.
type leftOut struct {
	items   int // content items past maxContentItems
	images  int // images past maxResultImages, the largest of them largest bytes
	largest int
	untyped int // image items whose MIME type is not an image's
}

// notes are the sentences that tell the model what was left out and what
// to do.
func (l leftOut) notes() []string {
	var notes []string
	if l.images > 0 {
		notes = append(notes, fmt.Sprintf("[juju left out %d image(s), the largest %d bytes: a result carries at most %d bytes of images, the most a client takes; ask the tool for a smaller image or fewer at once]",
			l.images, l.largest, maxResultImages))
	}
	if l.untyped > 0 {
		notes = append(notes, fmt.Sprintf("[juju left out %d image item(s) whose MIME type is not an image type (image/png, image/jpeg …); the plugin is at fault: tell the owner]", l.untyped))
	}
	if l.items > 0 {
		notes = append(notes, fmt.Sprintf("[juju left out the last %d content items: a result carries at most %d; ask the tool for less (a narrower path or pattern, a lower limit)]",
			l.items, maxContentItems))
	}
	return notes
}

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
