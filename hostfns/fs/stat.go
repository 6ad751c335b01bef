package fs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"

	"github.com/jujutools/juju/sdk/abi"
)

func (s *server) stat(ctx context.Context, req *abi.StatRequest, _ []byte) (*abi.StatResult, []byte, *abi.Error) {
	// A regular file is opened even without Hash: the open checks the
	// file's identity and the hard-link rule, and its stat is the freshest.
	r, f, info, ok := s.pol.ResolveRegular(req.Path)
	if !ok {
		var e *abi.Error
		if r, e = s.pol.Resolve(req.Path); e != nil {
			return nil, nil, e
		}
		if info = r.Info; info.Mode().IsRegular() {
			if f, info, e = s.pol.OpenRead(r); e != nil {
				return nil, nil, e
			}
		}
	}
	res := &abi.StatResult{Path: r.Name, Link: r.Link}
	size := info.Size()
	if f != nil {
		defer f.Close()
		if req.Hash && size <= abi.MaxHashBytes {
			sum, n, e := s.hash(ctx, f, size, r.Display)
			if e != nil {
				return nil, nil, e
			}
			res.SHA256, size = sum, n
		}
	}
	res.Type = typeOf(info.Mode())
	if !info.IsDir() {
		res.Size = size // a folder's size is block bookkeeping: 0
	}
	res.ModTime = modTime(info.ModTime())
	res.Mode = info.Mode().String()
	return res, nil, nil
}

// hash returns the sha256 of the first size bytes of f, the size its
// stat said, and how many it hashed: size, or fewer when the file shrank
// since. The size, the time and the hash a stat answers describe the same
// bytes: hashed to its end, a file written to while it was hashed (a log)
// had the hash of more bytes than its size said, and one growing all
// along was hashed until the call ran out of time.
func (s *server) hash(ctx context.Context, f io.Reader, size int64, display string) (string, int64, *abi.Error) {
	h := sha256.New()
	n, err := io.CopyBuffer(h, io.LimitReader(ctxReader{ctx, f}, size), make([]byte, hashBuffer(size)))
	if err != nil {
		if e := canceled(ctx); e != nil {
			return "", 0, e
		}
		return "", 0, s.internal("hash", display, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// hashBuffer is the size of the buffer that hashes a file of size bytes:
// the whole file and the read that finds its end, up to 256 KiB. A fixed
// 256 KiB made every file_info of a small file allocate and clear it, which
// was half of that call's time.
func hashBuffer(size int64) int {
	return int(min(max(size+1, 512), 256<<10))
}

// ctxReader stops reading once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(b)
}
