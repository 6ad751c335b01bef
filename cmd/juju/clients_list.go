package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/oauth"
	"github.com/jujutools/juju/internal/visible"
)

// clientsListOptions are the flags of juju clients list.
type clientsListOptions struct {
	json bool
}

func newClientsListCommand() *cobra.Command {
	o := &clientsListOptions{}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the OAuth clients registered with juju serve",
		Long: `List the OAuth clients registered with juju serve, oldest first: id, name,
redirect URIs, when it registered, when it last used juju, and whether you
granted it access (a client that registered but was never allowed is
forgotten after a day).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runClientsList(o, cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print a JSON array, one object per client")
	return cmd
}

func runClientsList(o *clientsListOptions, out io.Writer) error {
	dirs, err := config.DefaultDirs()
	if err != nil {
		return err
	}
	list, err := oauth.OpenStore(oauthDir(dirs)).Clients()
	if err != nil {
		return err
	}
	if o.json {
		return writeJSON(out, list)
	}
	if len(list) == 0 {
		fmt.Fprintln(out, "No OAuth clients. They appear once one connects to juju serve and you allow it.")
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tREDIRECT URIS\tCREATED\tLAST USED\tACCESS")
	for _, c := range list {
		access := "granted"
		if c.Grants == 0 {
			access = "none"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.ID, visible.String(c.Name), visible.String(strings.Join(c.RedirectURIs, " ")),
			when(c.Created), when(c.LastUsed), access)
	}
	return tw.Flush()
}

// when formats a time for the table.
func when(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.Local().Format("2006-01-02 15:04")
}
