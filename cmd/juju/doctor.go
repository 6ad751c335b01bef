package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/visible"
	"github.com/jujutools/juju/sandbox"
)

// doctorOptions are the flags of juju doctor.
type doctorOptions struct {
	json       bool
	warm       bool
	configFile string
	roots      []string
}

func newDoctorCommand() *cobra.Command {
	o := &doctorOptions{}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the installation and what this machine offers",
		Long: `Check juju's installation and report what it can use on this machine:

  - its directories (config, state, cache, data), whether they exist and
    can be written, the size of the compiled-plugin cache, and why it is
    not used when it is not (a full or read-only disk: juju then compiles
    its plugins in memory at each start)
  - the config file, and whether it decodes
  - every plugin and whether it is compiled (--warm compiles them all now,
    one progress line per plugin on stderr)
  - git and ripgrep, with their versions
  - the registered language servers, and whether each command exists
  - the command sandbox: bubblewrap, proven by running it, and Landlock,
    with the ABI version the kernel reports
  - the change journal of the workspace (--root, default the current
    folder): how many changes it holds, their size and the oldest, what
    it keeps, and a change a killed juju left halfway ('juju rollback'
    settles it)

juju doctor exits with status 1 when it finds a problem (a config file that
does not decode, a directory that cannot be written, a plugin that does not
load or compile, a change left halfway). A missing optional program is reported, not a problem.`,
		Example: `  juju doctor
  juju doctor --warm
  juju doctor --json --config ./juju.toml`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dirs, dirsErr := config.DefaultDirs()
			cwd, _ := os.Getwd()
			env := doctorEnv{
				dirs:    dirs,
				dirsErr: dirsErr,
				cwd:     cwd,
				open: func() (*host.Host, error) {
					return openCatalog(quietLogger())
				},
				progress: cmd.ErrOrStderr(),
			}
			return runDoctor(cmd.Context(), cmd.OutOrStdout(), o, env)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON")
	cmd.Flags().BoolVar(&o.warm, "warm", false, "compile every plugin now (fills the cache, so first calls are fast)")
	addConfigFlag(cmd.Flags(), &o.configFile)
	cmd.Flags().StringArrayVar(&o.roots, "root", nil, "report the change journal of the workspace `DIR`, as given to juju stdio; repeat for more (default: the current folder)")
	return cmd
}

// doctorEnv is what doctor inspects; tests give their own.
type doctorEnv struct {
	dirs    config.Dirs
	dirsErr error
	open    func() (*host.Host, error) // loads the catalog
	cwd     string                     // the folder a workspace is found from ("": no journal report)
	// progress receives --warm's progress lines (stderr; nil: nowhere),
	// kept out of the report on stdout.
	progress io.Writer
}

// errProblems reports that doctor found problems (exit status 1); the
// report lists them.
var errProblems = errors.New("see the report")

func runDoctor(ctx context.Context, w io.Writer, o *doctorOptions, env doctorEnv) error {
	progress := env.progress
	if o.json || progress == nil {
		progress = io.Discard
	}
	r := collect(ctx, o, env, progress)
	if o.json {
		if err := writeJSON(w, r); err != nil {
			return err
		}
	} else if err := r.render(w); err != nil {
		return err
	}
	switch n := len(r.Problems); n {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("doctor found 1 problem: %w", errProblems)
	default:
		return fmt.Errorf("doctor found %d problems: %w", n, errProblems)
	}
}

func (r *doctorReport) render(w io.Writer) error {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	sys := r.System
	p("juju %s  (%s, %s/%s", r.Version, sys.Go, sys.OS, sys.Arch)
	if sys.Kernel != "" {
		p(", kernel %s", sys.Kernel)
	}
	p(")\n\nDirectories")
	if r.HomeEnv != "" {
		p(" (under %s=%s)", config.HomeEnv, r.HomeEnv)
	}
	p("\n")
	tw := newTable(w)
	for _, d := range r.Directories {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", d.Name, visible.String(d.Path), visible.String(d.status()))
	}
	fmt.Fprintf(tw, "  config file\t%s\t%s\n", visible.String(r.ConfigFile.Path), visible.String(r.ConfigFile.status()))
	tw.Flush()
	p("  compiled-plugin cache: %s\n", humanBytes(r.CacheBytes))
	if r.CacheProblem != "" {
		p("  the cache is %s\n", visible.String(r.CacheProblem))
	}

	p("\nPlugins\n")
	if r.PluginsError != "" {
		p("  cannot load the catalog: %s\n", visible.String(r.PluginsError))
	}
	tw = newTable(w)
	warm := false
	for _, pl := range r.Plugins {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", visible.String(pl.Name), pl.Source, count(pl.Tools, "tool"), visible.String(pl.status()))
		warm = warm || pl.CompileMs > 0
	}
	tw.Flush()
	if len(r.Plugins) > 0 && !warm {
		p("  (states are this process's; 'juju doctor --warm' compiles every plugin and fills the cache)\n")
	}

	p("\nPrograms\n")
	tw = newTable(w)
	for _, a := range r.Programs {
		fmt.Fprintf(tw, "  %s\t%s\n", a.Name, availability(a, programNotes[a.Name]))
	}
	tw.Flush()

	r.renderLSP(w)
	if r.Journal != nil {
		r.Journal.render(w)
	}

	p("\nCommand sandbox\n")
	tw = newTable(w)
	for _, a := range r.Sandbox {
		fmt.Fprintf(tw, "  %s\t%s\n", a.Name, availability(a, ""))
	}
	fmt.Fprintf(tw, "  in use\t%s\n", r.SandboxUse)
	if r.SandboxHelper != "" {
		fmt.Fprintf(tw, "  helper\t%s\n", visible.String(r.SandboxHelper))
	}
	tw.Flush()

	if len(r.Problems) == 0 {
		p("\nNo problems found.\n")
		return nil
	}
	p("\nProblems\n")
	for _, pr := range r.Problems {
		p("  - %s\n", visible.String(pr))
	}
	return nil
}

// programNotes say what juju loses without a program.
var programNotes = map[string]string{
	"git":     "the git tools (git_status, git_diff, git_log, git_commit) will fail",
	"ripgrep": "code search will use juju's own search: as fast on small trees, slower on large ones",
}

func availability(a sandbox.Availability, without string) string {
	if !a.Available {
		s := "unavailable: " + a.Reason
		if without != "" {
			s += "; " + without
		}
		return s
	}
	var parts []string
	switch {
	case a.Name == "landlock":
		parts = append(parts, "ABI "+a.Version)
	case a.Version != "":
		parts = append(parts, a.Version)
	}
	if a.Path != "" {
		parts = append(parts, a.Path)
	}
	if a.Name == "bubblewrap" {
		parts = append([]string{"works"}, parts...)
		if a.UserNS {
			parts = append(parts, "user namespace")
		} else {
			parts = append(parts, "no user namespace (as root, the capability bounding set stays; no capability is usable)")
		}
	}
	return strings.Join(parts, ", ")
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
