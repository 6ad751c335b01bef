package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/host/core"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/lspconfig"
	"github.com/jujutools/juju/sandbox"
)

func notBuilt() (*host.Host, error) { return nil, core.ErrNotBuilt }

func doctorJSON(t *testing.T, o *doctorOptions, env doctorEnv) (*doctorReport, error) {
	t.Helper()
	o.json = true
	var out bytes.Buffer
	err := runDoctor(t.Context(), &out, o, env)
	var r doctorReport
	if jerr := json.Unmarshal(out.Bytes(), &r); jerr != nil {
		t.Fatalf("not JSON: %v\n%s", jerr, out.String())
	}
	return &r, err
}

func TestDoctorReport(t *testing.T) {
	dirs := jujuHome(t)
	if err := os.MkdirAll(dirs.Cache, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dirs.Cache, "blob"), make([]byte, 1500), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := doctorJSON(t, &doctorOptions{}, doctorEnv{dirs: dirs, open: notBuilt})

	// The directories, under JUJU_HOME.
	if r.HomeEnv == "" || len(r.Directories) != 4 {
		t.Fatalf("report %+v", r)
	}
	for _, d := range r.Directories {
		if !strings.HasPrefix(d.Path, r.HomeEnv) || !d.Writable || d.Problem != "" {
			t.Errorf("directory %+v", d)
		}
		if d.Exists != (d.Name == "cache") {
			t.Errorf("%s exists = %v", d.Name, d.Exists)
		}
	}
	if r.CacheBytes != 1500 {
		t.Errorf("cache size = %d, want 1500", r.CacheBytes)
	}
	if r.ConfigFile.Path != dirs.ConfigFile() || r.ConfigFile.Exists || r.ConfigFile.Error != "" {
		t.Errorf("config file %+v", r.ConfigFile)
	}

	// Plugins not built: a problem, and exit status 1.
	if !strings.Contains(r.PluginsError, "not built") || len(r.Problems) != 1 || !errors.Is(err, errProblems) {
		t.Errorf("pluginsError %q, problems %q, err %v", r.PluginsError, r.Problems, err)
	}

	// Detection agrees with the sandbox package.
	if len(r.Sandbox) != 2 || r.Sandbox[0] != sandbox.DetectBubblewrap(t.Context()) || r.Sandbox[1] != sandbox.DetectLandlock() {
		t.Errorf("sandbox %+v", r.Sandbox)
	}
	if mech, err := sandbox.New(sandbox.DefaultHelper()).Available(); err == nil && r.SandboxUse != mech ||
		err != nil && r.SandboxUse != "none: "+err.Error() {
		t.Errorf("sandboxUse %q, want %q (%v)", r.SandboxUse, mech, err)
	}
	if len(r.Programs) != 2 || r.Programs[0].Name != "git" || r.Programs[1].Name != "ripgrep" {
		t.Errorf("programs %+v", r.Programs)
	}
	for _, a := range append(r.Programs, r.Sandbox...) {
		if a.Available == (a.Reason != "") {
			t.Errorf("%s: available %v with reason %q", a.Name, a.Available, a.Reason)
		}
	}
	if r.System.OS == "" || r.System.Go == "" || r.Version != version {
		t.Errorf("system %+v", r.System)
	}
}

func TestDoctorConfigProblems(t *testing.T) {
	dirs := jujuHome(t)
	bad := filepath.Join(t.TempDir(), "bad.toml")
	if err := os.WriteFile(bad, []byte("mode = \"edit\"\nsandbox = \"always\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := doctorJSON(t, &doctorOptions{configFile: bad}, doctorEnv{dirs: dirs, open: notBuilt})
	if !errors.Is(err, errProblems) || !r.ConfigFile.Exists || !strings.Contains(r.ConfigFile.Error, bad+`:2: sandbox: "always"`) {
		t.Errorf("config file %+v, err %v", r.ConfigFile, err)
	}
	if !strings.Contains(strings.Join(r.Problems, "\n"), "config file: ") {
		t.Errorf("problems %q", r.Problems)
	}

	r, _ = doctorJSON(t, &doctorOptions{configFile: bad + ".missing"}, doctorEnv{dirs: dirs, open: notBuilt})
	if r.ConfigFile.Exists || !strings.Contains(r.ConfigFile.Error, "no such file") {
		t.Errorf("missing --config: %+v", r.ConfigFile)
	}
	if p := strings.Join(r.Problems, "\n"); !strings.Contains(p, "config file: open ") || strings.Contains(p, "config file: config file") {
		t.Errorf("the problem with a missing --config reads %q", p)
	}
}

// Two registrations of one language, written by hand (juju lsp add
// refuses the second), leave the second never started for it: doctor
// says so, where it listed both as found.
func TestDoctorLanguageServedTwice(t *testing.T) {
	dirs := jujuHome(t)
	toml := "[[server]]\nname = 'gopls'\ncommand = ['gopls']\nlanguages = ['go']\n\n" +
		"[[server]]\nname = 'other'\ncommand = ['other-ls']\nlanguages = ['python', 'go']\n"
	os.MkdirAll(dirs.Config, 0o700)
	if err := os.WriteFile(lspconfig.Path(dirs.Config), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := doctorJSON(t, &doctorOptions{}, doctorEnv{dirs: dirs, open: notBuilt})
	want := "language servers: go is served by gopls, so other is never started for it"
	if !errors.Is(err, errProblems) || !strings.Contains(strings.Join(r.Problems, "\n"), want) || len(r.LSP.Servers) != 2 {
		t.Errorf("problems %q, servers %+v, err %v", r.Problems, r.LSP.Servers, err)
	}
	if strings.Contains(strings.Join(r.Problems, "\n"), "python") {
		t.Errorf("python, served once, is named: %q", r.Problems)
	}
}

func TestDoctorSandboxRequire(t *testing.T) {
	dirs := jujuHome(t)
	if err := os.MkdirAll(dirs.Config, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dirs.ConfigFile(), []byte("sandbox = \"require\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r, _ := doctorJSON(t, &doctorOptions{}, doctorEnv{dirs: dirs, open: notBuilt})
	none := !r.Sandbox[0].Available && !r.Sandbox[1].Available
	flagged := strings.Contains(strings.Join(r.Problems, "\n"), "SANDBOX_UNAVAILABLE")
	if flagged != (none && r.System.OS == "linux") {
		t.Errorf("no sandbox %v, flagged %v: %q", none, flagged, r.Problems)
	}
}

func TestCheckDir(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		path    string
		want    dirCheck
		problem string
	}{
		{"existing", base, dirCheck{Exists: true, Writable: true}, ""},
		{"missing, creatable", filepath.Join(base, "a", "b"), dirCheck{Writable: true}, ""},
		{"a file", file, dirCheck{Exists: true}, "is not a folder"},
		{"under a file", filepath.Join(file, "x"), dirCheck{}, "cannot be used: stat " + filepath.Join(file, "x") + ": not a directory"},
	}
	if os.Geteuid() != 0 { // root writes anywhere
		ro := filepath.Join(base, "ro")
		if err := os.Mkdir(ro, 0o500); err != nil {
			t.Fatal(err)
		}
		tests = append(tests,
			struct {
				name    string
				path    string
				want    dirCheck
				problem string
			}{"read-only", ro, dirCheck{Exists: true}, "cannot be written"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checkDir("x", tt.path)
			problem := got.Problem
			got.Problem = ""
			tt.want.Name, tt.want.Path = "x", tt.path
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if tt.problem == "" && problem != "" || !strings.Contains(problem, tt.problem) {
				t.Errorf("problem %q, want %q", problem, tt.problem)
			}
		})
	}
	if entries, _ := os.ReadDir(base); len(entries) > 2 {
		t.Errorf("doctor left files behind: %v", entries)
	}
}

func TestDoctorText(t *testing.T) {
	dirs := jujuHome(t)
	var out bytes.Buffer
	err := runDoctor(t.Context(), &out, &doctorOptions{}, doctorEnv{dirs: dirs, open: notBuilt})
	if !errors.Is(err, errProblems) || err.Error() != "doctor found 1 problem: see the report" {
		t.Errorf("err = %v", err)
	}
	for _, want := range []string{
		"Directories (under JUJU_HOME=", "  config file ", "none (the defaults apply)",
		"compiled-plugin cache: 0 B", "Plugins\n  cannot load the catalog: core plugins are not built",
		"Programs\n  git ", "Command sandbox\n  bubblewrap ", "  landlock ", "Problems\n  - plugins: ",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output does not contain %q:\n%s", want, out.String())
		}
	}
}

// TestDoctorWarm compiles every real plugin, once the core ones are built.
func TestDoctorWarm(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles every plugin")
	}
	catalog(t) // skips while the plugins are not built
	dirs, _ := config.DefaultDirs()
	var out, errw bytes.Buffer
	env := doctorEnv{dirs: dirs, open: func() (*host.Host, error) {
		return openCatalog(quietLogger())
	}, progress: &errw}
	if err := runDoctor(t.Context(), &out, &doctorOptions{warm: true}, env); err != nil && !errors.Is(err, errProblems) {
		t.Fatal(err)
	}
	if text := errw.String(); !strings.Contains(text, "compiling core-") || strings.Contains(text, "failed after") {
		t.Errorf("progress lines on stderr:\n%s", text)
	}
	// The report on stdout is the report: a script that keeps it (juju
	// doctor --warm > report.txt) gets no progress lines in it.
	if text := out.String(); strings.Contains(text, "compiling ") || !strings.HasPrefix(text, "juju ") || !strings.Contains(text, "core-exec") {
		t.Errorf("the report on stdout:\n%s", text)
	}
	r, _ := doctorJSON(t, &doctorOptions{warm: true}, env)
	for _, p := range r.Plugins {
		if p.State != "ready" || p.CompileMs <= 0 {
			t.Errorf("plugin %+v", p)
		}
	}
	if r.CacheBytes == 0 {
		t.Error("the compilation cache is empty after --warm")
	}
}

func TestHumanBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 5 << 20: "5.0 MiB", 3 << 30: "3.0 GiB"} {
		if got := humanBytes(n); got != want {
			t.Errorf("humanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// A --root juju stdio would refuse (missing, or a file) is one of doctor's
// problems, so "No problems found" never precedes a server that does not
// start; a root that is there is none.
func TestDoctorRootThatIsNot(t *testing.T) {
	dirs := jujuHome(t)
	good := t.TempDir()
	missing := filepath.Join(good, "missing")
	file := filepath.Join(good, "file")
	os.WriteFile(file, nil, 0o600)
	workspaceProblems := func(root string) []string {
		r, _ := doctorJSON(t, &doctorOptions{roots: []string{root}}, doctorEnv{dirs: dirs, open: notBuilt, cwd: good})
		var out []string
		for _, p := range r.Problems {
			if strings.HasPrefix(p, "workspace ") {
				out = append(out, p)
			}
		}
		return out
	}
	for _, root := range []string{missing, file} {
		if p := workspaceProblems(root); len(p) != 1 || !strings.HasPrefix(p[0], "workspace "+root+": ") || !strings.HasSuffix(p[0], "juju stdio would not start on it") {
			t.Errorf("--root %s: problems %q", root, p)
		}
	}
	if p := workspaceProblems(good); len(p) != 0 {
		t.Errorf("--root of a folder: problems %q", p)
	}
}

// TestDoctorOldGit: a git older than the git tools run is a problem,
// named with its version; the git here stands in for git 2.30.2 by its
// answer to --version.
func TestDoctorOldGit(t *testing.T) {
	dirs := jujuHome(t)
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\necho 'git version 2.30.2'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	r, _ := doctorJSON(t, &doctorOptions{}, doctorEnv{dirs: dirs, open: notBuilt})
	if p := strings.Join(r.Problems, "\n"); !strings.Contains(p, "git 2.30.2 is older than 2.31") {
		t.Errorf("problems %q, want git 2.30.2 named as too old", r.Problems)
	}
	os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\necho 'git version 2.31.0'\n"), 0o755)
	r, _ = doctorJSON(t, &doctorOptions{}, doctorEnv{dirs: dirs, open: notBuilt})
	if p := strings.Join(r.Problems, "\n"); strings.Contains(p, "git 2.31") {
		t.Errorf("problems %q name git 2.31.0", r.Problems)
	}
}
