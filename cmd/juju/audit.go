package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/internal/audit"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/visible"
	"github.com/jujutools/juju/internal/workspace"
)

// auditOptions are the flags of juju audit.
type auditOptions struct {
	roots      []string
	since      string
	json       bool
	limit      int
	configFile string
}

func newAuditCommand() *cobra.Command {
	o := &auditOptions{}
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Show every tool call made on a workspace",
		Long: `Show the audit log of a workspace: every tool call an MCP client made, in
the order made — allowed, refused or held for approval — with the time, the
call id, the client, the plugin and tool, the arguments in short, the
outcome ('ok' or the error code), the duration, and, for calls that needed
your approval, how it was decided (elicitation in the client, or
'juju approvals').

The workspace is the current folder, or the --root folders given to
'juju stdio'. The log lives in juju's state directory, never in the
workspace; arguments are cut short and results are never recorded.`,
		Example: `  juju audit
  juju audit --since 1h
  juju audit --since 2026-01-02T15:04:05Z --json
  juju audit --root ~/src/app --limit 20`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runAudit(cmd.OutOrStdout(), cmd.ErrOrStderr(), o, time.Now())
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&o.roots, "root", nil, "the workspace `DIR`, as given to juju stdio; repeat for more (default: the current folder)")
	f.StringVar(&o.since, "since", "", "show calls since `WHEN`: a duration back from now (90m, 2h, 3d) or a time (RFC 3339)")
	f.BoolVar(&o.json, "json", false, "print a JSON array, one object per call")
	f.IntVar(&o.limit, "limit", 0, "show only the last `N` calls (0: all)")
	addConfigFlag(f, &o.configFile)
	return cmd
}

// parseSince reads --since: a duration back from now, with d for days, or
// an RFC 3339 time.
func parseSince(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 {
			if int64(n) > math.MaxInt64/int64(24*time.Hour) {
				// Further back than a Duration reaches (292 years), which
				// wrapped round to a time to come: every call is since.
				return time.Time{}, nil
			}
			return now.Add(-time.Duration(n) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, usageError{fmt.Errorf("--since %q is neither a duration (90m, 2h, 3d) nor a time (2026-01-02T15:04:05Z)", s)}
}

// openWorkspace opens the workspace made of roots (the current folder when
// none) as juju stdio does, with the owner's config file (configFile, as
// --config names it, else config.toml): its deny and secret globs, and its
// state folder. It returns the sentence that points to the workspace
// juju served, when this workspace has no audit log and one above it,
// or one of the same roots in another order, has (workspaceHint).
func openWorkspace(roots []string, configFile string) (ws *workspace.Workspace, resolved []string, hint string, err error) {
	dirs, err := config.DefaultDirs()
	if err != nil {
		return nil, nil, "", err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, nil, "", err
	}
	file, err := loadConfig(configFile, dirs)
	if err != nil {
		return nil, nil, "", err
	}
	s, err := config.Resolve(config.Flags{Roots: roots}, file, cwd)
	if err != nil {
		return nil, nil, "", err
	}
	ws, err = workspace.Open(workspace.FromSettings(s, dirs, nil))
	if err != nil {
		return nil, nil, "", err
	}
	return ws, s.Roots, workspaceHint(dirs, s.Roots, audit.FileName, "audit", "its log of calls"), nil
}

func runAudit(w, errw io.Writer, o *auditOptions, now time.Time) error {
	if o.limit < 0 {
		return usageError{fmt.Errorf("--limit %d must not be negative", o.limit)}
	}
	since, err := parseSince(o.since, now)
	if err != nil {
		return err
	}
	ws, roots, hint, err := openWorkspace(o.roots, o.configFile)
	if err != nil {
		return err
	}
	defer ws.Close()
	recs, err := audit.Read(audit.Path(ws.StateDir), audit.Query{Since: since, Limit: o.limit})
	if err != nil {
		return err
	}
	entries, err := audit.Join(recs, changesOf(ws.Journal), since)
	if err != nil {
		// The calls are the audit log's; only the changes each made come
		// from the journal. A journal that cannot be read (damaged, or held
		// past the lock timeout) still leaves the calls to show, which the
		// owner wants most when something went wrong.
		fmt.Fprintf(errw, "juju: the calls are shown without the changes they made: %s\n", visible.String(err.Error()))
	}
	if o.json {
		return writeJSON(w, entries)
	}
	if len(entries) == 0 {
		fmt.Fprintf(w, "No tool calls recorded for the workspace %s%s.\n", visible.Join(roots, ", "), sinceWords(o.since))
		if hint != "" {
			fmt.Fprintln(w, hint)
		}
		return nil
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "TIME\tCALL\tCLIENT\tTOOL\tOUTCOME\tMS\tAPPROVAL\tARGUMENTS")
	for _, e := range entries {
		// Args is ShortArgs, rendered already: shown as it is, unless an
		// earlier juju recorded it with characters that do not show.
		args := e.Args
		if !visible.Shows(args) {
			args = visible.String(args)
		}
		args, _ = visible.Clip(args, 60)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.1f\t%s\t%s\n", e.Time.Local().Format("2006-01-02 15:04:05"), e.CallID, clientName(e.Client),
			visible.String(e.Tool), visible.String(e.Outcome), e.DurationMs, approvalWords(e.Approval), args)
		for _, c := range e.Changes {
			rb := ""
			if c.RolledBack {
				rb = " (rolled back)"
			}
			paths, _ := visible.Clip(visible.Join(c.Paths, ", "), 60)
			fmt.Fprintf(tw, "\t\t\t  change %s%s\t\t\t\t%s\n", c.ID, rb, paths)
		}
		for _, f := range e.Fetches {
			fmt.Fprintf(tw, "\t\t\t  fetch\t%s\t\t\t%s\n", visible.String(fetchOutcome(f)), fetchWords(f))
		}
		if d := e.FetchesDropped; d != nil {
			fmt.Fprintf(tw, "\t\t\t  fetch\t+%d more\t\t\t%s\n", d.Count, droppedWords(d))
		}
	}
	return tw.Flush()
}

func sinceWords(since string) string {
	if since == "" {
		return ""
	}
	return " since " + since
}

// approvalWords says how a call was approved: "-" when none was needed.
func approvalWords(a *audit.Approval) string {
	if a == nil {
		return "-"
	}
	s := a.Decision + " (" + a.Via
	if a.ID != "" {
		s += " " + a.ID
	}
	return s + ")"
}

// fetchOutcome is a fetch's HTTP status, or its error code.
func fetchOutcome(f audit.Fetch) string {
	if f.Outcome != audit.OutcomeOK || f.Status == 0 {
		return f.Outcome
	}
	return strconv.Itoa(f.Status)
}

// fetchWords is the URL fetched and, when it differs, where it ended.
func fetchWords(f audit.Fetch) string {
	s := shortURL(f.URL, 120)
	if f.FinalURL != "" && f.FinalURL != f.URL {
		s = shortURL(f.URL, 80) + " → " + shortURL(f.FinalURL, 80)
	}
	for _, w := range []*audit.Whole{f.URLWhole, f.FinalURLWhole} {
		if w != nil {
			s += fmt.Sprintf(" (a URL of %d bytes, recorded cut; sha256 %s)", w.Bytes, w.SHA256)
		}
	}
	return s
}

// droppedWords names the hosts of the fetches past the listed ones.
func droppedWords(d *audit.DroppedFetches) string {
	hosts := make([]string, len(d.Hosts))
	for i, h := range d.Hosts {
		hosts[i] = shortURL(h, 60)
	}
	s := "not listed"
	if len(hosts) > 0 {
		s += "; to " + strings.Join(hosts, ", ")
	}
	if d.MoreHosts {
		s += " and other hosts"
	}
	return s
}

// shortURL is a URL as the owner's terminal shows it: escaped, the
// record's masks of credentials (audit.MaskURL) kept as they are, at most
// n characters.
func shortURL(u string, n int) string {
	parts := strings.Split(u, visible.SecretMark)
	for i, p := range parts {
		parts[i] = visible.String(p)
	}
	shown, _ := visible.Clip(strings.Join(parts, visible.SecretMark), n)
	return shown
}
