package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/lspconfig"
)

// lspListOptions are the flags of juju lsp list.
type lspListOptions struct {
	json bool
}

func newLSPListCommand() *cobra.Command {
	o := &lspListOptions{}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the registered language servers",
		Long: `List the registered language servers: their languages, root markers and
command, and whether the command is found on PATH now.`,
		Example: `  juju lsp list
  juju lsp list --json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dirs, err := config.DefaultDirs()
			if err != nil {
				return err
			}
			return runLSPList(cmd.OutOrStdout(), dirs, o)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return cmd
}

// lspEntry is one registration as lsp list and doctor show it.
type lspEntry struct {
	lspconfig.Server
	// InitOptions is the registration's initOptions as the JSON object it
	// is, not a string of JSON a script would decode twice.
	InitOptions json.RawMessage `json:"initOptions,omitempty"`
	// RootMarkers is always an array, empty when none was given, so a
	// script can iterate it (CLI.md lists it among every entry's fields).
	RootMarkers []string `json:"rootMarkers"`
	Found       bool     `json:"found"`          // the command is on PATH
	Path        string   `json:"path,omitempty"` // where
}

// newLSPEntry shows the registration s, its command looked up on PATH.
func newLSPEntry(s lspconfig.Server) lspEntry {
	e := lspEntry{Server: s, RootMarkers: s.RootMarkers}
	if e.RootMarkers == nil {
		e.RootMarkers = []string{}
	}
	if json.Valid([]byte(s.InitOptions)) {
		e.InitOptions = json.RawMessage(s.InitOptions)
	}
	if p, err := exec.LookPath(s.Command[0]); err == nil {
		e.Found, e.Path = true, p
	}
	return e
}

// lspEntries loads the registrations and looks their commands up.
func lspEntries(dirs config.Dirs) ([]lspEntry, error) {
	servers, err := lspconfig.Load(dirs.Config)
	if err != nil {
		return nil, err
	}
	out := make([]lspEntry, 0, len(servers))
	for _, s := range servers {
		out = append(out, newLSPEntry(s))
	}
	return out, nil
}

func runLSPList(w io.Writer, dirs config.Dirs, o *lspListOptions) error {
	entries, err := lspEntries(dirs)
	if err != nil {
		return err
	}
	if o.json {
		return writeJSON(w, entries)
	}
	if len(entries) == 0 {
		_, err := fmt.Fprintln(w, "No language server registered: the semantic tools use the heuristic index.\nRegister one with: juju lsp add NAME --command CMD --languages LANG")
		return err
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "NAME\tLANGUAGES\tROOT MARKERS\tCOMMAND\tSTATUS")
	for _, e := range entries {
		status := "found: " + e.Path
		if !e.Found {
			status = "NOT FOUND on PATH"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.Name, strings.Join(e.Languages, ","), strings.Join(e.RootMarkers, ","),
			strings.Join(e.Command, " "), status)
	}
	return tw.Flush()
}
