package lspconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/google/shlex"
	"github.com/pelletier/go-toml/v2"

	"github.com/jujutools/juju/internal/atomicfile"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/sdk/abi"
)

// FileName is the registrations file inside the config directory.
const FileName = "lsp.toml"

// maxFileSize bounds the registrations file.
const maxFileSize = 1 << 20

// Server is one registration: a language server juju may start for files
// of its languages.
type Server struct {
	// Name identifies it (`juju lsp remove NAME`): ^[a-z0-9][a-z0-9._-]{0,63}$.
	Name string `toml:"name" json:"name"`
	// Command is the program and its arguments, run without a shell.
	Command []string `toml:"command" json:"command"`
	// Languages are names from abi.Languages.
	Languages []string `toml:"languages" json:"languages"`
	// RootMarkers are file names whose folder, the nearest above a file
	// (inside its workspace root), is the server's root for that file, in
	// order of priority: the nearest holding the first, else the second …;
	// none, or none found: the workspace root.
	RootMarkers []string `toml:"rootMarkers,omitempty" json:"rootMarkers,omitempty"`
	// InitOptions is JSON sent as initializationOptions; "" sends none.
	InitOptions string `toml:"initOptions,omitempty" json:"initOptions,omitempty"`
}

// File is the content of lsp.toml.
type File struct {
	Servers []Server `toml:"server"`
}

// nameRE is compiled on first use, not at every start.
var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`) })

// ErrInvalid wraps every problem with a registration.
var ErrInvalid = errors.New("invalid language server registration")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// Validate checks one registration.
func (s *Server) Validate() error {
	if !nameRE().MatchString(s.Name) {
		return invalid("name %q must match %s", s.Name, nameRE())
	}
	if len(s.Command) == 0 || strings.TrimSpace(s.Command[0]) == "" {
		return invalid("%s: no command", s.Name)
	}
	if len(s.Languages) == 0 {
		return invalid("%s: no language (known: %s)", s.Name, KnownLanguages())
	}
	for _, l := range s.Languages {
		if _, ok := abi.LanguageNamed(l); !ok {
			return invalid("%s: unknown language %q (known: %s)", s.Name, l, KnownLanguages())
		}
	}
	for _, m := range s.RootMarkers {
		if m == "" || strings.ContainsAny(m, `/\`) || m == "." || m == ".." {
			return invalid("%s: root marker %q must be a file or folder name", s.Name, m)
		}
	}
	if s.InitOptions != "" {
		var v map[string]any
		if err := json.Unmarshal([]byte(s.InitOptions), &v); err != nil {
			return invalid("%s: init options must be a JSON object: %v", s.Name, err)
		}
	}
	return nil
}

// KnownLanguages lists the language names registrations may use.
func KnownLanguages() string {
	names := make([]string, len(abi.Languages))
	for i, l := range abi.Languages {
		names[i] = l.Name
	}
	return strings.Join(names, ", ")
}

// SplitCommand splits a command line into words as a POSIX shell would
// (quotes, backslashes), without running one.
func SplitCommand(line string) ([]string, error) {
	words, err := shlex.Split(line)
	if err != nil {
		return nil, invalid("command %q: %v", line, err)
	}
	if len(words) == 0 {
		return nil, invalid("empty command")
	}
	return words, nil
}

// SplitList splits a comma-separated list, dropping blanks.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Path is the registrations file in the config directory configDir.
func Path(configDir string) string { return filepath.Join(configDir, FileName) }

// Load reads the registrations kept in configDir. A missing file holds
// none. A file another user owns or may write (config.CheckFileOwner) is
// refused: the programs it names run with the owner's rights.
func Load(configDir string) ([]Server, error) {
	path := Path(configDir)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := config.CheckFileOwner(path, st); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	return Decode(path, data)
}

// Decode parses a registrations file; path names it in errors.
func Decode(path string, data []byte) ([]Server, error) {
	if len(data) > maxFileSize {
		return nil, invalid("%s is larger than %d bytes", path, maxFileSize)
	}
	var f File
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, decodeError(path, err)
	}
	seen := map[string]bool{}
	for i := range f.Servers {
		s := &f.Servers[i]
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if seen[s.Name] {
			return nil, invalid("%s: %s is registered twice", path, s.Name)
		}
		seen[s.Name] = true
	}
	return f.Servers, nil
}

// decodeError names the line and the key of what go-toml refused, as the
// config file's errors do: a key misspelt by hand is named, with the keys
// a registration has, not "fields in the document are missing in the
// target struct".
func decodeError(path string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		errs := make([]error, len(strict.Errors))
		for i, e := range strict.Errors {
			line, _ := e.Position()
			known := "the file holds [[server]] tables"
			if len(e.Key()) > 1 {
				known = "a [[server]] has " + strings.Join(serverKeys, ", ")
			}
			errs[i] = fmt.Errorf("%s:%d: %w: unknown key %q (%s)", path, line, ErrInvalid, strings.Join(e.Key(), "."), known)
		}
		return errors.Join(errs...)
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, _ := de.Position()
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if k := de.Key(); len(k) == 2 && k[0] == "server" && strings.HasPrefix(msg, "cannot decode") {
			msg = "must be a string" // name, initOptions
			if k[1] == "command" || k[1] == "languages" || k[1] == "rootMarkers" {
				msg = "must be a list of strings"
			}
		}
		if key := strings.Join(de.Key(), "."); key != "" {
			msg = key + ": " + msg
		}
		return fmt.Errorf("%s:%d: %w: %s", path, line, ErrInvalid, msg)
	}
	return fmt.Errorf("%s: %w: %v", path, ErrInvalid, err)
}

// serverKeys are the keys of a [[server]] table.
var serverKeys = []string{"name", "command", "languages", "rootMarkers", "initOptions"}

// Save writes servers to configDir (made when missing), sorted by name.
func Save(configDir string, servers []Server) error {
	sort.Slice(servers, func(i, j int) bool { return servers[i].Name < servers[j].Name })
	data, err := toml.Marshal(File{Servers: servers})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(configDir, 0o700); err != nil {
		return err
	}
	header := "# juju's language servers: edit with `juju lsp add|remove`.\n\n"
	return atomicfile.Write(Path(configDir), append([]byte(header), data...), 0o600, atomicfile.Options{Sync: true})
}

// Add registers s in configDir, replacing a registration of the same name
// when replace is set.
func Add(configDir string, s Server, replace bool) error {
	if err := s.Validate(); err != nil {
		return err
	}
	servers, err := Load(configDir)
	if err != nil {
		return err
	}
	out := servers[:0]
	for _, o := range servers {
		if o.Name == s.Name {
			if !replace {
				return fmt.Errorf("%w: %s is already registered (remove it first, or pass --replace)", ErrInvalid, s.Name)
			}
			continue
		}
		// A language has one server: For gives the first by name, so a
		// second registration would be used or not by how it sorts.
		for _, l := range s.Languages {
			if slices.Contains(o.Languages, l) {
				return fmt.Errorf("%w: %s is served by %s already; a language has one server: remove %s first (juju lsp remove %s), or leave %s out of --languages",
					ErrInvalid, l, o.Name, o.Name, o.Name, l)
			}
		}
		out = append(out, o)
	}
	return Save(configDir, append(out, s))
}

// ErrNotFound reports a name that is not registered.
var ErrNotFound = errors.New("no such language server registration")

// Remove drops the registration called name from configDir.
func Remove(configDir, name string) error {
	servers, err := Load(configDir)
	if err != nil {
		return err
	}
	out := servers[:0]
	for _, o := range servers {
		if o.Name != name {
			out = append(out, o)
		}
	}
	if len(out) == len(servers) {
		return fmt.Errorf("%w: %s", ErrNotFound, name)
	}
	return Save(configDir, out)
}

// For returns the first registration serving language, if any.
func For(servers []Server, language string) (Server, bool) {
	for _, s := range servers {
		for _, l := range s.Languages {
			if l == language {
				return s, true
			}
		}
	}
	return Server{}, false
}

// Shadowed names each language of a registration that an earlier one
// serves, so the later one is never started for it: `juju lsp add`
// refuses it, but lsp.toml may be edited by hand.
func Shadowed(servers []Server) []string {
	var out []string
	for _, s := range servers {
		for _, l := range s.Languages {
			if first, _ := For(servers, l); first.Name != s.Name {
				out = append(out, fmt.Sprintf("%s is served by %s, so %s is never started for it: remove %s from one of them", l, first.Name, s.Name, l))
			}
		}
	}
	return out
}
