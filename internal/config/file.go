package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/jujutools/juju/sandbox"

	"github.com/pelletier/go-toml/v2"
)

// FileName is the config file's name inside the config directory.
const FileName = "config.toml"

// MaxFileSize bounds the config file.
const MaxFileSize = 1 << 20

// ErrInvalid wraps every problem with a setting, from the file or a flag.
var ErrInvalid = errors.New("invalid configuration")

// File is the content of a config file. A nil pointer or an empty list is a
// key the file does not set. The TOML keys are those of SPEC §8b; they are
// the only ones accepted.
type File struct {
	Mode          *Mode          `toml:"mode"`
	Sandbox       *sandbox.Mode  `toml:"sandbox"`
	AllowWebFetch *bool          `toml:"allowWebFetch"`
	Policy        PolicyTable    `toml:"policy"`
	Fetch         FetchTable     `toml:"fetch"`
	Exec          ExecTable      `toml:"exec"`
	Approvals     ApprovalsTable `toml:"approvals"`
	Journal       JournalTable   `toml:"journal"`
	Plugins       PluginsTable   `toml:"plugins"`

	// Path is where the file was read from; "" when there was none.
	Path string `toml:"-"`
}

// PolicyTable is the [policy] table: globs that only ever add to the
// built-in lists.
type PolicyTable struct {
	Deny    []string `toml:"deny"`    // extra deny globs
	Secrets []string `toml:"secrets"` // extra secret globs
}

// FetchTable is the [fetch] table.
type FetchTable struct {
	// Allow holds exact host:port pairs exempt from the private-address
	// block of fetch_url (a local dev server).
	Allow []string `toml:"allow"`
}

// ExecTable is the [exec] table.
type ExecTable struct {
	// BackgroundAfterMs is how long a command runs before the call hands
	// back a job id and the command goes on in the background.
	BackgroundAfterMs *int64 `toml:"backgroundAfterMs"`
	// StandbyIdleMs is how long the sandbox started ahead of the next
	// sandboxed command waits for it before it is let go; 0 keeps it for
	// the session.
	StandbyIdleMs *int64 `toml:"standbyIdleMs"`
}

// ApprovalsTable is the [approvals] table.
type ApprovalsTable struct {
	// TimeoutMs is how long a call held for the owner's approval waits
	// before it answers APPROVAL_PENDING.
	TimeoutMs *int64 `toml:"timeoutMs"`
	// AskInClient: when false, juju never asks the owner through the
	// client (elicitation), whose answer a client could give itself; every
	// call held for approval waits for `juju approvals` in a terminal.
	AskInClient *bool `toml:"askInClient"`
}

// JournalTable is the [journal] table: how much of its history the change
// journal keeps (the oldest changes past either limit are pruned and can no
// longer be rolled back). 0 turns a limit off.
type JournalTable struct {
	// MaxAgeDays: changes older than this many days are pruned.
	MaxAgeDays *int64 `toml:"maxAgeDays"`
	// MaxSizeMiB: the oldest changes are pruned while the journal's records
	// and pre-images take more than this many MiB.
	MaxSizeMiB *int64 `toml:"maxSizeMiB"`
}

// PluginsTable is the [plugins] table.
type PluginsTable struct {
	// UnloadAfterMs is how long a plugin loaded on demand (the task
	// discoverers, read_image) stays loaded after its last call; 0 keeps
	// it for the session.
	UnloadAfterMs *int64 `toml:"unloadAfterMs"`
}

// FileError is one problem in a config file, at a key and a line when they
// are known. It wraps ErrInvalid.
type FileError struct {
	File string // the file's path
	Line int    // 1-based; 0 when unknown
	Key  string // dotted, as in "exec.backgroundAfterMs"; "" for a syntax error
	Msg  string // what is wrong with the value, or a hint for an unknown key

	// Unknown is set when the key itself is not one juju knows.
	Unknown bool
}

func (e *FileError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	switch {
	case e.Unknown:
		fmt.Fprintf(&b, "unknown key %q", e.Key)
		if e.Msg != "" {
			fmt.Fprintf(&b, " (%s)", e.Msg)
		}
		return b.String()
	case e.Key != "":
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *FileError) Unwrap() error { return ErrInvalid }

// Load reads the config file the owner named; a missing file is an error.
func Load(path string) (*File, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, fmt.Errorf("config file: %w", err)
	}
	return Decode(path, data)
}

// LoadDefault reads config.toml in d.Config. A missing file is no error: it
// yields an empty File, and the defaults apply.
func LoadDefault(d Dirs) (*File, error) {
	path := d.ConfigFile()
	data, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("config file: %w", err)
	}
	return Decode(path, data)
}

func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkFileOwner(path, st); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: %w: larger than %d bytes", path, ErrInvalid, MaxFileSize)
	}
	return data, nil
}

// Decode parses and validates a config file's content; path names it in
// errors. Every key must be one File declares, spelt exactly; every value
// must be in range.
func Decode(path string, data []byte) (*File, error) {
	keys, parsed := scanKeys(data)
	if parsed {
		if err := checkKeys(path, keys); err != nil {
			return nil, err
		}
	}
	var f File
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, decodeError(path, err)
	}
	f.Path = path
	lines := make(map[string]int, len(keys))
	for _, k := range keys {
		lines[k.path] = k.line
	}
	if err := f.validate(path, lines); err != nil {
		return nil, err
	}
	return &f, nil
}

// decodeError turns go-toml's errors into FileErrors.
func decodeError(path string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		errs := make([]error, len(strict.Errors))
		for i, e := range strict.Errors {
			line, _ := e.Position()
			errs[i] = &FileError{File: path, Line: line, Key: strings.Join(e.Key(), "."), Unknown: true}
		}
		return errors.Join(errs...)
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, _ := de.Position()
		key := strings.Join(de.Key(), ".")
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if t, ok := knownKeys[key]; ok && strings.HasPrefix(msg, "cannot ") {
			msg = "must be " + describe(t)
		}
		return &FileError{File: path, Line: line, Key: key, Msg: msg}
	}
	return &FileError{File: path, Msg: err.Error()}
}
