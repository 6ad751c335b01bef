package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/jujutools/juju/internal/installed"
)

// Report is the verdict on one installed plugin.
type Report struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	SHA256  string `json:"sha256,omitempty"` // pinned
	OK      bool   `json:"ok"`
	Error   string `json:"error,omitempty"`
}

// Verify re-reads, re-validates and re-hashes every installed plugin, or
// only the one named, against the pin taken at install, and checks that
// its tools still collide with nothing. It never changes anything.
func Verify(data, name string) ([]Report, error) {
	var names []string
	if name != "" {
		if _, err := installedDir(data, name); err != nil {
			return nil, err
		}
		names = []string{name}
	} else {
		entries, err := os.ReadDir(installed.PluginsDir(data))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		for _, e := range entries {
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
	}
	out := []Report{}
	for _, n := range names {
		out = append(out, verifyOne(data, n))
	}
	return out, nil
}

func verifyOne(data, name string) Report {
	r := Report{Name: name}
	in, err := installed.ReadInstalled(filepath.Join(installed.PluginsDir(data), name))
	if in != nil {
		r.Version = in.Manifest.Version
		r.SHA256 = in.Pin.SHA256
	}
	if err == nil {
		err = in.CheckWasm()
	}
	if err == nil {
		err = collisions(data, in.Manifest)
	}
	if err != nil {
		r.Error = fmt.Sprint(err)
		return r
	}
	r.OK = true
	return r
}
