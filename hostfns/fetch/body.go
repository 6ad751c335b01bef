package fetch

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/url"
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
// client adds; the message names the URL itself.
func shortErr(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return clip(err.Error(), 300)
}
