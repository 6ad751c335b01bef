// Command discover is juju's core discover plugin (core-discover): the task
// discoverers of the common build tools — make, npm/pnpm/yarn/bun, Python
// (pyproject, pytest, tox, nox), cargo, go, composer, gradle, maven, just,
// task, deno and mise. Each reads the files its globs matched through the
// fs host functions and parses them statically; none runs project code.
// project_overview (in the core plugin) calls them through juju_discover_tasks.
//
// The parsers live in one package per tool, beside tests that run with the
// host's toolchain over the fixture projects in test/testdata/projects.
package main

import (
	"slices"
	"strings"
	"time"

	"github.com/jujutools/juju/plugins/discover/cargo"
	"github.com/jujutools/juju/plugins/discover/composer"
	"github.com/jujutools/juju/plugins/discover/deno"
	"github.com/jujutools/juju/plugins/discover/gomod"
	"github.com/jujutools/juju/plugins/discover/gradle"
	"github.com/jujutools/juju/plugins/discover/just"
	"github.com/jujutools/juju/plugins/discover/makefile"
	"github.com/jujutools/juju/plugins/discover/maven"
	"github.com/jujutools/juju/plugins/discover/mise"
	"github.com/jujutools/juju/plugins/discover/node"
	"github.com/jujutools/juju/plugins/discover/python"
	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/taskfile"
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// Bounds of the host calls: the largest file a discoverer reads, the
// matching lines and the time of one search.
const (
	maxFile     = 4 << 20
	maxHits     = 5000
	grepTimeout = 4 * time.Second
)

// hostFS is the workspace through juju's fs host functions.
type hostFS struct{}

func (hostFS) ReadFile(name string) ([]byte, error) {
	res, b, err := juju.ReadFile(abi.ReadRequest{Path: name, MaxBytes: maxFile})
	switch {
	case err != nil:
		return nil, err
	case res.Truncated:
		return nil, juju.Errorf(abi.TooLarge, "it is larger than %d MiB", maxFile>>20)
	case res.Binary:
		return nil, juju.Errorf(abi.InvalidArgument, "it is not a text file")
	}
	return b, nil
}

func (hostFS) ReadHead(name string, n int64) ([]byte, error) {
	_, b, err := juju.ReadFile(abi.ReadRequest{Path: name, Length: n})
	return b, err
}

func (hostFS) Exists(name string) bool {
	_, err := juju.Stat(abi.StatRequest{Path: name})
	return err == nil
}

func (hostFS) Executable(name string) bool {
	res, err := juju.Stat(abi.StatRequest{Path: name})
	return err == nil && res.Type == abi.TypeFile && strings.ContainsRune(res.Mode, 'x')
}

// Grep asks the host's search (ripgrep, or the host's own search where rg
// is missing). A pattern ^(group) is searched as its group, and the hits
// at column 1 are kept (task.AnchoredGroup).
func (h hostFS) Grep(dir, name, re string, skip []string) ([]task.Hit, error) {
	pattern := re
	group, atStart := task.AnchoredGroup(re)
	if atStart {
		pattern = group // and only hits at column 1 are kept
	}
	res, err := juju.Search(abi.SearchRequest{
		Pattern: pattern, Path: dir, Glob: name, SkipDirs: append(slices.Clip(task.SkipDirs), skip...),
		Mode: abi.SearchContent, MaxResults: maxHits, TimeoutMs: grepTimeout.Milliseconds(),
	})
	if err != nil {
		return nil, err
	}
	var hits []task.Hit
	for _, f := range res.Files {
		for _, m := range f.Matches {
			if atStart && m.Column != 1 {
				continue
			}
			hits = append(hits, task.Hit{Path: f.Path, Line: m.Line, Text: m.Text})
		}
	}
	if res.Truncated || res.Partial {
		return hits, task.ErrIncomplete
	}
	return hits, nil
}

func (hostFS) List(dir string) []string {
	res, err := juju.ListDir(abi.ListRequest{Path: dir})
	if err != nil {
		return nil
	}
	out := make([]string, len(res.Entries))
	for i, e := range res.Entries {
		out[i] = e.Name
		if e.Type == abi.TypeDir {
			out[i] += "/"
		}
	}
	return out
}

// register adds a discoverer backed by a parser package.
func register(name string, files []string, discover func(task.FS, []string) *task.Result) {
	juju.Discoverer(name, files, func(req abi.DiscoverRequest) (*abi.DiscoverResult, error) {
		return &discover(hostFS{}, req.Files).DiscoverResult, nil
	})
}

func init() {
	register("make", makefile.Files, makefile.Discover)
	register("node", node.Files, node.Discover)
	register("python", python.Files, python.Discover)
	register("cargo", cargo.Files, cargo.Discover)
	register("go", gomod.Files, gomod.Discover)
	register("composer", composer.Files, composer.Discover)
	register("gradle", gradle.Files, gradle.Discover)
	register("maven", maven.Files, maven.Discover)
	register("just", just.Files, just.Discover)
	register("task", taskfile.Files, taskfile.Discover)
	register("deno", deno.Files, deno.Discover)
	register("mise", mise.Files, mise.Discover)
}

func main() {}
