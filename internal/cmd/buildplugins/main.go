// Command buildplugins builds juju plugins from source for the Makefile and
// keeps their manifests in step with their code.
//
//	buildplugins [-update] [-check] [-prune] -out DIR [-embed FILE] SRC...
//
// Each SRC is a plugin's source folder (a main package and manifest.json).
// The plugin is compiled for wasip1 and written to DIR/<name>/ as
// plugin.wasm and a manifest stamped with its sha256. With -update the
// source manifest's tools are rewritten from the plugin's juju_describe
// export (its identity is kept); with -check the command fails when they
// differ, which makes the committed manifests a golden snapshot of the tool
// schemas. With -embed, a Go source is written to FILE that embeds each
// plugin's wasm in DIR as a string (package core reads the core plugins
// through it without a copy). One progress line per plugin goes to stderr.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/jujutools/juju/host/pluginbuild"
	"github.com/jujutools/juju/internal/manifest"
)

// options are the command's flags and arguments.
type options struct {
	out     string
	update  bool
	check   bool
	cache   string
	prune   bool
	embed   string
	sources []string
}

func main() {
	opts, err := parse(os.Args[1:], os.Stderr)
	if err != nil {
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, opts, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "buildplugins:", err)
		os.Exit(1)
	}
}

func parse(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("buildplugins", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.out, "out", "", "write each built plugin to `DIR`/<name>/")
	fs.BoolVar(&o.update, "update", false, "rewrite each source manifest's tools from the plugin's describe export")
	fs.BoolVar(&o.check, "check", false, "fail when a source manifest's tools differ from the plugin's describe export")
	fs.BoolVar(&o.prune, "prune", false, "after a clean build, remove plugins in the -out folder that no source built (renamed or removed plugins)")
	fs.StringVar(&o.embed, "embed", "", "after a clean build, write `FILE`, a Go source that embeds the wasm of every plugin in the -out folder as a string")
	fs.StringVar(&o.cache, "cache", "", "keep wazero's compilation cache for -update and -check in `DIR` (default: in memory)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: buildplugins [-update] [-check] [-prune] -out DIR [-embed FILE] SRC...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	o.sources = fs.Args()
	switch {
	case len(o.sources) == 0:
		err := errors.New("no plugin source folder given")
		fmt.Fprintln(stderr, "buildplugins:", err)
		fs.Usage()
		return o, err
	case o.out == "" && !o.check && !o.update:
		err := errors.New("-out is required (or -check / -update alone)")
		fmt.Fprintln(stderr, "buildplugins:", err)
		return o, err
	case o.embed != "" && o.out == "":
		err := errors.New("-embed needs -out")
		fmt.Fprintln(stderr, "buildplugins:", err)
		return o, err
	case o.update && o.check:
		err := errors.New("-update and -check exclude each other")
		fmt.Fprintln(stderr, "buildplugins:", err)
		return o, err
	}
	return o, nil
}

// run builds every source, continuing past failures, and returns them joined.
func run(ctx context.Context, o options, stderr io.Writer) error {
	var errs []error
	built := map[string]bool{}
	for _, src := range o.sources {
		name, err := buildOne(ctx, o, src, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "%s: FAILED: %v\n", src, err)
			errs = append(errs, fmt.Errorf("%s: %w", src, err))
			continue
		}
		built[name] = true
	}
	if len(errs) == 0 && o.prune && o.out != "" {
		if err := prune(o.out, built, stderr); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 && o.embed != "" {
		if err := writeEmbed(o.embed, o.out); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// prune removes the plugin folders of out (those holding a manifest) that
// this run did not build: left there by a plugin since renamed or removed,
// they would be embedded beside their successors.
func prune(out string, built map[string]bool, stderr io.Writer) error {
	entries, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	for _, e := range entries {
		dir := filepath.Join(out, e.Name())
		if !e.IsDir() || built[e.Name()] {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, manifest.FileName)); err != nil {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "%s: removed, no source builds it any more\n", dir)
	}
	return nil
}

// buildOne builds one plugin source and returns the plugin's name.
func buildOne(ctx context.Context, o options, src string, stderr io.Writer) (string, error) {
	srcManifest, err := pluginbuild.ReadSource(src)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(stderr, "%s: building…\n", src)
	start := time.Now()
	wasm, err := pluginbuild.Compile(ctx, src)
	if err != nil {
		return "", err
	}
	took := time.Since(start)
	if o.update || o.check {
		if srcManifest, err = reconcile(ctx, o, src, srcManifest, wasm, stderr); err != nil {
			return "", err
		}
	}
	m, err := manifest.DecodeSource(srcManifest)
	if err != nil {
		return "", fmt.Errorf("%s: %w", manifest.FileName, err)
	}
	where := ""
	if o.out != "" {
		if m, err = pluginbuild.Stamp(o.out, m, wasm); err != nil {
			return "", err
		}
		where = " → " + filepath.Join(o.out, m.Name)
	}
	fmt.Fprintf(stderr, "%s: %s compiled in %.1f s (%.1f MB), %s%s\n",
		src, m.Name, took.Seconds(), float64(len(wasm))/(1<<20), count(len(m.Tools), "tool"), where)
	return m.Name, nil
}

// reconcile compares the source manifest with the plugin's description and
// rewrites it (-update) or fails (-check) when they differ. It returns the
// source manifest to build with.
func reconcile(ctx context.Context, o options, src string, srcManifest, wasm []byte, stderr io.Writer) ([]byte, error) {
	d, err := pluginbuild.DescribeCached(ctx, o.cache, wasm)
	if err != nil {
		return nil, err
	}
	diffs, err := pluginbuild.Compare(srcManifest, d)
	if err != nil {
		return nil, err
	}
	if len(diffs) == 0 {
		return srcManifest, nil
	}
	if o.check {
		for _, d := range diffs {
			fmt.Fprintf(stderr, "%s: %s\n", src, d)
		}
		return nil, fmt.Errorf("%s is out of date; run buildplugins -update %s and commit it", manifest.FileName, src)
	}
	gen, err := pluginbuild.Generate(srcManifest, d)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(src, manifest.FileName), gen, 0o644); err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "%s: %s updated (%s)\n", src, manifest.FileName, count(len(diffs), "change"))
	return gen, nil
}

// count says "1 tool" or "3 tools".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
