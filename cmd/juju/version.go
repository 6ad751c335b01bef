package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/sdk/abi"
)

// versionOptions are the flags of juju version.
type versionOptions struct {
	json bool
}

func newVersionCommand() *cobra.Command {
	o := &versionOptions{}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print juju's version and what it was built with",
		Long: `Print juju's version, the Go version it was built with, the plugin ABI
version it speaks (a plugin built for another ABI is refused), and the
versions of the WebAssembly runtime it embeds (Extism and wazero).`,
		Example: `  juju version
  juju version --json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runVersion(cmd.OutOrStdout(), o, buildVersion(version, readBuildInfo()))
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return cmd
}

// versionInfo is what juju version prints.
type versionInfo struct {
	Version  string `json:"version"`
	Go       string `json:"go"`
	ABI      int    `json:"abi"`
	Extism   string `json:"extism"`
	Wazero   string `json:"wazero"`
	Platform string `json:"platform"`
}

// Module paths whose versions juju version reports.
const (
	extismModule = "github.com/extism/go-sdk"
	wazeroModule = "github.com/tetratelabs/wazero"
)

// buildVersion gathers the versions from the link-time version and the
// binary's build information (nil when the binary has none).
func buildVersion(v string, bi *debug.BuildInfo) versionInfo {
	info := versionInfo{
		Version:  v,
		Go:       runtime.Version(),
		ABI:      abi.Version,
		Extism:   "unknown",
		Wazero:   "unknown",
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
	}
	if bi == nil {
		return info
	}
	if bi.GoVersion != "" {
		info.Go = bi.GoVersion
	}
	for _, d := range bi.Deps {
		m := d
		if d.Replace != nil {
			m = d.Replace
		}
		switch d.Path {
		case extismModule:
			info.Extism = m.Version
		case wazeroModule:
			info.Wazero = m.Version
		}
	}
	return info
}

func runVersion(w io.Writer, o *versionOptions, info versionInfo) error {
	if o.json {
		return writeJSON(w, info)
	}
	tw := newTable(w)
	fmt.Fprintf(tw, "juju\t%s\n", info.Version)
	fmt.Fprintf(tw, "go\t%s\n", info.Go)
	fmt.Fprintf(tw, "plugin abi\t%d\n", info.ABI)
	fmt.Fprintf(tw, "extism\t%s\n", info.Extism)
	fmt.Fprintf(tw, "wazero\t%s\n", info.Wazero)
	fmt.Fprintf(tw, "platform\t%s\n", info.Platform)
	return tw.Flush()
}

// readBuildInfo is the binary's build information, or nil.
func readBuildInfo() *debug.BuildInfo {
	bi, _ := debug.ReadBuildInfo()
	return bi
}
