package mcpserver

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/jujutools/juju/sdk/abi"
)

// answerSize is the bytes a client gets for res.
func answerSize(t *testing.T, res *mcp.CallToolResult) int {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

// notes returns the text of res's items that say what juju left out.
func notes(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok && strings.HasPrefix(tc.Text, "[juju left out") {
			b.WriteString(tc.Text + "\n")
		}
	}
	return b.String()
}

func images(res *mcp.CallToolResult) []mcp.ImageContent {
	var out []mcp.ImageContent
	for _, c := range res.Content {
		if ic, ok := c.(mcp.ImageContent); ok {
			out = append(out, ic)
		}
	}
	return out
}

// TestResultImagesAreBounded: a result's images were base64-encoded
// whatever their size; two of 30 MiB made an answer of 84 MB. They now
// have a budget, as text has, that read_image's largest fits four times.
func TestResultImagesAreBounded(t *testing.T) {
	huge := bytes.Repeat([]byte{7}, 30<<20)
	res := toMCP(&abi.CallResult{Content: []abi.Content{
		{Type: "text", Text: "two screenshots"},
		{Type: "image", Data: huge, MimeType: "image/png"},
		{Type: "image", Data: huge, MimeType: "image/png"},
	}})
	if n := answerSize(t, res); n > 200_000 {
		t.Fatalf("an answer of %d bytes", n)
	}
	if len(images(res)) != 0 || !strings.Contains(notes(res), "left out 2 image(s), the largest 31457280 bytes") || res.Content[0].(mcp.TextContent).Text != "two screenshots" {
		t.Fatalf("content %+v", res.Content)
	}
	// Images as large as read_image sends fit, four of them.
	mib := bytes.Repeat([]byte{7}, 1<<20)
	var five []abi.Content
	for range 5 {
		five = append(five, abi.Content{Type: "image", Data: mib, MimeType: "image/jpeg"})
	}
	res = toMCP(&abi.CallResult{Content: five})
	if got := images(res); len(got) != 4 || got[0].Data != base64(mib) || got[0].MIMEType != "image/jpeg" || !strings.Contains(notes(res), "left out 1 image(s)") {
		t.Fatalf("%d images kept of five of 1 MiB; notes %q", len(got), notes(res))
	}
}

// An image item must say it is an image: its MIME type is what a client
// decodes it by.
func TestResultImagesMustBeImages(t *testing.T) {
	for _, mime := range []string{"", "text/html", "image/", "image/png; charset=x", "application/octet-stream", "image/" + strings.Repeat("x", 1<<20), "IMAGE/PNG"} {
		res := toMCP(&abi.CallResult{Content: []abi.Content{{Type: "image", Data: []byte("x"), MimeType: mime}}})
		if len(images(res)) != 0 || !strings.Contains(notes(res), "MIME type is not an image type") || answerSize(t, res) > 1000 {
			t.Errorf("%.40q: %+v", mime, res.Content)
		}
	}
	for _, mime := range []string{"image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml", "image/vnd.microsoft.icon"} {
		if res := toMCP(&abi.CallResult{Content: []abi.Content{{Type: "image", Data: []byte("x"), MimeType: mime}}}); len(images(res)) != 1 {
			t.Errorf("%s left out: %+v", mime, res.Content)
		}
	}
}

// TestResultItemsAreBounded: items that use up no budget, empty texts or
// images, made answers of 13 and 16 MB.
func TestResultItemsAreBounded(t *testing.T) {
	for name, item := range map[string]abi.Content{
		"empty text":  {Type: "text"},
		"empty image": {Type: "image", MimeType: "image/png"},
		"other type":  {Type: "audio"},
	} {
		many := make([]abi.Content, 500_000)
		for i := range many {
			many[i] = item
		}
		res := toMCP(&abi.CallResult{Content: many})
		if len(res.Content) != maxContentItems+1 || !strings.Contains(notes(res), "left out the last 499900 content items") || answerSize(t, res) > 10_000 {
			t.Errorf("%s: %d items, %d bytes; notes %q", name, len(res.Content), answerSize(t, res), notes(res))
		}
	}
	// A result of a hundred items is kept whole.
	hundred := make([]abi.Content, maxContentItems)
	for i := range hundred {
		hundred[i] = abi.Content{Type: "text", Text: "x"}
	}
	if res := toMCP(&abi.CallResult{Content: hundred}); len(res.Content) != maxContentItems || notes(res) != "" {
		t.Fatalf("%d items, notes %q", len(res.Content), notes(res))
	}
}

// A plugin's error message is a result like any other.
func TestResultErrorMessageIsBounded(t *testing.T) {
	res := toMCP(&abi.CallResult{Error: &abi.Error{Code: abi.NotFound, Message: strings.Repeat("\x01no such thing\n", 1<<20)}})
	if n := answerSize(t, res); n > 250_000 || !res.IsError || !strings.HasPrefix(text(res), "NOT_FOUND: ") || len(res.RawStructuredContent) > abi.MaxStructured {
		t.Fatalf("an error answer of %d bytes: %.100s", n, text(res))
	}
}

// An error message of a megabyte (approval_status quoted the id it was
// given) is cut to what a client takes, and the structured content holds
// the same message: it was left past its own cap, and that cut emptied
// the message, so the model read a code and no sentence.
func TestLongErrorMessageKeepsItsShape(t *testing.T) {
	for _, fill := range []string{"x", "\x01", "é"} {
		res := toMCP(&abi.CallResult{Error: abi.Errorf(abi.NotFound, "there is no approval %s; call approval_status", strings.Repeat(fill, 1<<20))})
		var sc map[string]any
		if err := json.Unmarshal(res.RawStructuredContent, &sc); err != nil {
			t.Fatal(err)
		}
		msg, _ := sc["message"].(string)
		txt := res.Content[0].(mcp.TextContent).Text
		if len(sc) != 2 || sc["code"] != "NOT_FOUND" || !strings.HasPrefix(msg, "there is no approval") || txt != "NOT_FOUND: "+msg {
			t.Errorf("fill %q: structured %.200s…, text %.200s…", fill, res.RawStructuredContent, txt)
		}
		if !strings.Contains(msg, "[juju cut this result") || len(res.RawStructuredContent) > abi.MaxStructured {
			t.Errorf("fill %q: a message of %d bytes, structured content of %d", fill, len(msg), len(res.RawStructuredContent))
		}
	}
}
