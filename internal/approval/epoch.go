package approval

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
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

// Unchanged is the epoch of a workspace no juju has noted a change of yet
// (no token written). It is not "": an approval recorded by a juju that
// kept no epoch has none (Request.Epoch ""), and the files may have
// changed through that juju after the owner gave it, unnoted; so such an
// approval matches no epoch, and its call asks the owner again.
const Unchanged = "0"

// Workspaces may overlap: juju serving ~/proj and another serving
// ~/proj/sub (or ~/proj with a second root) have a state folder each, and
// so an epoch each, over the same files. A yes given to "bash sub/s.sh"
// in the first must not run the script the second rewrote since. So a
// store told its roots (Options.Roots) records them beside its epoch
// (rootsFile), and its Epoch is that of every workspace whose roots
// overlap its own, found among the sibling state folders as it is read:
// a change through any of them moves it. A workspace whose roots overlap
// none keeps its own token as its epoch.

// rootsFile records, in the approvals folder, the roots of the workspace
// the folder belongs to (Options.Roots), written once.
const rootsFile = "roots.json"

// Epoch returns the workspace's epoch: Unchanged until the first Bump,
// never "". When the token cannot be read, or a bump failed in this
// process, it returns a fresh token each time, so no approval matches: a
// change juju could not note must not let an approval through.
func (s *Store) Epoch() string {
	if s.bumpFailed.Load() {
		return newToken()
	}
	own, ok := readEpoch(s.dir)
	if !ok {
		return newToken()
	}
	if own == "" {
		own = Unchanged
	}
	others := s.overlapping()
	if len(others) == 0 {
		return own
	}
	h := sha256.New()
	h.Write([]byte(own))
	for _, d := range others {
		e, ok := readEpoch(d)
		if !ok {
			return newToken()
		}
		h.Write([]byte("\x00" + filepath.Base(filepath.Dir(d)) + "\x00" + e))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// readEpoch reads the token of the approvals folder dir: "" when it has
// none yet, ok false when it cannot be read.
func readEpoch(dir string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(dir, epochFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", true
	case err != nil:
		return "", false
	}
	return string(b), true
}

// overlapping lists the approvals folders of the other workspaces, beside
// this one's state folder, whose recorded roots overlap this store's
// roots (one the same as, or inside, the other) and that have an epoch,
// sorted. Without Options.Roots it lists none.
func (s *Store) overlapping() []string {
	if len(s.opts.Roots) == 0 {
		return nil
	}
	all, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(s.dir)), "*", filepath.Base(s.dir)))
	var out []string
	for _, d := range all {
		if filepath.Clean(d) == filepath.Clean(s.dir) {
			continue
		}
		if _, err := os.Lstat(filepath.Join(d, epochFile)); err != nil {
			continue // no change made through it yet
		}
		var roots []string
		if readJSON(filepath.Join(d, rootsFile), &roots) != nil || !overlap(roots, s.opts.Roots) {
			continue
		}
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// overlap reports whether a root of a is the same as a root of b, or
// inside it, or holds it.
func overlap(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if within(x, y) || within(y, x) {
				return true
			}
		}
	}
	return false
}

// within reports whether path p is dir or inside it.
func within(p, dir string) bool {
	p, dir = filepath.Clean(p), filepath.Clean(dir)
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// recordRoots writes the roots file once the folder exists, so that the
// overlapping workspaces' epochs take this one's in (overlapping).
func (s *Store) recordRoots() {
	if len(s.opts.Roots) == 0 || s.rootsKept.Load() {
		return
	}
	err := writeOnce(filepath.Join(s.dir, rootsFile), s.opts.Roots)
	if err == nil || errors.Is(err, fs.ErrExist) {
		s.rootsKept.Store(true)
	}
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
	s.recordRoots()
	return errors.Join(err, f.Close())
}

// newToken is 128 random bits in hex.
func newToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
