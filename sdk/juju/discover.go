package juju

import (
	"encoding/json"
	"fmt"
	"runtime/debug"

	"github.com/jujutools/juju/sdk/abi"
)

// DiscoverFunc is a task discoverer: it gets the files that matched its
// globs and returns the tasks it found in them. It reads those files with
// ReadFile (capability fs.read) and never runs project code. A file it
// cannot read or parse belongs in the result's Warnings, naming the file,
// so the other files' tasks still come back; a returned error fails only
// this discoverer, and juju reports it as a warning too.
type DiscoverFunc func(req abi.DiscoverRequest) (*abi.DiscoverResult, error)

// discoverer is one registered discoverer.
type discoverer struct {
	name  string
	files []string
	fn    DiscoverFunc
}

var (
	discoverers      []*discoverer
	discovererByName = map[string]*discoverer{}
)

// discovererNamePattern is what a discoverer's name must match.
const discovererNamePattern = `^[a-z0-9][a-z0-9-]{0,63}$`

// validDiscovererName reports whether name matches discovererNamePattern
// (checked by hand: a regexp compiled when the package starts would cost
// every instance of every plugin a millisecond inside wasm).
func validDiscovererName(name string) bool {
	if len(name) == 0 || len(name) > 64 || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Discoverer registers a task discoverer named name (^[a-z0-9][a-z0-9-]{0,63}$,
// unique in the plugin), woken by the files matching one of the globs in
// files. A glob without a slash ("Makefile", "*.mk") matches a file's name
// in any folder; one with a slash ("build/*.mk") matches the path from the
// root. project_overview finds the matching files in one walk of the
// workspace and calls fn with them (paths relative to the first root,
// sorted). Call it from init or main; it panics on a bad name, a duplicate
// or no globs, as those are mistakes in the plugin's code.
//
//	func init() {
//		juju.Discoverer("just", []string{"justfile", ".justfile"}, discoverJust)
//	}
func Discoverer(name string, files []string, fn DiscoverFunc) {
	switch {
	case !validDiscovererName(name):
		panic(fmt.Sprintf("juju: discoverer name %q must match %s", name, discovererNamePattern))
	case discovererByName[name] != nil:
		panic(fmt.Sprintf("juju: discoverer %q registered twice", name))
	case len(files) == 0:
		panic(fmt.Sprintf("juju: discoverer %q names no file globs", name))
	case fn == nil:
		panic(fmt.Sprintf("juju: discoverer %q has no function", name))
	}
	d := &discoverer{name: name, files: append([]string(nil), files...), fn: fn}
	discoverers = append(discoverers, d)
	discovererByName[name] = d
}

// discovererSpecs lists the registered discoverers for Describe.
func discovererSpecs() []abi.DiscovererSpec {
	if len(discoverers) == 0 {
		return nil
	}
	out := make([]abi.DiscovererSpec, len(discoverers))
	for i, d := range discoverers {
		out[i] = abi.DiscovererSpec{Name: d.name, Files: d.files}
	}
	return out
}

// serveDiscover answers one juju_discover: a DiscoverRequest in, a
// DiscoverResult out. It never fails: every problem is an error inside the
// result.
func serveDiscover(input []byte) []byte {
	res := runDiscover(input)
	if res.Tasks == nil {
		res.Tasks = []abi.Task{}
	}
	b, err := json.Marshal(res)
	if err != nil {
		b, _ = json.Marshal(abi.DiscoverResult{Tasks: []abi.Task{}, Error: Errorf(abi.Internal, "the discoverer's result could not be encoded (a bug in the plugin)")})
	}
	return b
}

func runDiscover(input []byte) *abi.DiscoverResult {
	var req abi.DiscoverRequest
	if err := json.Unmarshal(input, &req); err != nil {
		return &abi.DiscoverResult{Error: Errorf(abi.InvalidArgument, "the discover request is not valid JSON")}
	}
	d := discovererByName[req.Discoverer]
	if d == nil {
		return &abi.DiscoverResult{Error: Errorf(abi.InvalidArgument, "this plugin has no discoverer %q", req.Discoverer)}
	}
	res, err := d.invoke(req)
	if err != nil {
		e, ok := AsError(err)
		if !ok {
			Logf(LevelError, "discoverer %s failed: %v", d.name, err)
			e = Errorf(abi.Internal, "the discoverer %s failed unexpectedly", d.name)
		}
		return &abi.DiscoverResult{Error: &abi.Error{Code: e.Code, Message: e.Message}}
	}
	if res == nil {
		res = &abi.DiscoverResult{}
	}
	return res
}

// invoke runs the discoverer, turning a panic into an INTERNAL error.
func (d *discoverer) invoke(req abi.DiscoverRequest) (res *abi.DiscoverResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			Logf(LevelError, "discoverer %s panicked: %v\n%s", d.name, p, debug.Stack())
			res, err = nil, Errorf(abi.Internal, "the discoverer %s failed unexpectedly (a bug in the plugin)", d.name)
		}
	}()
	return d.fn(req)
}
