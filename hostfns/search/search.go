package search

import (
	"context"
	"io"
	"log/slog"
	"os/exec"
	"time"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/hostfns/fs"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// Defaults of Options.
const (
	DefaultTimeout    = 20 * time.Second
	DefaultMaxResults = 10_000
	DefaultMaxOutput  = 64 << 20
	// MaxLineBytes cuts the text of one line in results.
	MaxLineBytes = 1000
)

// Options configures the search host function.
type Options struct {
	// RG is the ripgrep program. Empty means "rg" looked up on PATH when
	// New runs; where no program is found, the host searches by itself
	// (native.go), and results name the engine "juju".
	RG string
	// Timeout caps one search (DefaultTimeout when 0); a request may ask for less.
	Timeout time.Duration
	// MaxResults caps the results of one search (DefaultMaxResults when 0).
	MaxResults int
	// MaxOutput caps the bytes read from rg (DefaultMaxOutput when 0).
	MaxOutput int64
	// Logger receives unexpected failures; nil discards them.
	Logger *slog.Logger
}

type server struct {
	pol      *policy.Policy
	opts     Options
	rg       string // "" when unavailable
	excludes []string
	log      *slog.Logger
	leftOuts fs.LeftOuts // what the last walks found, for ignoreFile
}

// New returns the search host function over the policy p.
func New(p *policy.Policy, opts Options) []hostfns.Func {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxResults <= 0 {
		opts.MaxResults = DefaultMaxResults
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = DefaultMaxOutput
	}
	s := &server{pol: p, opts: opts, log: opts.Logger}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	name := opts.RG
	if name == "" {
		name = "rg"
	}
	if path, err := exec.LookPath(name); err == nil {
		s.rg = path
	}
	// rg is told to skip every secret and deny glob; the policy checks
	// every result anyway.
	s.excludes = append(p.Secrets(), p.Deny()...)
	return []hostfns.Func{
		{Name: abi.FnSearch, Capability: abi.CapFSRead, Handle: hostfns.Typed(s.search)},
	}
}

// search serves one request.
func (s *server) search(ctx context.Context, req *abi.SearchRequest, _ []byte) (*abi.SearchResult, []byte, *abi.Error) {
	if aerr := validate(req); aerr != nil {
		return nil, nil, aerr
	}
	path := req.Path
	if path == "" {
		path = "."
	}
	r, aerr := s.pol.Resolve(path)
	if aerr != nil {
		return nil, nil, aerr
	}
	if inGit(r.Rel) {
		// rg skips .git in a folder, but would search one named.
		return nil, nil, abi.Errorf(abi.PathDenied, "%q is inside .git, which is never searched; search a folder of the work tree, and use the git tools for the repository's history", r.Display)
	}
	if !r.Info.IsDir() && !r.Info.Mode().IsRegular() {
		return nil, nil, abi.Errorf(abi.InvalidArgument, "%q is neither a folder nor a file; search a folder or a file", r.Display)
	}
	if policy.MultiLinked(r.Info) {
		// A hard link to a private key named as the path is SECRET_DENIED,
		// as every other tool answers it, whatever the pattern: the
		// silence of admit is for the files of a folder searched.
		f, _, aerr := s.pol.OpenRead(r)
		if aerr == nil {
			f.Close()
		} else if aerr.Code == abi.SecretDenied {
			return nil, nil, aerr
		}
	}
	return s.run(ctx, req, r)
}
