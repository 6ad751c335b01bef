// Command buildplugins builds juju plugins from source for the Makefile and
// keeps their manifests in step with their code.
//
//	buildplugins [-update] [-check] [-prune] -out DIR [-embed FILE] SRC...
//
// Each SRC is a plugin's source folder (a main package and manifest.json).
// The plugin is compiled for wasip1, given its stop checks (package
// wasmstop: the host trusts a core module's and does not make them again)
// and written to DIR/<name>/ as plugin.wasm and a manifest stamped with its
// sha256. A source whose manifest names another plugin's module
// (wasm.module, as core-exec names core) has no main package: it is
// stamped from that module, without a wasm of its own, and its tools are
// those the module describes under its name; the module's source must be
// built in the same run. With -update the
// source manifest's tools are rewritten from the plugin's juju_describe
// export (its identity is kept); with -check the command fails when they
// differ, which makes the committed manifests a golden snapshot of the tool
// schemas. With -embed, a Go source is written to FILE that embeds each
// plugin's wasm in DIR as a string (package core reads the core plugins
// through it without a copy), and the manifests in DIR are rewritten
// without white space (juju decodes them on every start: 40% faster than
// indented). One progress line per plugin goes to stderr.
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"time"

	"github.com/jujutools/juju/host/pluginbuild"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/internal/wasmstop"
	"github.com/jujutools/juju/sdk/abi"
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

// source is one plugin source folder, its source manifest as read (whose
// tools -update may not have written yet) and what the build needs of it
// before that: its name and the module it runs, if another plugin's.
type source struct {
	dir    string
	raw    []byte
	name   string
	module string
}

// readSource reads the source manifest in dir, leniently: it is decoded in
// full once its tools are reconciled.
func readSource(dir string) (source, error) {
	raw, err := pluginbuild.ReadSource(dir)
	if err != nil {
		return source{}, err
	}
	var id struct {
		Name string        `json:"name"`
		Wasm manifest.Wasm `json:"wasm"`
	}
	if err := json.Unmarshal(raw, &id); err != nil {
		return source{}, fmt.Errorf("%s: %w", manifest.FileName, err)
	}
	return source{dir: dir, raw: raw, name: id.Name, module: id.Wasm.Module}, nil
}

// module is a module this run built: the stamped manifest of the plugin
// that owns it, its wasm, its description (under -update or -check) and
// the other plugins stamped to run it.
type module struct {
	m      *manifest.Manifest
	wasm   []byte
	d      *abi.Description
	served map[string]bool
}

// run builds every source, continuing past failures, and returns them
// joined. A source whose manifest names another plugin's module
// (wasm.module) is not compiled: it is stamped from that module, which this
// run must build too; such sources come after the others, whatever the
// order given.
func run(ctx context.Context, o options, stderr io.Writer) error {
	var errs []error
	fail := func(src string, err error) {
		fmt.Fprintf(stderr, "%s: FAILED: %v\n", src, err)
		errs = append(errs, fmt.Errorf("%s: %w", src, err))
	}
	var sources []source
	for _, dir := range o.sources {
		src, err := readSource(dir)
		if err != nil {
			fail(dir, err)
			continue
		}
		sources = append(sources, src)
	}
	shares := func(s source) int {
		if s.module != "" {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(sources, func(a, b source) int { return cmp.Compare(shares(a), shares(b)) })
	built := map[string]bool{}
	modules := map[string]*module{}
	for _, src := range sources {
		var name string
		var err error
		if src.module != "" {
			name, err = stampShared(o, src, modules, stderr)
		} else {
			name, err = buildOne(ctx, o, src, modules, stderr)
		}
		if err != nil {
			fail(src.dir, err)
			continue
		}
		built[name] = true
	}
	if len(errs) == 0 {
		for _, name := range slices.Sorted(maps.Keys(modules)) {
			mod := modules[name]
			if mod.d == nil {
				continue
			}
			for _, other := range slices.Sorted(maps.Keys(mod.d.Plugins)) {
				if !mod.served[other] {
					errs = append(errs, fmt.Errorf("the module of %s also serves tools of %s, whose source (a manifest with wasm.module %q) this run did not build: nothing would serve them", name, other, name))
				}
			}
		}
	}
	if len(errs) == 0 && o.prune && o.out != "" {
		if err := prune(o.out, built, stderr); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 && o.embed != "" {
		if err := compactManifests(o.out); err != nil {
			errs = append(errs, err)
		} else if err := writeEmbed(o.embed, o.out); err != nil {
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

// buildOne compiles one plugin source, records its module and returns the
// plugin's name.
func buildOne(ctx context.Context, o options, src source, modules map[string]*module, stderr io.Writer) (string, error) {
	fmt.Fprintf(stderr, "%s: building…\n", src.dir)
	start := time.Now()
	wasm, err := pluginbuild.Compile(ctx, src.dir)
	if err != nil {
		return "", err
	}
	// The host trusts a core module's stop checks without decoding it
	// again on every start (plugin.instrument): they are made here.
	if wasm, err = wasmstop.Instrument(wasm); err != nil {
		return "", fmt.Errorf("%s: %w", src.dir, err)
	}
	took := time.Since(start)
	var d, own *abi.Description
	if o.update || o.check {
		if d, err = pluginbuild.DescribeCached(ctx, o.cache, wasm); err != nil {
			return "", err
		}
		own = &abi.Description{Tools: d.Tools, Discoverers: d.Discoverers}
	}
	m, err := settle(o, src, own, stderr)
	if err != nil {
		return "", err
	}
	where := ""
	if o.out != "" {
		if m, err = pluginbuild.Stamp(o.out, m, wasm); err != nil {
			return "", err
		}
		where = " → " + filepath.Join(o.out, m.Name)
	}
	modules[m.Name] = &module{m: m, wasm: wasm, d: d, served: map[string]bool{}}
	fmt.Fprintf(stderr, "%s: %s compiled in %.1f s (%.1f MB), %s%s\n",
		src.dir, m.Name, took.Seconds(), float64(len(wasm))/(1<<20), count(len(m.Tools), "tool"), where)
	return m.Name, nil
}

// stampShared stamps a plugin that runs the module of another plugin this
// run built, and returns its name. Under -update or -check its tools are
// those the module describes under its name.
func stampShared(o options, src source, modules map[string]*module, stderr io.Writer) (string, error) {
	name, owner := src.name, src.module
	mod := modules[owner]
	if mod == nil {
		return "", fmt.Errorf("it runs the module of %s, which this run did not build; name %s's source folder too", owner, owner)
	}
	var part *abi.Description
	if mod.d != nil {
		part = &abi.Description{Tools: mod.d.Plugins[name]}
	}
	m, err := settle(o, src, part, stderr)
	if err != nil {
		return "", err
	}
	where := ""
	if o.out != "" {
		if m, err = pluginbuild.StampShared(o.out, m, mod.m); err != nil {
			return "", err
		}
		where = " → " + filepath.Join(o.out, m.Name)
	}
	mod.served[name] = true
	fmt.Fprintf(stderr, "%s: %s runs the module of %s, %s%s\n", src.dir, name, owner, count(len(m.Tools), "tool"), where)
	return name, nil
}

// settle returns src's manifest to build with, decoded in full: as
// reconcile leaves it when d, the plugin's description, is known (-update
// or -check), else as it is.
func settle(o options, src source, d *abi.Description, stderr io.Writer) (*manifest.Manifest, error) {
	raw := src.raw
	if d != nil {
		var err error
		if raw, err = reconcile(o, src, d, stderr); err != nil {
			return nil, err
		}
	}
	m, err := manifest.DecodeSource(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", manifest.FileName, err)
	}
	return m, nil
}

// reconcile compares the source manifest with the plugin's description and
// rewrites it (-update) or fails (-check) when they differ. It returns the
// source manifest to build with.
func reconcile(o options, src source, d *abi.Description, stderr io.Writer) ([]byte, error) {
	diffs, err := pluginbuild.Compare(src.raw, d)
	if err != nil {
		return nil, err
	}
	if len(diffs) == 0 {
		return src.raw, nil
	}
	if o.check {
		for _, d := range diffs {
			fmt.Fprintf(stderr, "%s: %s\n", src.dir, d)
		}
		return nil, fmt.Errorf("%s is out of date; run buildplugins -update %s and commit it", manifest.FileName, src.dir)
	}
	gen, err := pluginbuild.Generate(src.raw, d)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(src.dir, manifest.FileName), gen, 0o644); err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "%s: %s updated (%s)\n", src.dir, manifest.FileName, count(len(diffs), "change"))
	return gen, nil
}

// count says "1 tool" or "3 tools".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
