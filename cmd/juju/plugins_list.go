package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/internal/visible"
	"github.com/jujutools/juju/sdk/abi"
)

// pluginsListOptions are the flags of juju plugins list.
type pluginsListOptions struct {
	json bool
}

func newPluginsListCommand() *cobra.Command {
	o := &pluginsListOptions{}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the core and installed plugins",
		Long: `List every plugin: its name, version and source (core or installed), how many
tools it provides, whether it is compiled, and the capabilities it asks for,
with those it was not granted marked. A plugin juju refused to load (a broken
manifest, files changed since install, a tool name another plugin already
has) is listed with the reason; it holds none of its capabilities, whatever
was granted, until it is installed again.

A plugin's state is "compiled (cache)" when its compiled code is in the cache
(an install puts it there; juju loads it in a fraction of a second), "not
compiled" when the first start will compile it. Plugins compile when first
called, or in the background when juju stdio starts; 'juju doctor --warm'
compiles them all now.`,
		Example: `  juju plugins list
  juju plugins list --json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withCatalog(func(h *host.Host) error {
				return runPluginsList(cmd.OutOrStdout(), h.Plugins(), o)
			})
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return cmd
}

// pluginJSON is one plugin in juju plugins list --json.
type pluginJSON struct {
	Name         string           `json:"name"`
	Version      string           `json:"version"`
	Source       host.Source      `json:"source"`
	Dir          string           `json:"dir,omitempty"`
	Capabilities []abi.Capability `json:"capabilities,omitzero"` // asked for by the manifest; absent when it could not be read
	Granted      []abi.Capability `json:"granted"`               // held now: none while refused
	State        string           `json:"state"`                 // not compiled, compiled (cache), compiling, ready, failed, refused
	Tools        int              `json:"tools"`
	Error        string           `json:"error,omitempty"`
}

func describePlugin(l *host.Loaded) pluginJSON {
	p := pluginJSON{
		Name:    l.Name(),
		Version: l.Manifest.Version,
		Source:  l.Source,
		Dir:     l.Dir,
		Granted: nonNil(l.Granted),
		State:   pluginState(l),
		Tools:   len(l.Manifest.Tools),
	}
	if manifestRead(l) {
		p.Capabilities = nonNil(l.Manifest.Capabilities)
	}
	if l.Err != nil {
		p.State = stateRefused
		p.Error = l.Err.Error()
	}
	return p
}

// stateRefused is the state of a plugin juju would not load: it serves
// nothing and holds no capability, whatever its grants file says, until it
// is installed again.
const stateRefused = "refused"

// manifestRead reports whether l's manifest is the plugin's own: a plugin
// refused because its manifest could not be read or decoded carries one
// with its folder's name alone (and no ABI, which a valid manifest always
// has), so what it asks for is unknown.
func manifestRead(l *host.Loaded) bool { return l.Manifest.ABI != 0 }

// stateCached is the state of a plugin this process has not compiled but
// whose compiled code the cache holds: it loads in a fraction of a second.
const stateCached = "compiled (cache)"

// pluginState is a plugin's compile state as the owner reads it: a plugin
// this process did not compile, but which the cache holds (as it does right
// after an install), is "compiled (cache)", not "not compiled".
func pluginState(l *host.Loaded) string {
	if l.Err == nil && l.State() == plugin.NotCompiled && l.InCache() {
		return stateCached
	}
	return l.State().String()
}

func nonNil(c []abi.Capability) []abi.Capability {
	if c == nil {
		return []abi.Capability{}
	}
	return c
}

// runPluginsList prints the plugins, core first, as the host gives them.
func runPluginsList(w io.Writer, plugins []*host.Loaded, o *pluginsListOptions) error {
	out := make([]pluginJSON, len(plugins))
	for i, l := range plugins {
		out[i] = describePlugin(l)
	}
	if o.json {
		return writeJSON(w, out)
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "NAME\tVERSION\tSOURCE\tTOOLS\tSTATE\tCAPABILITIES")
	for _, p := range out {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", visible.String(p.Name), visible.String(dash(p.Version)), p.Source, p.Tools, p.State, capabilities(p))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, p := range out {
		if p.Error != "" {
			fmt.Fprintf(w, "\n%s was refused: %s\n", visible.String(p.Name), visible.String(p.Error))
		}
	}
	return nil
}

// capabilities lists what a plugin asks for, marking what it was not
// granted. A refused plugin holds nothing, and granting would not change
// that (only installing it again does): its list says it is refused, once,
// rather than mark each capability "not granted" as if a grant were missing.
func capabilities(p pluginJSON) string {
	switch {
	case p.Capabilities == nil:
		return "unknown (refused)"
	case len(p.Capabilities) == 0:
		return "none"
	case p.State == stateRefused:
		return joinCapabilities(p.Capabilities) + " (refused: holds none)"
	}
	granted := map[abi.Capability]bool{}
	for _, g := range p.Granted {
		granted[g] = true
	}
	parts := make([]string, len(p.Capabilities))
	for i, c := range p.Capabilities {
		parts[i] = string(c)
		if !granted[c] {
			parts[i] += " (not granted)"
		}
	}
	return strings.Join(parts, ", ")
}

func joinCapabilities(c []abi.Capability) string {
	parts := make([]string, len(c))
	for i, x := range c {
		parts[i] = string(x)
	}
	return strings.Join(parts, ", ")
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
