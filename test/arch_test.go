package test

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/jujutools/juju"

// goPackages returns every Go package folder of the repository (all three
// modules), relative to the repository root, with the imports of its
// non-test files.
func goPackages(t *testing.T) map[string]map[string]bool {
	t.Helper()
	pkgs := map[string]map[string]bool{}
	docs := map[string]bool{}
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "node_modules", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(repoRoot, filepath.Dir(path))
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		if pkgs[rel] == nil {
			pkgs[rel] = map[string]bool{}
		}
		if f.Doc != nil && strings.HasPrefix(f.Doc.Text(), "Package "+f.Name.Name) || f.Name.Name == "main" && f.Doc != nil {
			docs[rel] = true
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			pkgs[rel][p] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel := range pkgs {
		if !docs[rel] {
			t.Errorf("package %s has no package doc comment (\"// Package x …\" or a main's doc)", rel)
		}
	}
	return pkgs
}

// layer is where a package sits in juju's flow: cmd → host (the runtime)
// → hostfns → domain leaves → the OS; the MCP front (host/mcpserver) sits
// above the runtime; sdk and plugins never reach the host.
func layer(rel string) string {
	switch {
	case rel == "cmd" || strings.HasPrefix(rel, "cmd/") || strings.HasPrefix(rel, "internal/cmd/"):
		return "cmd"
	case rel == "host/mcpserver":
		return "front"
	case rel == "host" || strings.HasPrefix(rel, "host/"):
		return "host"
	case rel == "hostfns" || strings.HasPrefix(rel, "hostfns/"):
		return "hostfns"
	case rel == "sdk/abi" || rel == "sandbox" || strings.HasPrefix(rel, "internal/"):
		return "leaf"
	case strings.HasPrefix(rel, "sdk"):
		return "sdk"
	case strings.HasPrefix(rel, "plugins"):
		return "plugins"
	case strings.HasPrefix(rel, "examples"):
		return "examples"
	case rel == "test" || strings.HasPrefix(rel, "test/"):
		return "test"
	}
	return "other"
}

// mayImport says which layers a layer's packages may import.
var mayImport = map[string][]string{
	"cmd":      {"front", "host", "hostfns", "leaf", "sdk"},
	"front":    {"host", "leaf"},
	"host":     {"host", "hostfns", "leaf"},
	"hostfns":  {"hostfns", "leaf"},
	"leaf":     {"leaf"},
	"sdk":      {"sdk", "leaf"}, // sdk/abi is a leaf; the guest rule below keeps them to sdk/
	"plugins":  {"sdk", "leaf", "plugins"},
	"examples": {"sdk", "leaf"},
	"test":     {"cmd", "front", "host", "hostfns", "leaf", "sdk", "test"},
}

// siblingHostfns are the host-function packages allowed to import another:
// discover reuses fs's one bounded walk of the workspace, and search, where
// the host has no ripgrep, walks the workspace as the glob function does.
var siblingHostfns = map[string][]string{
	"hostfns/discover": {"hostfns/fs"},
	"hostfns/search":   {"hostfns/fs"},
}

// checkArchitecture returns every import in pkgs (package → its imports,
// module paths) that runs against the flow.
func checkArchitecture(pkgs map[string]map[string]bool) []string {
	var bad []string
	edges := map[string]map[string]bool{}
	for rel, imports := range pkgs {
		from := layer(rel)
		for imp := range imports {
			if rel == "sdk/abi" && strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") {
				bad = append(bad, fmt.Sprintf("%s imports %s: sdk/abi depends on the standard library alone", rel, imp))
				continue
			}
			target, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			to := layer(target)
			guest := from == "sdk" || from == "plugins" || from == "examples" || rel == "sdk/abi"
			switch {
			case guest && !strings.HasPrefix(target, "sdk") && !(from == "plugins" && to == "plugins"):
				bad = append(bad, fmt.Sprintf("%s imports %s: the SDK, plugins and examples use the SDK only, never the host", rel, imp))
			case rel == "sdk/abi":
				bad = append(bad, fmt.Sprintf("%s imports %s: sdk/abi depends on the standard library alone", rel, imp))
			case !slices.Contains(mayImport[from], to):
				bad = append(bad, fmt.Sprintf("%s (%s) imports %s (%s): an arrow back up the flow", rel, from, imp, to))
			case target == "host" && from != "front" && from != "cmd" && from != "test":
				bad = append(bad, fmt.Sprintf("%s imports %s: only the MCP front and cmd use the runtime's top package", rel, imp))
			case from == "hostfns" && rel != "hostfns" && target != "hostfns" && to == "hostfns" && !slices.Contains(siblingHostfns[rel], target):
				bad = append(bad, fmt.Sprintf("%s imports %s: host functions share only the hostfns package (allow-list: siblingHostfns)", rel, imp))
			case rel == "hostfns" && to == "hostfns" && target != "hostfns":
				bad = append(bad, fmt.Sprintf("%s imports %s: the shared shape imports no host function", rel, imp))
			case from == "host" && target == "host/mcpserver":
				bad = append(bad, fmt.Sprintf("%s imports %s: only cmd wires the server", rel, imp))
			}
			if from != to {
				if edges[from] == nil {
					edges[from] = map[string]bool{}
				}
				edges[from][to] = true
			}
		}
	}
	if cycle := findCycle(edges); cycle != "" {
		bad = append(bad, "the layers import each other in a cycle: "+cycle)
	}
	sort.Strings(bad)
	return bad
}

// findCycle returns a cycle of the graph, written a → b → a, or "".
func findCycle(g map[string]map[string]bool) string {
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var stack []string
	var found string
	var visit func(n string)
	visit = func(n string) {
		color[n] = grey
		stack = append(stack, n)
		next := slices.Sorted(maps.Keys(g[n]))
		for _, m := range next {
			if found != "" {
				return
			}
			switch color[m] {
			case grey:
				i := slices.Index(stack, m)
				found = strings.Join(append(slices.Clone(stack[i:]), m), " → ")
				return
			case white:
				visit(m)
			}
		}
		stack = stack[:len(stack)-1]
		color[n] = black
	}
	for _, n := range slices.Sorted(maps.Keys(g)) {
		if color[n] == white && found == "" {
			visit(n)
		}
	}
	return found
}

// The architecture in SPEC §2 and STYLE.md, enforced.
func TestArchitecture(t *testing.T) {
	pkgs := goPackages(t)
	if len(pkgs) < 10 {
		t.Fatalf("found only %d packages; is repoRoot right?", len(pkgs))
	}
	if pkgs["sdk/abi"] == nil {
		t.Error("sdk/abi not found")
	}
	for _, b := range checkArchitecture(pkgs) {
		t.Error(b)
	}
}

// The check catches what it is there to catch: each wrong import below is
// reported, and the right ones are not.
func TestArchitectureCatchesWrongImports(t *testing.T) {
	ok := map[string]map[string]bool{
		"cmd/juju":         {module + "/host": true, module + "/host/mcpserver": true},
		"host/mcpserver":   {module + "/host": true},
		"host":             {module + "/hostfns/fs": true, module + "/internal/policy": true},
		"hostfns/fs":       {module + "/hostfns": true, module + "/internal/policy": true, module + "/sdk/abi": true},
		"hostfns/discover": {module + "/hostfns/fs": true},
		"internal/policy":  {module + "/sdk/abi": true},
		"plugins/core":     {module + "/sdk/juju": true},
	}
	if bad := checkArchitecture(ok); len(bad) > 0 {
		t.Fatalf("a sound tree was refused: %v", bad)
	}
	for _, c := range []struct{ from, imp string }{
		{"internal/policy", "host"},         // a leaf reaching up
		{"internal/journal", "hostfns"},     // a leaf importing the host-function shape
		{"hostfns/git", "hostfns/exec"},     // a sibling host function off the allow-list
		{"hostfns/fs", "host/plugin"},       // a host function importing the runtime
		{"host/install", "host"},            // the runtime's top package from below the front
		{"host/plugin", "host/mcpserver"},   // the runtime reaching the server
		{"sdk/juju", "host/plugin"},         // the SDK reaching the host
		{"plugins/core", "internal/policy"}, // a plugin reaching past the SDK
		{"sdk/abi", "internal/visible"},     // the wire contract importing juju
		{"sandbox", "hostfns/exec"},         // a leaf importing a host function
	} {
		pkgs := map[string]map[string]bool{}
		for k, v := range ok {
			pkgs[k] = v
		}
		pkgs[c.from] = map[string]bool{module + "/" + c.imp: true}
		if bad := checkArchitecture(pkgs); len(bad) == 0 {
			t.Errorf("%s importing %s was not caught", c.from, c.imp)
		}
	}
	cyclic := map[string]map[string]bool{"a": {"b": true}, "b": {"c": true}, "c": {"a": true}}
	if findCycle(cyclic) == "" {
		t.Error("a cycle of layers was not found")
	}
}

// No build output, bench result or other large blob is tracked.
func TestNoLargeFiles(t *testing.T) {
	out, err := exec.Command("git", "-C", repoRoot, "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		fi, err := os.Lstat(filepath.Join(repoRoot, name))
		if err == nil && fi.Mode().IsRegular() && fi.Size() > 1<<20 {
			t.Errorf("%s is tracked and %d bytes (over 1 MB): a build output? git rm --cached it and ignore it", name, fi.Size())
		}
	}
}
