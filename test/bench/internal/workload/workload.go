// Package workload holds what juju's benchmarks measure: the workspace they
// read, the arguments of every measured call, and an in-process juju host
// wired as cmd/juju wires it. The Go benchmarks and the report share it, so
// both measure the same work.
package workload

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/host/core"
	"github.com/jujutools/juju/internal/config"
)

// ErrNotBuilt reports that the core plugins are not embedded: benchmarks of
// plugin calls skip, the report says how to build them.
var ErrNotBuilt = core.ErrNotBuilt

// TinyFile is the file of the tiny read_file figures: a few short lines.
const TinyFile = "tiny.txt"

// tinyContent is TinyFile's content.
const tinyContent = "package tiny\n\n// Tiny is read again and again by the benchmarks.\nconst Tiny = 1\n"

// SmallFiles are the ten files of the read_files figures.
var SmallFiles = func() []string {
	out := make([]string, 10)
	for i := range out {
		out[i] = fmt.Sprintf("small/file%02d.txt", i)
	}
	return out
}()

// LargeFile is the file of the 100 KB read_file figures: lines of ordinary
// source-like text, a little under the read cap, so that one call returns
// it whole.
const LargeFile = "large.txt"

// LargeSize is LargeFile's size in bytes.
const LargeSize = 100_000

// largeContent is LargeFile's content: 80-byte lines.
func largeContent() string {
	var b strings.Builder
	for l := 1; b.Len() < LargeSize; l++ {
		fmt.Fprintf(&b, "%-79.79s\n", fmt.Sprintf("\tline %d: if err := process(ctx, item, \"value\"); err != nil { return err }", l))
	}
	return b.String()[:LargeSize]
}

// ListDir is the folder of the list_directory figures: ListEntries
// entries, files and folders mixed.
const ListDir = "list80"

// ListEntries is how many entries ListDir holds.
const ListEntries = 80

// GlobPattern is the pattern of the glob figures.
const GlobPattern = "**/*_test.go"

// Arguments of each measured call, as a client sends them.
var (
	ReadFileArgs  = map[string]any{"path": TinyFile}
	LargeReadArgs = map[string]any{"path": LargeFile}
	ReadFilesArgs = map[string]any{"paths": SmallFiles}
	GlobArgs      = map[string]any{"pattern": GlobPattern}
)

// Raw encodes tool arguments as the host receives them.
func Raw(args map[string]any) json.RawMessage {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err) // maps of strings and slices always encode
	}
	return b
}

// Workspace writes the benchmark workspace into dir: TinyFile, SmallFiles
// (twenty lines each), LargeFile, ListDir and a few folders for
// list_directory.
func Workspace(dir string) error {
	files := map[string]string{TinyFile: tinyContent, LargeFile: largeContent(), "README.md": "# bench\n", "docs/notes.md": "notes\n", "src/main_test.go": "package main\n"}
	for i, name := range SmallFiles {
		var b strings.Builder
		for l := 1; l <= 20; l++ {
			fmt.Fprintf(&b, "file %d, line %d: some ordinary text\n", i, l)
		}
		files[name] = b.String()
	}
	for i := range ListEntries {
		if i%8 == 7 {
			if err := os.MkdirAll(filepath.Join(dir, ListDir, fmt.Sprintf("dir%02d", i)), 0o755); err != nil {
				return err
			}
			continue
		}
		files[fmt.Sprintf("%s/file%02d.go", ListDir, i)] = fmt.Sprintf("package list\n\n// File %d.\n", i)
	}
	for name, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Dirs returns juju's own directories under home, laid out as JUJU_HOME
// lays them out.
func Dirs(home string) config.Dirs {
	return config.Dirs{
		Config: filepath.Join(home, "config"),
		State:  filepath.Join(home, "state"),
		Cache:  filepath.Join(home, "cache"),
		Data:   filepath.Join(home, "data"),
	}
}

// NewHost starts an in-process juju host over root with its directories
// (and so its compilation cache) under home: host/plugin, hostfns/fs and
// host/policy wired by host.New, as `juju stdio` wires them. It returns an
// error wrapping ErrNotBuilt when the core plugins are not embedded.
func NewHost(root, home string) (*host.Host, error) {
	h, err := host.New(host.Config{Roots: []string{root}, Dirs: Dirs(home), Mode: config.ModeTrusted, Version: "bench"})
	if err != nil {
		return nil, fmt.Errorf("starting an in-process host: %w", err)
	}
	return h, nil
}

// Client is the client name in-process calls are made under.
const Client = "juju-bench"

// Call runs a tool in h and returns its text; a tool error is an error.
func Call(ctx context.Context, h *host.Host, tool string, args json.RawMessage) (string, error) {
	res, err := h.Call(ctx, host.Request{Client: Client, Tool: tool, Args: args})
	if err != nil {
		return "", err
	}
	if res.Error != nil {
		return "", fmt.Errorf("%s: %w", tool, res.Error)
	}
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.Text)
	}
	return b.String(), nil
}

// GoTree returns the source tree of the Go toolchain ($(go env GOROOT)/src),
// the glob figures' workspace.
func GoTree() (string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %w", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(src); err != nil {
		return "", err
	}
	return src, nil
}

// IsNotBuilt reports whether err says the core plugins are missing.
func IsNotBuilt(err error) bool { return errors.Is(err, ErrNotBuilt) }
