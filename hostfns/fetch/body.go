package fetch

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode"
)

// readBody reads at most max bytes of the body, counted after the
// transport's transparent gzip decoding, so a small compressed body that
// inflates without end (a gzip bomb) stops at the cap. cut says there was
// more. On an error (the time cap ran out, the connection broke) the bytes
// read so far come back with it.
func readBody(resp *http.Response, max int64) (body []byte, cut bool, err error) {
	var buf bytes.Buffer
	if n := resp.ContentLength; n > 0 && n <= max {
		buf.Grow(int(n))
	}
	_, err = io.Copy(&buf, io.LimitReader(resp.Body, max+1))
	b := buf.Bytes()
	if int64(len(b)) > max {
		return b[:max], true, nil
	}
	return b, false, err
}

// shortErr is an error's text without the "Get \"URL\": " prefix the HTTP
// client adds (the message names the URL itself), cut to 300 bytes, and
// with its hidden characters escaped: the text may be the server's (Go's
// certificate error lists the certificate's names as written, and a name
// may hold any ASCII byte, a newline or an escape sequence among them), and
// it stands in a message the model reads as juju's.
func shortErr(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return escapeHidden(clip(err.Error(), 300))
}

// escapeHidden writes each control or format character of s, and U+2028
// and U+2029, as Go escapes it in a quoted string (\n, \x1b, \u202e), so
// that no line break, terminal escape or bidi control of s is in the text.
func escapeHidden(s string) string {
	if strings.IndexFunc(s, hidden) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if !hidden(r) {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRune(r)
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

func hidden(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}
