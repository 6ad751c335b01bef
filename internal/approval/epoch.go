package approval

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// An approval is the owner's consent to one call, with its arguments, as
// the workspace stood when they were asked: "bash s.sh" approved, then
// s.sh rewritten by an edit tool, is not the call the owner read. So the
// store keeps the workspace's epoch, a token the server changes (Bump)
// after every change made through juju: each journaled write, each call
// that may change files (tiers E and X) before and after it runs, each
// command job that ends. A request records the epoch it was asked in; an
// approval is used only while the epoch is the same (host/gate.go),
// otherwise the owner is asked again.
//
// The epoch is a random token rather than a counter: processes serving the
// same workspace bump it without a lock, and two bumps at once still leave
// a token no reader saw before, where a counter read, incremented and
// written back by two processes at once could return to a value a reader
// had seen. The token is written over the file's bytes in place, not
// renamed into place: a rename over a file made ext4 flush, 1.2 ms a bump
// (BenchmarkBump), paid twice by every call of tier E or X. A reader that
// catches a write half done reads a token that is neither: it can only
// make an approval ask again, never let one through.

// epochFile holds the token, in the approvals folder beside the approvals.
const epochFile = "epoch"

// Epoch returns the workspace's epoch: "" until the first Bump. When the
// token cannot be read, or a bump failed in this process, it returns a
// fresh token each time, so no approval matches: a change juju could not
// note must not let an approval through.
func (s *Store) Epoch() string {
	if s.bumpFailed.Load() {
		return newToken()
	}
	b, err := os.ReadFile(filepath.Join(s.dir, epochFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ""
	case err != nil:
		return newToken()
	}
	return string(b)
}

// Bump gives the workspace a new epoch: every approval asked before it no
// longer runs its call without asking the owner again. The server calls it
// after every change made through juju.
func (s *Store) Bump() error {
	err := s.bump()
	if err != nil {
		s.bumpFailed.Store(true)
	}
	return err
}

func (s *Store) bump() error {
	name := filepath.Join(s.dir, epochFile)
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o600)
	if errors.Is(err, fs.ErrNotExist) { // the first write of the workspace
		if err := os.MkdirAll(s.dir, 0o700); err != nil {
			return err
		}
		f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o600)
	}
	if err != nil {
		return err
	}
	_, err = f.WriteAt([]byte(newToken()), 0) // every token has the same length
	return errors.Join(err, f.Close())
}

// newToken is 128 random bits in hex.
func newToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
