package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/host/install"
	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/internal/visible"
	"github.com/jujutools/juju/sdk/abi"
)

// pluginsInfoOptions are the flags of juju plugins info.
type pluginsInfoOptions struct {
	json bool
}

func newPluginsInfoCommand() *cobra.Command {
	o := &pluginsInfoOptions{}
	cmd := &cobra.Command{
		Use:   "info NAME",
		Short: "Show one plugin: its tools and capabilities in words",
		Long: `Show one plugin, core or installed: its description, version, source, the
sha256 of its wasm, each capability it asks for in words and whether it holds
it, its tools with their tiers, and its task discoverers. A plugin juju
refused to load is shown with the reason.`,
		Example: `  juju plugins info core
  juju plugins info rake --json`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withCatalog(func(h *host.Host) error {
				return runPluginsInfo(cmd.OutOrStdout(), h.Plugins(), args[0], o)
			})
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return cmd
}

// pluginInfoJSON is juju plugins info --json.
type pluginInfoJSON struct {
	pluginJSON
	Description string               `json:"description"`
	SHA256      string               `json:"sha256"`
	Asks        []capabilityJSON     `json:"asks"`
	ToolList    []toolBrief          `json:"toolList"`
	Discoverers []abi.DiscovererSpec `json:"discoverers"`
	MemoryMiB   int                  `json:"memoryMiB,omitempty"` // asked for by the manifest
	TimeoutMs   int                  `json:"timeoutMs,omitempty"`
	Limits      plugin.Limits        `json:"limits"` // what it runs under
}

type capabilityJSON struct {
	Name    abi.Capability `json:"name"`
	Words   string         `json:"words"`
	Granted bool           `json:"granted"`
}

type toolBrief struct {
	Name        string `json:"name"`
	Tier        string `json:"tier"`
	Description string `json:"description"`
}

func runPluginsInfo(w io.Writer, plugins []*host.Loaded, name string, o *pluginsInfoOptions) error {
	var l *host.Loaded
	for _, p := range plugins {
		if p.Name() == name {
			l = p
		}
	}
	if l == nil {
		return fmt.Errorf("no plugin is named %q ('juju plugins list' shows them)", name)
	}
	m := l.Manifest
	info := pluginInfoJSON{
		pluginJSON:  describePlugin(l),
		Description: m.Description,
		SHA256:      m.Wasm.SHA256,
		Asks:        []capabilityJSON{},
		ToolList:    []toolBrief{},
		Discoverers: m.Discoverers,
	}
	if info.Discoverers == nil {
		info.Discoverers = []abi.DiscovererSpec{}
	}
	if m.Limits != nil {
		info.MemoryMiB, info.TimeoutMs = m.Limits.MemoryMiB, m.Limits.TimeoutMs
	}
	info.Limits = plugin.ManifestLimits(m.Limits)
	held := map[abi.Capability]bool{}
	for _, c := range l.Granted {
		held[c] = true
	}
	for _, c := range m.Capabilities {
		info.Asks = append(info.Asks, capabilityJSON{Name: c, Words: install.Words(c), Granted: held[c]})
	}
	for _, t := range m.Tools {
		info.ToolList = append(info.ToolList, toolBrief{Name: t.Name, Tier: t.Tier, Description: t.Description})
	}
	if o.json {
		return writeJSON(w, info)
	}
	fmt.Fprintf(w, "%s %s (%s)\n", visible.String(info.Name), visible.String(dash(info.Version)), info.Source)
	if info.Description != "" {
		fmt.Fprintf(w, "  %s\n", visible.String(info.Description))
	}
	if info.Dir != "" {
		fmt.Fprintf(w, "folder:  %s\n", visible.String(info.Dir))
	}
	if info.SHA256 != "" {
		fmt.Fprintf(w, "sha256:  %s\n", info.SHA256)
	}
	fmt.Fprintf(w, "state:   %s\n", info.State)
	fmt.Fprintf(w, "limits:  %s\n", limitsWords(info.Limits))
	if info.Error != "" {
		fmt.Fprintf(w, "refused: %s\n", visible.String(info.Error))
	}
	switch {
	case info.Capabilities == nil:
		fmt.Fprintln(w, "capabilities: unknown (its manifest could not be read)")
	case len(info.Asks) == 0:
		fmt.Fprintln(w, "capabilities: none")
	case info.State == stateRefused:
		// Granting would not help a refused plugin: it holds nothing until
		// it is installed again.
		fmt.Fprintln(w, "capabilities (it asks for these; refused, it holds none):")
		for _, c := range info.Asks {
			fmt.Fprintf(w, "  %s: %s\n", c.Name, c.Words)
		}
	default:
		fmt.Fprintln(w, "capabilities:")
		for _, c := range info.Asks {
			state := "granted"
			if !c.Granted {
				state = "NOT granted"
			}
			fmt.Fprintf(w, "  %s (%s): %s\n", c.Name, state, c.Words)
		}
	}
	if len(info.ToolList) > 0 {
		fmt.Fprintln(w, "tools:")
		tw := newTable(w)
		for _, t := range info.ToolList {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", t.Name, t.Tier, shownLine(t.Description, 70))
		}
		tw.Flush()
	}
	for _, d := range info.Discoverers {
		fmt.Fprintf(w, "discoverer %s: [%s]\n", d.Name, visible.Join(d.Files, " "))
	}
	return nil
}

// limitsWords says what a plugin runs under, and the memory its instances
// may hold together.
func limitsWords(l plugin.Limits) string {
	return fmt.Sprintf("%d MiB of memory per instance, up to %d instances at once (%s together), %g s a call",
		l.MemoryMiB, l.Instances, humanBytes(int64(l.MemoryCeilingMiB())<<20), l.Timeout.Seconds())
}
