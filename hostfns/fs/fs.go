package fs

import (
	"context"
	"hash/maphash"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// Defaults of Options.
const (
	DefaultMaxReadBytes   = 10 << 20
	DefaultMaxGlobEntries = 100_000
	DefaultMaxListEntries = 10_000
)

// Options bounds what the host functions do.
type Options struct {
	// MaxReadBytes caps the body of one read (DefaultMaxReadBytes when 0).
	MaxReadBytes int64
	// MaxGlobEntries caps the entries of one glob (DefaultMaxGlobEntries
	// when 0); a request may ask for fewer.
	MaxGlobEntries int
	// MaxListEntries caps the entries of one listing (DefaultMaxListEntries
	// when 0); a request may ask for fewer, and read on by offset.
	MaxListEntries int
	// Logger receives unexpected failures; nil discards them.
	Logger *slog.Logger
	// Observe, when set, is told of every file read (the resolved path
	// and the file's stat at the read); the journal uses it to refuse an
	// edit of a file changed since it was read. When the read passed over
	// the whole file, whole is true and sum is the Sum64 of its content
	// hashed by maphash with Seed.
	Observe func(ctx context.Context, r *policy.Resolved, fi os.FileInfo, sum uint64, whole bool)
	// Seed is the seed of the digest Observe is told; Observe needs it.
	Seed maphash.Seed
}

// server holds what every handler needs.
type server struct {
	pol  *policy.Policy
	opts Options
	log  *slog.Logger
}

// New returns the fs.read host functions over the policy p.
func New(p *policy.Policy, opts Options) []hostfns.Func {
	if opts.MaxReadBytes <= 0 {
		opts.MaxReadBytes = DefaultMaxReadBytes
	}
	if opts.MaxGlobEntries <= 0 {
		opts.MaxGlobEntries = DefaultMaxGlobEntries
	}
	if opts.MaxListEntries <= 0 {
		opts.MaxListEntries = DefaultMaxListEntries
	}
	s := &server{pol: p, opts: opts, log: opts.Logger}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return []hostfns.Func{
		{Name: abi.FnFSRead, Capability: abi.CapFSRead, Handle: hostfns.TypedCodec(readCodec, s.read)},
		{Name: abi.FnFSReads, Capability: abi.CapFSRead, Handle: hostfns.TypedCodec(readsCodec, s.reads)},
		{Name: abi.FnFSList, Capability: abi.CapFSRead, Handle: hostfns.Typed(s.list)},
		{Name: abi.FnFSStat, Capability: abi.CapFSRead, Handle: hostfns.Typed(s.stat)},
		{Name: abi.FnFSGlob, Capability: abi.CapFSRead, Handle: hostfns.Typed(s.glob)},
	}
}

// modTime formats a modification time for the wire: RFC 3339 in UTC, with
// the nanoseconds the file system keeps.
func modTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// canceled turns a done context into a tool error.
func canceled(ctx context.Context) *abi.Error {
	if ctx.Err() == nil {
		return nil
	}
	return abi.Errorf(abi.Timeout, "the call ran out of time before the file system work was done; narrow the request (a smaller folder or a more precise pattern) and try again")
}

// internal logs an unexpected failure and returns the error the plugin sees,
// which names only the display path and the operation.
func (s *server) internal(op, display string, err error) *abi.Error {
	s.log.Error("fs host function failed", "op", op, "path", display, "err", err)
	return abi.Errorf(abi.Internal, "%q could not be %s because of an unexpected file system error; try again, or choose another path", display, pastTense(op))
}

func pastTense(op string) string {
	switch op {
	case "read":
		return "read"
	case "list":
		return "listed"
	case "hash":
		return "hashed"
	}
	return "examined"
}

// notAFolder is the error for a walk or listing asked to start at r, a
// file; next says what to do instead. A link to a file is named by the path
// asked for, as a link to its target: naming only the target would tell
// the model of a file it never mentioned. A FIFO, socket or device is
// named as what it is, without next.
func notAFolder(r *policy.Resolved, next string) *abi.Error {
	if r.Info != nil && !r.Info.Mode().IsRegular() {
		// A FIFO, socket or device: read_file refuses it too, so next
		// (often "read it with read_file") would be a dead end.
		name := r.Display
		if r.Link != "" {
			name = r.Name
		}
		return abi.Errorf(abi.InvalidArgument, "%q is a FIFO, socket or device, not a folder; juju neither lists nor reads it, so pass a folder", name)
	}
	if r.Link != "" {
		return abi.Errorf(abi.InvalidArgument, "%q is a link to the file %q, not a folder; %s", r.Name, r.Display, next)
	}
	return abi.Errorf(abi.InvalidArgument, "%q is a file, not a folder; %s", r.Display, next)
}
