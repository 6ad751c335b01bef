package fetch

import (
	"bytes"
	"context"
	"fmt"
	"mime"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/jujutools/juju/sdk/abi"
)

// render sets the result's kind, format, title and note, and returns the
// body in the asked format: text as UTF-8 (HTML converted to Markdown,
// or stripped of its tags, or as sent), binary content only for FetchRaw.
//
// The Markdown conversion runs within ctx: a page not converted when ctx
// ends is given as text, with a note.
func (f *fetcher) render(ctx context.Context, format string, r *response) []byte {
	res := r.result
	res.Kind = kindOf(res.ContentType, r.body)
	res.Format = format
	switch {
	case r.encoding != "":
		res.Kind = abi.FetchKindBinary
		res.Note = joinNotes(res.Note, fmt.Sprintf("the server sent the body encoded as %q (Content-Encoding), which juju does not decode", clip(r.encoding, 40)))
	case res.Kind != abi.FetchKindBinary && hasNUL(res.ContentType, r.body):
		res.Kind = abi.FetchKindBinary
		res.Note = joinNotes(res.Note, "the body holds NUL bytes, so it is binary whatever its Content-Type says")
	}
	if res.Kind == abi.FetchKindBinary {
		if format == abi.FetchRaw {
			return r.body
		}
		return nil
	}
	text := decode(res.ContentType, r.body, res.Kind == abi.FetchKindHTML)
	if format == abi.FetchRaw {
		return text
	}
	if res.Kind != abi.FetchKindHTML {
		res.Format = abi.FetchText // other text is text in either format
		return text
	}
	if format == abi.FetchText {
		out, title := StripTags(text)
		res.Title = title
		return out
	}
	out, title, note, ok := f.markdown(ctx, text, res.FinalURL)
	res.Note = joinNotes(res.Note, note)
	if !ok {
		res.Format = abi.FetchText
		out, title = StripTags(text)
	}
	res.Title = title
	return out
}

// markdown converts an HTML page within ctx; not ok, with a note saying
// why, when the page is to be given as text instead. The conversion waits
// for one of the fetcher's slots and runs in a goroutine of its own, which
// the call stops waiting for when ctx ends: the slot stays taken until the
// conversion really ends (once ctx has ended, the parser reads no more of
// the page and the pruning and the converter stop at their next element),
// so conversions given up on never add up past the slots, and a fetch
// waiting for a slot gives up when its own ctx ends.
func (f *fetcher) markdown(ctx context.Context, page []byte, pageURL string) (out []byte, title, note string, ok bool) {
	const instead = "; its text is given instead"
	select {
	case f.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, "", "other pages were being converted to Markdown until the time cap ran out" + instead, false
	}
	type converted struct {
		md    []byte
		title string
		cut   string
		err   error
	}
	done := make(chan converted, 1)
	go func() {
		var c converted
		defer func() {
			if p := recover(); p != nil {
				c = converted{err: fmt.Errorf("the converter failed: %v", p)}
				f.log.Error("markdown conversion panicked", "url", clip(pageURL, 200), "panic", p)
			}
			<-f.sem
			done <- c
		}()
		if f.opts.LiftMemoryLimit != nil {
			defer f.opts.LiftMemoryLimit()()
		}
		c.md, c.title, c.cut, c.err = f.toMarkdown(ctx, page, pageURL)
	}()
	select {
	case c := <-done:
		switch {
		case c.err != nil:
			return nil, c.title, fmt.Sprintf("the page could not be converted to Markdown (%s)", clip(c.err.Error(), 200)) + instead, false
		case c.cut != "":
			return c.md, c.title, c.cut + "; format text gives the whole page's text", true
		}
		return c.md, c.title, "", true
	case <-ctx.Done():
		return nil, "", "converting the page to Markdown took longer than the time cap" + instead, false
	}
}

// joinNotes joins two notes of a result.
func joinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// kindOf says whether a body is HTML, other text or binary, from its
// Content-Type, or from its first bytes when the type is missing or
// generic.
func kindOf(contentType string, body []byte) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil || mt == "" || mt == "application/octet-stream" || mt == "binary/octet-stream" {
		mt, _, _ = mime.ParseMediaType(http.DetectContentType(body))
		if mt == "application/octet-stream" && looksLikeText(body) {
			mt = "text/plain"
		}
	}
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		return abi.FetchKindHTML
	case isTextType(mt):
		return abi.FetchKindText
	}
	return abi.FetchKindBinary
}

// isTextType reports whether a media type is text a model can read.
func isTextType(mt string) bool {
	if strings.HasPrefix(mt, "text/") || strings.HasSuffix(mt, "+json") || strings.HasSuffix(mt, "+xml") || strings.HasSuffix(mt, "+yaml") {
		return true
	}
	switch mt {
	case "application/json", "application/xml", "application/javascript", "application/ecmascript",
		"application/x-javascript", "application/yaml", "application/x-yaml", "application/toml",
		"application/x-sh", "application/x-shellscript", "application/sql", "application/graphql",
		"application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-www-form-urlencoded",
		"application/x-tex", "application/x-latex", "application/x-httpd-php", "application/x-python",
		"application/x-perl", "application/x-ruby", "application/rtf":
		return true
	}
	return false
}

// hasNUL reports whether a body holds a NUL byte anywhere (a scan of at
// most maxBytes, about a millisecond for 8 MiB), which no text holds
// unless it is UTF-16 or UTF-32 (by its byte-order mark or its declared
// charset).
func hasNUL(contentType string, body []byte) bool {
	if bytes.IndexByte(body, 0) < 0 || bytes.HasPrefix(body, []byte{0xFF, 0xFE}) || bytes.HasPrefix(body, []byte{0xFE, 0xFF}) {
		return false
	}
	_, params, _ := mime.ParseMediaType(contentType)
	cs := strings.ToLower(params["charset"])
	return !strings.HasPrefix(cs, "utf-16") && !strings.HasPrefix(cs, "utf-32") && !strings.HasPrefix(cs, "ucs-")
}

// looksLikeText reports whether the first bytes of an untyped body are
// UTF-8 text without NUL bytes.
func looksLikeText(b []byte) bool {
	head := b[:min(len(b), 8192)]
	if bytes.IndexByte(head, 0) >= 0 {
		return false
	}
	for len(head) > 0 && !utf8.FullRune(head[max(0, len(head)-utf8.UTFMax):]) {
		head = head[:len(head)-1]
	}
	return utf8.Valid(head)
}

// decode returns the body as UTF-8: from the charset of the Content-Type,
// or for HTML from a byte-order mark or a <meta charset> too; invalid
// bytes become U+FFFD. A byte-order mark is the encoding's, not text, and
// is left out (the parser would make it a line of its own).
func decode(contentType string, body []byte, isHTML bool) []byte {
	enc := charsetOf(contentType, body, isHTML)
	if enc != nil {
		if out, _, err := transform.Bytes(enc.NewDecoder(), body); err == nil {
			body = out
		}
	}
	if !utf8.Valid(body) {
		body = bytes.ToValidUTF8(body, []byte("\uFFFD"))
	}
	return bytes.TrimPrefix(body, []byte("\uFEFF"))
}

// xmlDeclaration matches an XML declaration naming an encoding, at the
// start of a body. It is compiled on first use, not at every start.
var xmlDeclaration = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^<\?xml[ \t\r\n][^>]*?\bencoding[ \t\r\n]*=[ \t\r\n]*["']([A-Za-z][A-Za-z0-9._-]*)["']`)
})

// charsetOf is the body's encoding when it is not UTF-8; nil for UTF-8.
// HTML follows the WHATWG rules (byte-order mark, Content-Type, <meta>),
// except that an undeclared body that is valid UTF-8 is read as UTF-8;
// other text follows its byte-order mark, as the WHATWG's decode does
// whatever the Content-Type says (a UTF-16 file served as text/plain, or
// as UTF-8 as code hosts serve raw files, came back as a NUL escape after
// every character), then its Content-Type's charset, then the encoding
// an XML declaration names, else UTF-8.
func charsetOf(contentType string, body []byte, isHTML bool) encoding.Encoding {
	var e encoding.Encoding
	var name string
	switch {
	case isHTML:
		var certain bool
		e, name, certain = charset.DetermineEncoding(body, contentType)
		if !certain && utf8.Valid(body) {
			return nil
		}
	case bytes.HasPrefix(body, []byte("\uFEFF")):
		return nil
	case bytes.HasPrefix(body, []byte{0xFF, 0xFE}):
		return unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)
	case bytes.HasPrefix(body, []byte{0xFE, 0xFF}):
		return unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)
	default:
		_, params, _ := mime.ParseMediaType(contentType)
		if cs := params["charset"]; cs != "" {
			e, name = charset.Lookup(cs)
		} else if m := xmlDeclaration().FindSubmatch(body[:min(len(body), 1024)]); m != nil {
			// An XML document declares its encoding in its first line (an
			// application/xml document in ISO-8859-1 came back with U+FFFD
			// for every accented letter); a document in bytes of 8 bits
			// that declares UTF-16 is not, as the WHATWG reads a <meta>.
			if e, name = charset.Lookup(string(m[1])); strings.HasPrefix(name, "utf-16") {
				return nil
			}
		}
	}
	if e == nil || name == "utf-8" {
		return nil
	}
	return e
}
