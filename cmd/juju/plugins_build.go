package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/host/pluginbuild"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/internal/visible"
	"github.com/jujutools/juju/sdk/abi"
)

// pluginsBuildOptions are the flags of juju plugins build.
type pluginsBuildOptions struct {
	out  string
	wasm string
	json bool
}

func newPluginsBuildCommand() *cobra.Command {
	o := &pluginsBuildOptions{}
	cmd := &cobra.Command{
		Use:   "build DIR",
		Short: "Build a plugin (Go source, or a wasm built another way), ready to install",
		Long: `Build the plugin whose Go main package and manifest.json are in DIR: run
'go build' in DIR's module for GOOS=wasip1 GOARCH=wasm -buildmode=c-shared,
run the plugin's describe export in juju's runtime to learn its tools and
discoverers, and write manifest.json (with the tools and the wasm's sha256)
and the wasm beside it, or into -o OUT. The folder is then ready for
'juju plugins install'. In manifest.json you write the plugin's abi, name,
version, description, wasm.file and capabilities, and, if it needs them,
limits and lazy (docs/PLUGINS.md, "Limits"); the build fills in the rest. The go command must be installed.

With --wasm FILE, nothing is compiled: FILE is a wasm module built some
other way (AssemblyScript, Rust, TinyGo, Go without juju's SDK) against
docs/ABI.md. juju checks that it imports only what juju links and exports
juju_describe, runs that export, and writes manifest.json and a copy of
FILE (as wasm.file) into DIR, or OUT. Run it again after every build: the
manifest must follow the code.`,
		Example: `  juju plugins build .
  juju plugins install . --grant fs.read

  # a plugin built with another toolchain
  npx asc assembly/index.ts --outFile build/plugin.wasm --use abort=assembly/index/myAbort
  juju plugins build --wasm build/plugin.wasm .`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dirs, err := config.DefaultDirs()
			if err != nil {
				return err
			}
			return runPluginsBuild(cmd, args[0], dirs, o)
		},
	}
	cmd.Flags().StringVarP(&o.out, "out", "o", "", "write the built plugin folder to `OUT` instead of DIR")
	cmd.Flags().StringVar(&o.wasm, "wasm", "", "use the prebuilt wasm module `FILE` instead of building Go source")
	cmd.Flags().BoolVar(&o.json, "json", false, "print the result as JSON")
	return cmd
}

// buildJSON is juju plugins build --json.
type buildJSON struct {
	Name    string   `json:"name"`
	Version string   `json:"version"`
	Dir     string   `json:"dir"`
	SHA256  string   `json:"sha256"`
	Tools   []string `json:"tools"`
	// Discoverers are the task discoverers' names.
	Discoverers []string `json:"discoverers"`
	// Unasked are the host functions the wasm imports whose capability the
	// manifest does not ask for: every call of one would be refused.
	Unasked []pluginbuild.Unasked `json:"unasked"`
}

func runPluginsBuild(cmd *cobra.Command, dir string, dirs config.Dirs, o *pluginsBuildOptions) error {
	out := o.out
	if out == "" {
		out = dir
	}
	var progress io.Writer = io.Discard
	if !o.json {
		progress = cmd.ErrOrStderr()
	}
	start := time.Now()
	var m *manifest.Manifest
	var err error
	if o.wasm != "" {
		fmt.Fprintf(progress, "describing %s…\n", o.wasm)
		m, err = pluginbuild.BuildWasm(cmd.Context(), dir, o.wasm, out, dirs.Cache)
	} else {
		fmt.Fprintf(progress, "building %s…\n", dir)
		m, err = pluginbuild.BuildFolder(cmd.Context(), dir, out, dirs.Cache)
	}
	if err != nil {
		return err
	}
	wasm, err := os.ReadFile(filepath.Join(out, m.Wasm.File))
	if err != nil {
		return err
	}
	unasked, err := pluginbuild.UnaskedCapabilities(wasm, m)
	if err != nil {
		return err
	}
	res := buildJSON{Name: m.Name, Version: m.Version, Dir: out, SHA256: m.Wasm.SHA256, Tools: []string{}, Discoverers: []string{}, Unasked: unasked}
	if res.Unasked == nil {
		res.Unasked = []pluginbuild.Unasked{}
	}
	for _, t := range m.Tools {
		res.Tools = append(res.Tools, t.Name)
	}
	for _, d := range m.Discoverers {
		res.Discoverers = append(res.Discoverers, d.Name)
	}
	if o.json {
		return writeJSON(cmd.OutOrStdout(), res)
	}
	fmt.Fprintf(progress, "built in %.1f s\n", time.Since(start).Seconds())
	for _, u := range unasked {
		fmt.Fprintf(progress, "warning: the wasm imports %s, which needs the capability %s, and manifest.json does not ask for it: every call of it would be refused (CAPABILITY_DENIED), and no grant can change that; add %q to \"capabilities\" in manifest.json and build again, or stop calling it\n",
			u.Function, u.Capability, u.Capability)
	}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "%s %s: %s, %s\n", m.Name, visible.String(m.Version), count(len(m.Tools), "tool"), count(len(m.Discoverers), "discoverer"))
	fmt.Fprintf(w, "  wasm   %s\n  sha256 %s\n", m.Wasm.File, m.Wasm.SHA256)
	_, err = fmt.Fprintf(w, "Install it with: %s\n", installHint(out, m.Capabilities))
	return err
}

// installHint is the juju plugins install command line for the plugin
// built into dir, granting each capability its manifest asks for: without
// --grant, an install with no terminal to ask on (a script following the
// hint) grants nothing.
func installHint(dir string, caps []abi.Capability) string {
	var b strings.Builder
	b.WriteString("juju plugins install " + shellQuote(dir))
	for _, c := range caps {
		b.WriteString(" --grant " + shellQuote(string(c)))
	}
	return b.String()
}

// count is "1 tool", "2 tools", "0 tools".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
