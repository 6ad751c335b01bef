// Package token makes and reads the local bearer token of `juju serve`: a
// secret of 32 random bytes kept in a file of mode 0600 (by default in the
// owner's config directory), which local MCP clients send as
// `Authorization: Bearer …`.
//
// The file is created at most once, whatever the number of processes that
// race to create it: the token is written to a temporary file that is then
// hard-linked into place, so a reader never sees half a token and the first
// writer wins. An existing file that others may read, or that another user
// owns, is refused, not used.
package token

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// FileName is the token file's name in the config directory.
const FileName = "token"

// prefix marks juju's local tokens, so secret scanners and people can
// recognise one.
const prefix = "juju_"

// MinLen is the shortest token accepted from a file: shorter secrets are
// guessable.
const MinLen = 32

// Path is the default token file in the config directory.
func Path(configDir string) string { return filepath.Join(configDir, FileName) }

// ErrExposed reports a token file others than its owner may read or write.
var ErrExposed = errors.New("token file is accessible to other users")

// ErrForeign reports a token file that belongs to another user, who could
// have chosen the token in it.
var ErrForeign = errors.New("token file belongs to another user")

// ErrMalformed reports a token file whose content is not a usable token.
var ErrMalformed = errors.New("token file does not hold a usable token")

// New returns a fresh token: the prefix and 32 random bytes, base64url.
func New() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand panics rather)
	return prefix + base64.RawURLEncoding.EncodeToString(b)
}

// LoadOrCreate reads the token in path, creating the file (mode 0600, its
// folder 0700) with a new token when it does not exist.
func LoadOrCreate(path string) (string, error) {
	tok, err := Load(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return tok, err
	}
	if err := create(path); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("creating the token file: %w", err)
	}
	return Load(path)
}

// Load reads the token in path. The file must be a regular file of the user
// juju runs as, that only they may read and write, holding one token of at
// least MinLen printable characters (surrounding white space is ignored).
func Load(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s: %w (not a regular file)", path, ErrMalformed)
	}
	if !ownedByUs(st) {
		return "", fmt.Errorf("%s: %w, who may have chosen the token in it; use a token file of your own (delete this one, or pick another path)", path, ErrForeign)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("%s: %w (mode %04o); run chmod 600 on it", path, ErrExposed, st.Mode().Perm())
	}
	buf := make([]byte, 4096)
	n, _ := f.Read(buf)
	tok := strings.TrimSpace(string(buf[:n]))
	if !valid(tok) {
		return "", fmt.Errorf("%s: %w (it needs one line of at least %d printable characters)", path, ErrMalformed, MinLen)
	}
	return tok, nil
}

// valid reports whether tok is long enough and printable ASCII without
// spaces, as an HTTP header value must be.
func valid(tok string) bool {
	if len(tok) < MinLen || len(tok) > 1024 {
		return false
	}
	for _, c := range []byte(tok) {
		if c <= ' ' || c >= 0x7f {
			return false
		}
	}
	return true
}

// create writes a new token to a temporary file and links it into place;
// fs.ErrExist means another process made the file first.
func create(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".token-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(New() + "\n")
	if err == nil {
		err = tmp.Chmod(0o600)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if err = errors.Join(err, tmp.Close()); err != nil {
		return err
	}
	return os.Link(tmp.Name(), path)
}
