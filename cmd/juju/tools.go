package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/sdk/abi"
)

// toolsOptions are the flags of juju tools.
type toolsOptions struct {
	json bool
}

func newToolsCommand() *cobra.Command {
	o := &toolsOptions{}
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "List the tools an MCP client will see",
		Long: `List the tools juju serves: the core plugins' and those of the plugins you
installed, as an MCP client sees them in tools/list. Each has a tier:

  R  read: looks at the workspace; never waits for approval
  E  edit: changes files (journaled); waits for approval in inspect mode
  X  exec: runs commands or reaches the network; waits for approval in
     inspect and edit mode

--json prints each tool in full, with its annotations and input schema.`,
		Example: `  juju tools
  juju tools --json | jq '.[] | select(.tier == "X") | .name'`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withCatalog(func(h *host.Host) error {
				return runTools(cmd.OutOrStdout(), h.Tools(), o)
			})
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON: name, title, tier, plugin, description, annotations, schemas")
	return cmd
}

// toolJSON is one tool in juju tools --json.
type toolJSON struct {
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Tier         string          `json:"tier"`
	Plugin       string          `json:"plugin"`
	Description  string          `json:"description"`
	Annotations  abi.Annotations `json:"annotations"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
}

// runTools prints the catalog, sorted by name as the host gives it.
func runTools(w io.Writer, tools []*host.Tool, o *toolsOptions) error {
	if o.json {
		out := make([]toolJSON, len(tools))
		for i, t := range tools {
			out[i] = toolJSON{
				Name:         t.Spec.Name,
				Title:        t.Spec.Title,
				Tier:         t.Spec.Tier,
				Plugin:       t.Plugin.Name(),
				Description:  t.Spec.Description,
				Annotations:  t.Spec.Annotations,
				InputSchema:  t.Spec.InputSchema,
				OutputSchema: t.Spec.OutputSchema,
			}
		}
		return writeJSON(w, out)
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "NAME\tTIER\tPLUGIN\tDESCRIPTION")
	for _, t := range tools {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.Spec.Name, t.Spec.Tier, t.Plugin.Name(), shownLine(t.Spec.Description, 72))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%d tools. Tiers: R read, E edit, X exec (juju tools --help).\n", len(tools))
	return err
}
