package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/hostfns/git"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/sandbox"
)

// doctorReport is what juju doctor found; --json prints it as is.
type doctorReport struct {
	Version     string     `json:"version"`
	System      systemInfo `json:"system"`
	HomeEnv     string     `json:"jujuHome,omitempty"` // JUJU_HOME when set
	Directories []dirCheck `json:"directories"`
	ConfigFile  fileCheck  `json:"configFile"`
	CacheBytes  int64      `json:"cacheBytes"`
	// CacheProblem says why the compilation cache is not used, so that
	// every start compiles the plugins again, or that it soon will not be
	// ("" when all is well).
	CacheProblem string                 `json:"cacheProblem,omitempty"`
	Plugins      []pluginCheck          `json:"plugins"`
	PluginsError string                 `json:"pluginsError,omitempty"`
	Programs     []sandbox.Availability `json:"programs"` // git, ripgrep
	Sandbox      []sandbox.Availability `json:"sandbox"`  // bubblewrap, landlock
	// SandboxUse is what a sandboxed command runs under here
	// ("bubblewrap+landlock", "bubblewrap"), or "none: " and why.
	SandboxUse string `json:"sandboxUse"`
	// SandboxHelper is the program that applies Landlock and checks the
	// pins inside a sandbox: juju-sandbox beside juju, or juju itself.
	SandboxHelper string   `json:"sandboxHelper,omitempty"`
	LSP           lspCheck `json:"lspServers"` // the language-server registrations
	// Journal is the change journal of the workspace juju stdio would
	// serve here; nil when the settings do not resolve.
	Journal  *journalCheck `json:"journal,omitempty"`
	Problems []string      `json:"problems"`
}

type systemInfo struct {
	OS     string `json:"os"`
	Arch   string `json:"arch"`
	Kernel string `json:"kernel,omitempty"`
	Go     string `json:"go"`
}

type dirCheck struct {
	Name   string `json:"name"` // config, state, cache, data
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
	// Writable: juju can write in it, or, for a missing one, create it.
	Writable bool   `json:"writable"`
	Problem  string `json:"problem,omitempty"`
}

func (d dirCheck) status() string {
	switch {
	case d.Problem != "":
		return d.Problem
	case d.Exists:
		return "ok, writable"
	}
	return "not created yet (juju creates it when needed)"
}

type fileCheck struct {
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
	Error  string `json:"error,omitempty"`
}

func (f fileCheck) status() string {
	switch {
	case f.Error != "":
		return "error: " + f.Error
	case f.Exists:
		return "ok"
	}
	return "none (the defaults apply)"
}

type pluginCheck struct {
	Name      string      `json:"name"`
	Source    host.Source `json:"source"`
	Tools     int         `json:"tools"`
	State     string      `json:"state"`
	CompileMs int64       `json:"compileMs,omitempty"` // with --warm
	Error     string      `json:"error,omitempty"`
}

func (p pluginCheck) status() string {
	s := p.State
	if p.CompileMs > 0 {
		s += fmt.Sprintf(" (%s)", seconds(time.Duration(p.CompileMs)*time.Millisecond))
	}
	if p.Error != "" {
		s += ": " + p.Error
	}
	return s
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

// collect runs every check. With o.warm, it compiles each plugin in turn and
// writes a progress line per plugin to progress.
func collect(ctx context.Context, o *doctorOptions, env doctorEnv, progress io.Writer) *doctorReport {
	bi := buildVersion(version, readBuildInfo())
	r := &doctorReport{
		Version:  version,
		System:   systemInfo{OS: runtime.GOOS, Arch: runtime.GOARCH, Kernel: sandbox.KernelRelease(), Go: bi.Go},
		HomeEnv:  os.Getenv(config.HomeEnv),
		Plugins:  []pluginCheck{},
		Problems: []string{},
	}
	problem := func(format string, args ...any) { r.Problems = append(r.Problems, fmt.Sprintf(format, args...)) }

	var file *config.File
	r.ConfigFile, file = checkConfig(o.configFile, env.dirs)
	if r.ConfigFile.Error != "" {
		problem("config file: %s", strings.TrimPrefix(r.ConfigFile.Error, "config file: "))
	}
	if file != nil && env.dirsErr == nil && env.cwd != "" {
		var flags config.Flags
		if len(o.roots) > 0 {
			flags.Roots = o.roots
		}
		s, err := config.Resolve(flags, file, env.cwd)
		if err == nil {
			r.Journal = checkJournal(s, env.dirs)
		}
		// A workspace juju stdio would refuse to start on (a --root that
		// does not exist, or is no folder) is a problem, not only a
		// journal that cannot be read.
		if j := r.Journal; err != nil || j.Path == "" && j.Error != "" {
			if err == nil {
				err = errors.New(j.Error)
			}
			roots := o.roots
			if len(roots) == 0 {
				roots = []string{env.cwd}
			}
			problem("workspace %s: %v; juju stdio would not start on it", strings.Join(roots, ", "), err)
		}
		if j := r.Journal; j != nil && len(j.Pending) > 0 {
			problem("%s", j.pendingWords())
		}
	}

	r.checkLSP(env)
	r.Plugins, r.CacheProblem, r.PluginsError = checkPlugins(ctx, env, o.warm, progress)
	if r.PluginsError != "" {
		problem("plugins: %s", r.PluginsError)
	}
	for _, p := range r.Plugins {
		if p.Error != "" {
			problem("plugin %s is %s: %s", p.Name, p.State, p.Error)
		}
	}

	// After the plugins: loading the catalog creates the cache directory,
	// and --warm fills it.
	if env.dirsErr != nil {
		problem("juju's directories: %v", env.dirsErr)
	} else {
		d := env.dirs
		for _, c := range []struct{ name, path string }{
			{"config", d.Config}, {"state", d.State}, {"cache", d.Cache}, {"data", d.Data},
		} {
			dc := checkDir(c.name, c.path)
			if dc.Problem != "" {
				problem("%s directory %s: %s", c.name, c.path, dc.Problem)
			}
			r.Directories = append(r.Directories, dc)
		}
		r.CacheBytes = dirSize(d.Cache)
		if r.CacheProblem == "" {
			r.CacheProblem = checkCacheSpace(d.Cache)
		}
		if r.CacheProblem != "" {
			problem("compilation cache %s: %s", d.Cache, r.CacheProblem)
		}
	}

	r.Programs = []sandbox.Availability{
		sandbox.DetectProgram(ctx, "git", "--version"),
		sandbox.DetectProgram(ctx, "rg", "--version"),
	}
	r.Programs[1].Name = "ripgrep"
	if g := r.Programs[0]; g.Available && git.TooOld(g.Version) {
		problem("git %s is older than %d.%d, the oldest git the git tools run (an older one ignores the settings that keep a repository's configuration from running programs): git_status, git_diff, git_log, git_commit and the overview's git refuse until git is upgraded",
			g.Version, git.MinVersion[0], git.MinVersion[1])
	}
	r.Sandbox = []sandbox.Availability{sandbox.DetectBubblewrap(ctx), sandbox.DetectLandlock()}
	helper := sandbox.DefaultHelper()
	r.SandboxHelper = strings.Join(helper, " ")
	mech, err := sandbox.New(helper).Available()
	r.SandboxUse = mech
	if err != nil {
		r.SandboxUse = "none: " + err.Error()
		if file != nil && file.Sandbox != nil && *file.Sandbox == sandbox.Require {
			problem("the config file sets sandbox = %q, but no command sandbox works here (%v): "+
				"every command will fail with SANDBOX_UNAVAILABLE", sandbox.Require, err)
		}
	}
	return r
}

// checkDir says whether juju can use a directory: write in it, or create it.
func checkDir(name, path string) dirCheck {
	d := dirCheck{Name: name, Path: path}
	fi, err := os.Stat(path)
	switch {
	case err == nil && !fi.IsDir():
		d.Exists = true
		d.Problem = "is not a folder"
	case err == nil:
		d.Exists = true
		if err := probeWrite(path); err != nil {
			d.Problem = fmt.Sprintf("cannot be written: %v", err)
		} else {
			d.Writable = true
		}
	case errors.Is(err, fs.ErrNotExist):
		parent := nearestExisting(path)
		if err := probeWrite(parent); err != nil {
			d.Problem = fmt.Sprintf("missing, and cannot be created in %s: %v", parent, err)
		} else {
			d.Writable = true
		}
	default: // a file where a parent folder should be, a permission denied …
		d.Problem = fmt.Sprintf("cannot be used: %v", err)
	}
	return d
}

// probeWrite proves dir is writable by creating and removing a file in it.
func probeWrite(dir string) error {
	f, err := os.CreateTemp(dir, ".juju-doctor-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

func nearestExisting(path string) string {
	for {
		parent := filepath.Dir(path)
		if fi, err := os.Stat(parent); err == nil && fi.IsDir() || parent == path {
			return parent
		}
		path = parent
	}
}

// dirSize sums the sizes of the regular files under dir (0 when missing).
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if e.Type().IsRegular() {
			if fi, err := e.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// checkConfig reads the config file as juju stdio would; the File is nil
// when it does not decode.
func checkConfig(explicit string, dirs config.Dirs) (fileCheck, *config.File) {
	f := fileCheck{Path: explicit}
	if f.Path == "" {
		f.Path = dirs.ConfigFile()
	}
	if _, err := os.Stat(f.Path); err == nil {
		f.Exists = true
	}
	file, err := loadConfig(explicit, dirs)
	if err != nil {
		f.Error = err.Error()
	}
	return f, file
}

// checkPlugins loads the catalog and, with warm, compiles each plugin in
// turn, writing "compiling NAME… 0.9 s" to progress. It also returns why
// the compilation cache is not used ("" when it is).
func checkPlugins(ctx context.Context, env doctorEnv, warm bool, progress io.Writer) ([]pluginCheck, string, string) {
	h, err := env.open()
	if err != nil {
		return []pluginCheck{}, "", err.Error()
	}
	defer closeHost(h, quietLogger(), shutdownGrace)
	out := []pluginCheck{}
	for _, l := range h.Plugins() {
		c := pluginCheck{Name: l.Name(), Source: l.Source, Tools: len(l.Manifest.Tools), State: pluginState(l)}
		if l.Err != nil {
			c.State, c.Error = "refused", l.Err.Error()
			out = append(out, c)
			continue
		}
		if warm {
			fmt.Fprintf(progress, "compiling %s… ", l.Name())
			start := time.Now()
			err := l.Warm(ctx)
			took := time.Since(start)
			c.CompileMs = max(took.Milliseconds(), 1)
			c.State = l.State().String()
			if err != nil {
				c.Error = err.Error()
				fmt.Fprintf(progress, "failed after %s: %v\n", seconds(took), err)
			} else {
				fmt.Fprintln(progress, seconds(took))
			}
		}
		out = append(out, c)
	}
	if warm && len(out) > 0 {
		fmt.Fprintln(progress)
	}
	cache := ""
	if err := h.CacheProblem(); err != nil {
		cache = fmt.Sprintf("not used (%v): juju compiles its plugins in memory at each start instead, a second or two each", err)
	}
	return out, cache, ""
}

// minCacheSpace is the free space under which the compilation cache is
// said to be about full: a compiled Go plugin takes about 20 MiB.
const minCacheSpace = 64 << 20

// checkCacheSpace says when the cache's file system is about full, which
// only a compilation would otherwise find out.
func checkCacheSpace(dir string) string {
	free, err := freeSpace(nearestExisting(filepath.Join(dir, "x")))
	if err != nil || free >= minCacheSpace {
		return ""
	}
	return fmt.Sprintf("about full: its file system has %s free and a compiled plugin takes about 20 MiB; once it is full, juju compiles its plugins in memory at each start", humanBytes(free))
}
