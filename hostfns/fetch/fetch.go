package fetch

import (
	"context"
	"crypto/x509"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// Defaults and ceilings of Options and of a request.
const (
	DefaultMaxBytes = 4 << 20 // body bytes read, after decompression
	MaxMaxBytes     = 8 << 20
	DefaultTimeout  = 30 * time.Second // the whole fetch, redirects included
	MaxTimeout      = 60 * time.Second
	MaxRedirects    = 10
	MaxHeaderBytes  = 64 << 10 // response headers of one hop
	// deadlineMargin is left before the plugin call's own deadline, for the
	// plugin to answer.
	deadlineMargin = time.Second
	// minConvert is the least time a Markdown conversion gets when the
	// fetch used up its time cap (a body that dripped until the cap): a
	// 1 MB page converts in about a second on a loaded machine.
	minConvert = 2 * time.Second
	// convertSlots is how many Markdown conversions run at once, those
	// given up on included (each holds a DOM and its garbage).
	convertSlots = 2
)

// Options configure the fetch host function. They are fixed when New runs.
type Options struct {
	// Enabled is the owner's allowWebFetch; when false every call answers
	// FETCH_DISABLED and nothing is contacted.
	Enabled bool
	// Allow holds exact host:port pairs exempt from the special-purpose
	// address block (fetch.allow), as the config file has checked them.
	Allow []string
	// UserAgent is sent with every request.
	UserAgent string
	// RootCAs verify servers' certificates; nil means the system's roots,
	// with SSL_CERT_FILE and SSL_CERT_DIR honoured.
	RootCAs *x509.CertPool
	// Timeout and MaxBytes are a request's defaults (DefaultTimeout,
	// DefaultMaxBytes when 0).
	Timeout  time.Duration
	MaxBytes int64
	// LiftMemoryLimit, when set, lifts the host's soft memory limit during
	// a Markdown conversion (it allocates a DOM and much garbage; under the
	// limit the collector would run throughout) and returns the restore.
	LiftMemoryLimit func() (restore func())
	// Observe, when set, is told of every fetch the function makes, for the
	// audit log; ctx is the call's.
	Observe func(ctx context.Context, f Fetched)
	Logger  *slog.Logger
}

// Fetched is one fetch as the audit records it.
type Fetched struct {
	URL      string // as asked
	FinalURL string // the last hop's, when a response came
	Status   int    // the last hop's HTTP status; 0 without a response
	Outcome  string // "ok" or the error code
}

// fetcher serves FnFetch.
type fetcher struct {
	opts  Options
	guard *guard
	// transport is the one HTTP transport, made on the first fetch (loading
	// the system's root certificates took most of juju's start); every
	// connection dials through guard.
	transport func() *http.Transport
	sem       chan struct{} // conversions at once
	// toMarkdown is ToMarkdown (a test slows it down).
	toMarkdown func(ctx context.Context, page []byte, pageURL string) (md []byte, title, cut string, err error)
	log        *slog.Logger
}

// New returns the fetch host function. An allowed pair that is not
// host:port is left out and logged (the config file refuses them first).
func New(opts Options) []hostfns.Func {
	return []hostfns.Func{{Name: abi.FnFetch, Capability: abi.CapNetFetch, Handle: hostfns.Typed(newFetcher(opts).fetch)}}
}

func newFetcher(opts Options) *fetcher {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	g := &guard{allow: map[string]bool{}, local: interfaceAddrs, route: localRoute}
	for _, a := range opts.Allow {
		k, err := canonicalHostPort(a)
		if err != nil {
			log.Warn("fetch.allow entry ignored", "entry", a, "err", err)
			continue
		}
		g.allow[k] = true
	}
	f := &fetcher{opts: opts, guard: g, sem: make(chan struct{}, convertSlots), toMarkdown: ToMarkdown, log: log}
	f.transport = sync.OnceValue(f.newTransport)
	return f
}

func (f *fetcher) fetch(ctx context.Context, req *abi.FetchRequest, _ []byte) (*abi.FetchResult, []byte, *abi.Error) {
	res, body, aerr := f.do(ctx, req)
	if f.opts.Observe != nil {
		rec := Fetched{URL: redacted(req.URL), Outcome: "ok"}
		if res != nil {
			rec.URL, rec.FinalURL, rec.Status = res.URL, res.FinalURL, res.StatusCode
		}
		if aerr != nil {
			rec.Outcome = string(aerr.Code)
		}
		f.opts.Observe(ctx, rec)
	}
	if aerr != nil {
		return nil, nil, aerr
	}
	return res, body, nil
}

// do checks the request, fetches and converts.
func (f *fetcher) do(ctx context.Context, req *abi.FetchRequest) (*abi.FetchResult, []byte, *abi.Error) {
	if !f.opts.Enabled {
		return nil, nil, abi.Errorf(abi.FetchDisabled,
			"web fetches are off on this machine: nothing was contacted. Only the owner can enable them (allowWebFetch = true in juju's config, or juju stdio --allow-web-fetch); do not retry")
	}
	switch req.Format {
	case "":
		req.Format = abi.FetchMarkdown
	case abi.FetchMarkdown, abi.FetchText, abi.FetchRaw:
	default:
		return nil, nil, abi.Errorf(abi.InvalidArgument, "format %q is not one of markdown, text, raw", req.Format)
	}
	if req.MaxBytes < 0 || req.TimeoutMs < 0 {
		return nil, nil, abi.Errorf(abi.InvalidArgument, "maxBytes and timeoutMs cannot be negative")
	}
	maxBytes := f.opts.MaxBytes
	if req.MaxBytes > 0 {
		maxBytes = min(req.MaxBytes, MaxMaxBytes)
	}
	timeout := f.opts.Timeout
	if req.TimeoutMs > 0 {
		timeout = hostfns.Millis(req.TimeoutMs, MaxTimeout)
	}
	if dl, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(dl)-deadlineMargin)
	}
	if timeout <= 0 {
		return nil, nil, abi.Errorf(abi.Timeout, "no time is left in this call to fetch the URL; try again")
	}
	start := time.Now()
	u, aerr := f.guard.checkURL(req.URL)
	if aerr != nil {
		return nil, nil, aerr
	}
	resp, aerr := f.get(ctx, u, maxBytes, timeout)
	if aerr != nil {
		return resp.result, nil, aerr
	}
	// The conversion runs within the same time cap, or minConvert when the
	// fetch used it up, never past the call's own deadline.
	end := start.Add(timeout)
	if floor := time.Now().Add(minConvert); end.Before(floor) {
		end = floor
	}
	if dl, ok := ctx.Deadline(); ok && dl.Add(-deadlineMargin).Before(end) {
		end = dl.Add(-deadlineMargin)
	}
	cctx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	out := f.render(cctx, req.Format, resp)
	return resp.result, out, nil
}

// redacted is a URL as the audit may keep it: without a password (the
// audit cuts it past MaxURL, saying its length and hash).
func redacted(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		raw = u.Redacted()
	}
	return raw
}
