// Package state is the state capability: each plugin's own small
// key-value space, per workspace, kept as files in the workspace's state
// folder (state/<plugin>.<space>/<key>, Folder), outside every root. The core
// plugin keeps its todo list there (state/core/). A plugin's remove deletes
// its state in every workspace (Remove). Values are written atomically (a temporary file, fsync,
// rename), so a reader sees the old value or the new one.
package state

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/atomicfile"
	"github.com/jujutools/juju/sdk/abi"
)

// Bounds of one plugin's space in one workspace: a value, the keys, and
// the values together. A plugin that wrote key after key would otherwise
// fill the owner's disk at a megabyte a write.
const (
	MaxValue = 1 << 20
	MaxKeys  = 256
	MaxTotal = 32 << 20
)

// keyRE is compiled on first use, not at every start: its counted
// repetition compiles to 860 allocations (a millisecond of juju's start).
var keyRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`) })

// New returns the state host functions over the workspace's state folder.
func New(stateDir string) []hostfns.Func {
	s := &server{dir: filepath.Join(stateDir, "state")} // Remove's too
	return []hostfns.Func{
		{Name: abi.FnStateGet, Capability: abi.CapState, Handle: hostfns.Typed(s.get)},
		{Name: abi.FnStatePut, Capability: abi.CapState, Handle: hostfns.Typed(s.put)},
	}
}

type server struct {
	dir string
	// mu makes a put's room check and its write one step: eight puts at
	// once each found room for itself and passed the bound together.
	mu sync.Mutex
}

// file returns the file of key for the calling plugin.
func (s *server) file(ctx context.Context, key string) (string, *abi.Error) {
	if !keyRE().MatchString(key) || key == "." || key == ".." {
		return "", abi.Errorf(abi.InvalidArgument, "the state key %q is not valid; use 1 to 64 letters, digits, dots, dashes or underscores", key)
	}
	if deviceName(key) {
		return "", abi.Errorf(abi.InvalidArgument, "the state key %q names a device on Windows; choose another name", key)
	}
	c, _ := hostfns.CallerFrom(ctx)
	if c.Plugin == "" {
		return "", abi.Errorf(abi.Internal, "the host does not know which plugin is calling; report this to the owner")
	}
	return filepath.Join(s.dir, Folder(c.Plugin, c.Space), key), nil
}

// deviceName reports whether key is, up to its first dot and in any case,
// one of the names Windows opens as a device in every folder (CON, NUL,
// COM1, ...): a plugin's key must name a file in its own folder on every
// system, so these are refused everywhere.
func deviceName(key string) bool {
	stem, _, _ := strings.Cut(key, ".")
	switch strings.ToUpper(stem) {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(stem) == 4 {
		u := strings.ToUpper(stem[:3])
		return (u == "COM" || u == "LPT") && stem[3] >= '0' && stem[3] <= '9'
	}
	return false
}

// Folder is the name of the folder holding the state of plugin in a
// workspace's state folder, for the install whose space is space: the
// plugin's name, then a dot and the space when it has one (a plugin's name
// holds no dot, so no plugin's folder is another's).
func Folder(plugin, space string) string {
	if space == "" {
		return plugin
	}
	return plugin + "." + space
}

// Remove deletes every state folder of plugin, of any install, in each of
// the workspace state folders workspaces (config.Dirs.Workspaces), and
// returns how many held one. It goes on past a folder it cannot delete
// and returns the first error with the count.
func Remove(workspaces []string, plugin string) (int, error) {
	n := 0
	var first error
	for _, w := range workspaces {
		dir := filepath.Join(w, "state")
		entries, _ := os.ReadDir(dir)
		held := false
		for _, e := range entries {
			if name := e.Name(); name != plugin && !strings.HasPrefix(name, plugin+".") {
				continue
			}
			held = true
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil && first == nil {
				first = err
			}
		}
		if held {
			n++
		}
	}
	return n, first
}

func (s *server) get(ctx context.Context, req *abi.StateRequest, _ []byte) (*abi.StateResult, []byte, *abi.Error) {
	name, e := s.file(ctx, req.Key)
	if e != nil {
		return nil, nil, e
	}
	b, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return &abi.StateResult{}, nil, nil
	}
	if err != nil {
		return nil, nil, abi.Errorf(abi.Internal, "juju could not read its state; try again, and tell the owner if it persists")
	}
	return &abi.StateResult{Found: true}, b, nil
}

func (s *server) put(ctx context.Context, req *abi.StateRequest, body []byte) (*abi.Status, []byte, *abi.Error) {
	name, e := s.file(ctx, req.Key)
	if e != nil {
		return nil, nil, e
	}
	if req.Delete {
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, abi.Errorf(abi.Internal, "juju could not change its state; try again")
		}
		return &abi.Status{}, nil, nil
	}
	if len(body) > MaxValue {
		return nil, nil, abi.Errorf(abi.TooLarge, "the value is larger than %d KiB; keep less", MaxValue>>10)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := roomFor(name, len(body)); e != nil {
		return nil, nil, e
	}
	if err := writeAtomic(name, body); err != nil {
		return nil, nil, abi.Errorf(abi.Internal, "juju could not save its state; try again, and tell the owner if it persists")
	}
	return &abi.Status{}, nil, nil
}

// roomFor checks that the plugin's space can take n bytes at name: at most
// MaxKeys keys and MaxTotal bytes, the value name holds now not counted.
func roomFor(name string, n int) *abi.Error {
	entries, err := os.ReadDir(filepath.Dir(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return abi.Errorf(abi.Internal, "juju could not read its state; try again, and tell the owner if it persists")
	}
	keys, total := 1, int64(n)
	for _, e := range entries {
		if e.Name() == filepath.Base(name) {
			continue
		}
		keys++
		if fi, err := e.Info(); err == nil {
			total += fi.Size()
		}
	}
	if keys > MaxKeys || total > MaxTotal {
		return abi.Errorf(abi.TooLarge, "this plugin's state would hold %d keys and %d KiB, past its %d keys and %d MiB; delete keys it no longer needs (put with delete) or keep less", keys, total>>10, MaxKeys, MaxTotal>>20)
	}
	return nil
}

// writeAtomic replaces name with data, synced, creating its folder.
func writeAtomic(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(name, data, 0o600, atomicfile.Options{Sync: true})
}
