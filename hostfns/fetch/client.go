package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/jujutools/juju/sdk/abi"
)

// newTransport makes the one HTTP transport of the fetcher. It never uses a
// proxy (HTTPS_PROXY, ALL_PROXY … are ignored: a proxy would connect on
// juju's behalf, past the dialer's check), dials through the guard,
// verifies certificates and bounds response headers.
func (f *fetcher) newTransport() *http.Transport {
	return &http.Transport{
		Proxy:       nil,
		DialContext: f.guard.dial,
		TLSClientConfig: &tls.Config{
			MinVersion: tls.VersionTLS12,
			RootCAs:    rootCAs(f.opts.RootCAs),
		},
		TLSHandshakeTimeout:    10 * time.Second,
		MaxResponseHeaderBytes: MaxHeaderBytes,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           8,
		IdleConnTimeout:        30 * time.Second,
	}
}

// rootCAs is the pool that verifies servers: the given one, or the
// system's roots with the certificates of SSL_CERT_FILE added (Go reads
// SSL_CERT_FILE itself on Linux and the BSDs, not on macOS or Windows).
func rootCAs(given *x509.CertPool) *x509.CertPool {
	if given != nil {
		return given
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if file := os.Getenv("SSL_CERT_FILE"); file != "" {
		if pem, err := os.ReadFile(file); err == nil {
			pool.AppendCertsFromPEM(pem)
		}
	}
	return pool
}

// response is one fetch's outcome: the result so far (URL and final URL
// are set even on failure) and the body read.
type response struct {
	result *abi.FetchResult
	body   []byte
	// encoding is a Content-Encoding the transport left undecoded (it
	// decodes the gzip it asks for; a server may send deflate, br … unasked).
	encoding string
}

// errTooManyRedirects stops the client past MaxRedirects hops.
var errTooManyRedirects = errors.New("too many redirects")

// hopError carries the refusal of a redirect target out of the client.
type hopError struct{ refusal *abi.Error }

func (e hopError) Error() string { return e.refusal.Error() }

// get fetches u under the time cap, following at most MaxRedirects
// redirects, each target checked as the first URL was, and reads at most
// maxBytes of the body.
func (f *fetcher) get(ctx context.Context, u *url.URL, maxBytes int64, timeout time.Duration) (*response, *abi.Error) {
	r := &response{result: &abi.FetchResult{URL: u.String(), FinalURL: u.String()}}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return r, abi.Errorf(abi.InvalidArgument, "%q cannot be requested: %v", clip(u.Redacted(), 200), err)
	}
	req.Header.Set("User-Agent", f.opts.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,*/*;q=0.5")
	client := &http.Client{
		Transport: f.transport(),
		CheckRedirect: func(next *http.Request, via []*http.Request) error {
			r.result.FinalURL = next.URL.Redacted()
			if len(via) > MaxRedirects {
				return errTooManyRedirects
			}
			if aerr := f.guard.checkParsed(next.URL); aerr != nil {
				return hopError{refusal: aerr}
			}
			r.result.Redirects = append(r.result.Redirects, next.URL.String())
			// net/http tells the next host the page it came from, query
			// included: a token or a search an open redirect would pass on.
			next.Header.Del("Referer")
			return nil
		},
	}
	resp, err := client.Do(req)
	if err != nil {
		return r, f.doError(ctx, r.result.FinalURL, timeout, err)
	}
	defer resp.Body.Close()
	res := r.result
	res.FinalURL = resp.Request.URL.String()
	res.StatusCode, res.StatusText = resp.StatusCode, statusText(resp.StatusCode)
	res.ContentType = mediaType(resp.Header.Get("Content-Type"))
	if ce := strings.TrimSpace(resp.Header.Get("Content-Encoding")); ce != "" && !strings.EqualFold(ce, "identity") {
		r.encoding = ce
	}
	body, cut, err := readBody(resp, maxBytes)
	r.body, res.Bytes, res.Truncated = body, int64(len(body)), cut
	switch {
	case ctx.Err() != nil && len(body) > 0 && !cut:
		// The time cap ran out while the body came in (a read cut by the
		// deadline may even look like a clean end): keep what came.
		res.TimedOut = true
	case ctx.Err() != nil && !cut:
		return r, abi.Errorf(abi.Timeout, "%q answered (%s) but sent no body within %s; try again later, or another URL", clip(res.FinalURL, 200), res.StatusText, timeout.Round(time.Millisecond))
	case err != nil && len(body) > 0:
		res.Note = fmt.Sprintf("the connection broke after %d bytes (%s); the content is what came before", len(body), shortErr(err))
	case err != nil:
		return r, abi.Errorf(abi.NotFound, "%q answered (%s) but its body could not be read (%s)", clip(res.FinalURL, 200), res.StatusText, shortErr(err))
	}
	return r, nil
}

// headersTooLarge reports whether the transport refused a response for
// headers past MaxResponseHeaderBytes. Neither net/http (HTTP/1.1) nor its
// bundled HTTP/2 exports the error, so their messages are matched.
func headersTooLarge(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "server response headers exceeded") || // HTTP/1.1
		strings.Contains(msg, "response header list larger than advertised limit") // HTTP/2
}

// statusText is the status as juju names it, in the result and in every
// message: the code and Go's name for it, never the server's reason phrase
// (up to 64 KiB that may hold a bare carriage return, an escape sequence,
// U+2028 or a sentence meant for the model).
func statusText(code int) string {
	return strings.TrimSpace(strconv.Itoa(code) + " " + http.StatusText(code))
}

// mediaType is a Content-Type reduced to what juju uses and shows: the
// media type and its charset, written anew; "" when it does not parse.
func mediaType(contentType string) string {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil && !errors.Is(err, mime.ErrInvalidMediaParameter) {
		return ""
	}
	cs := params["charset"]
	if cs == "" || strings.IndexFunc(cs, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == ':' || unicode.IsLetter(r) || unicode.IsDigit(r)) || r > unicode.MaxASCII
	}) >= 0 {
		return mime.FormatMediaType(mt, nil)
	}
	return mime.FormatMediaType(mt, map[string]string{"charset": strings.ToLower(cs)})
}

// doError turns a failure of the client into the tool error the model
// reads: SSRF_BLOCKED naming the address class, INVALID_ARGUMENT for a
// refused redirect or certificate, TIMEOUT, TOO_LARGE for oversized
// headers, NOT_FOUND for a host that cannot be reached.
func (f *fetcher) doError(ctx context.Context, at string, timeout time.Duration, err error) *abi.Error {
	at = clip(at, 200)
	var blocked *Blocked
	var hop hopError
	var dns *net.DNSError
	var cert *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	switch {
	case errors.As(err, &blocked):
		return blockedError(at, blocked)
	case errors.As(err, &hop):
		return hop.refusal
	case errors.Is(err, errTooManyRedirects):
		return abi.Errorf(abi.InvalidArgument, "the URL redirects more than %d times (the last hop was %q); juju stops there", MaxRedirects, at)
	case ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded):
		return abi.Errorf(abi.Timeout, "%q did not answer within %s; nothing was read. Try again later, or another URL", at, timeout.Round(time.Millisecond))
	case errors.As(err, &cert), errors.As(err, &unknownCA), errors.As(err, &hostname), errors.As(err, &invalid):
		return abi.Errorf(abi.InvalidArgument, "the TLS certificate of %q could not be verified (%s): juju reads nothing over a connection it cannot verify, and nothing was read. Use another URL", at, shortErr(err))
	case headersTooLarge(err):
		return abi.Errorf(abi.TooLarge, "%q sent response headers larger than %d KiB; juju stops there and read nothing", at, MaxHeaderBytes>>10)
	case errors.As(err, &dns):
		return abi.Errorf(abi.NotFound, "the host %q could not be resolved (%s); check the URL", dns.Name, dns.Err)
	}
	f.log.Debug("fetch failed", "url", at, "err", err)
	return abi.Errorf(abi.NotFound, "%q could not be fetched (%s)", at, shortErr(err))
}
