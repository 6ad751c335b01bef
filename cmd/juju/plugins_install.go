package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/jujutools/juju/host/install"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/visible"
	"github.com/jujutools/juju/sdk/abi"
)

// pluginsInstallOptions are the flags of juju plugins install.
type pluginsInstallOptions struct {
	sha256 string
	grants []string
	yes    bool
	json   bool
}

func newPluginsInstallCommand() *cobra.Command {
	o := &pluginsInstallOptions{}
	cmd := &cobra.Command{
		Use:   "install PATH|URL",
		Short: "Install or update a plugin, granting only what you confirm",
		Long: `Install a plugin from a folder (manifest.json and the wasm it names), a .tar.gz
of such a folder, or an https URL of such an archive. A URL needs --sha256,
the sha256 of the plugin's wasm as its author publishes it; for a path it is
checked when given.

juju checks everything before the installed plugins change: the manifest is
valid, the wasm matches the manifest's sha256 (and yours), the tools are
those the plugin describes, and no tool name is already taken by a core or
another installed plugin. The plugin is compiled once into the cache, so its
first call is fast, then moved into place and pinned: juju refuses to load it
if its wasm or manifest change afterwards.

The plugin gets only the capabilities you grant: those you name with
--grant ("--grant all" for everything it asks for), and, on a terminal,
those you confirm when asked about each one. --yes asks nothing. Installing
over an installed plugin (an update) keeps the grants it had for
capabilities still asked for; a capability the new version asks for anew is
granted only by --grant or your answer.`,
		Example: `  juju plugins install ./my-plugin --grant fs.read
  juju plugins install https://example.com/rake-1.0.tar.gz --sha256 9f86d0…
  juju plugins install ./my-plugin --yes --json`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dirs, err := config.DefaultDirs()
			if err != nil {
				return err
			}
			in := cmd.InOrStdin()
			return runPluginsInstall(cmd, args[0], dirs, in, !o.yes && isTerminal(in), o)
		},
	}
	cmd.Flags().StringVar(&o.sha256, "sha256", "", "the expected sha256 `HEX` of the plugin's wasm (required for a URL)")
	cmd.Flags().StringArrayVar(&o.grants, "grant", nil, "grant the `CAPABILITY` the plugin asks for (repeat it, or \"all\")")
	cmd.Flags().BoolVar(&o.yes, "yes", false, "ask nothing: grant only what --grant names (and, on update, what was granted before)")
	cmd.Flags().BoolVar(&o.json, "json", false, "print the result as JSON")
	return cmd
}

// isTerminal reports whether r is a terminal the owner can answer on.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd())) // not /dev/null, a character device too
}

// runPluginsInstall installs src; with interactive set it asks on stderr
// about each capability not already granted and reads the answers from in.
func runPluginsInstall(cmd *cobra.Command, src string, dirs config.Dirs, in io.Reader, interactive bool, o *pluginsInstallOptions) error {
	if err := install.CheckSource(src, o.sha256); err != nil {
		return usageError{err}
	}
	if err := install.CheckCapabilityNames(o.grants); err != nil {
		return usageError{err}
	}
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	opts := install.Options{
		Data:   dirs.Data,
		Cache:  dirs.Cache,
		SHA256: o.sha256,
		Grants: o.grants,
	}
	if !o.json {
		opts.Progress = stderr
	}
	opts.Waiting = stderr
	if interactive {
		answers := bufio.NewReader(in)
		first := true
		opts.Confirm = func(c abi.Capability, words string) (bool, error) {
			if first {
				fmt.Fprintln(stderr, "The plugin asks for capabilities you have not granted it:")
				first = false
			}
			fmt.Fprintf(stderr, "  %s: %s. Grant it? [y/N] ", c, words)
			line, err := answers.ReadString('\n')
			if err != nil && line == "" {
				fmt.Fprintln(stderr)
				return false, nil
			}
			a := strings.ToLower(strings.TrimSpace(line))
			return a == "y" || a == "yes", nil
		}
	}
	res, err := install.Install(cmd.Context(), src, opts)
	if err != nil {
		return shownError(err)
	}
	if o.json {
		return writeJSON(stdout, res)
	}
	printInstall(stdout, res)
	return nil
}

// shownError is err as the owner's terminal may print it. A refused
// install's error quotes what the plugin's author chose (an archive's entry
// names, a schema's pattern through the regexp parser's message, the
// failure juju_describe reported, a server's status line), and an escape
// sequence there would act on the terminal: rewrite the lines above,
// or set the clipboard (OSC 52) to a command for the owner to paste. An
// error that does not show as itself is rendered as juju plugins list
// renders a refused plugin's (visible.String: on one line, every
// character visible); errors.Is and errors.As still see the original.
func shownError(err error) error {
	if msg := err.Error(); !visible.Shows(msg) {
		return &renderedError{msg: visible.String(msg), err: err}
	}
	return err
}

// renderedError is an error whose text was rendered for the terminal.
type renderedError struct {
	msg string
	err error
}

func (e *renderedError) Error() string { return e.msg }
func (e *renderedError) Unwrap() error { return e.err }

// printInstall tells the owner what was installed and what it may do.
func printInstall(w io.Writer, r *install.Result) {
	verb := "installed"
	if r.Update != nil {
		verb = fmt.Sprintf("updated (from %s)", visible.String(dash(r.Update.PreviousVersion)))
	}
	fmt.Fprintf(w, "%s %s %s\n", r.Name, visible.String(r.Version), verb)
	fmt.Fprintf(w, "  sha256 %s (pinned)\n", r.SHA256)
	if len(r.Tools) > 0 {
		fmt.Fprintf(w, "  tools  %s\n", strings.Join(r.Tools, ", "))
	}
	if len(r.Discoverers) > 0 {
		fmt.Fprintf(w, "  task discoverers %s\n", strings.Join(r.Discoverers, ", "))
	}
	if u := r.Update; u != nil {
		if len(u.NewTools) > 0 {
			fmt.Fprintf(w, "  new tools: %s\n", strings.Join(u.NewTools, ", "))
		}
		if len(u.RemovedTools) > 0 {
			fmt.Fprintf(w, "  removed tools: %s\n", strings.Join(u.RemovedTools, ", "))
		}
		for _, t := range u.Retiered {
			fmt.Fprintf(w, "  re-tiered: %s %s → %s (%s)\n", t.Tool, t.From, t.To, tierWords(t.To))
		}
	}
	fmt.Fprintf(w, "  limits %s\n", limitsWords(r.Limits))
	if len(r.Capabilities) == 0 {
		fmt.Fprintln(w, "  it asks for no capability")
	}
	granted := map[abi.Capability]bool{}
	for _, c := range r.Granted {
		granted[c] = true
	}
	isNew := map[abi.Capability]bool{}
	if r.Update != nil {
		for _, c := range r.Update.NewAsks {
			isNew[c] = true
		}
		for _, c := range r.Update.Dropped {
			fmt.Fprintf(w, "  %s: no longer asked for\n", c)
		}
	}
	for _, c := range r.Capabilities {
		state := "granted"
		if !granted[c] {
			state = "NOT granted"
		}
		note := ""
		if isNew[c] {
			note = " (new in this version)"
		}
		fmt.Fprintf(w, "  %s: %s%s: %s\n", c, state, note, install.Words(c))
	}
	if len(r.NotGranted) > 0 {
		var names []string
		for _, c := range r.NotGranted {
			names = append(names, string(c))
		}
		fmt.Fprintf(w, "A call that needs a capability not granted fails with CAPABILITY_DENIED; grant it with\n  juju plugins grant %s %s\n", r.Name, strings.Join(names, " "))
	}
	if r.CachePrunedBytes > 0 {
		fmt.Fprintf(w, "Removed %s of compiled code no plugin uses any more from the cache.\n", humanBytes(r.CachePrunedBytes))
	}
	fmt.Fprintln(w, "A running juju serves the new tools from its next call (and tells its client the tool list changed).")
}

// tierWords says what a tier lets a tool do, as the owner approves it.
func tierWords(tier string) string {
	switch tier {
	case abi.TierRead:
		return "it reads"
	case abi.TierEdit:
		return "it changes files"
	case abi.TierExec:
		return "it runs commands or reaches the network"
	}
	return tier
}
