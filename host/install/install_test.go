package install

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jujutools/juju/host/core"
	"github.com/jujutools/juju/host/pluginbuild"
	"github.com/jujutools/juju/internal/installed"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

// testPlugin builds plugins/testplugins/<name> once and returns a private
// copy of its folder, which the test may change.
func testPlugin(t *testing.T, name string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Join(filepath.Dir(file), "..", "..")
	built := pluginbuild.ForTest(t, filepath.Join(repo, "plugins", "testplugins", name))
	dir := filepath.Join(t.TempDir(), name)
	copyDir(t, built, dir)
	return dir
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o700); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// editManifest applies fn to the plugin's manifest as a JSON object.
func editManifest(t *testing.T, dir string, fn func(m map[string]any)) {
	t.Helper()
	p := filepath.Join(dir, "manifest.json")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	fn(m)
	out, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(p, out, 0o600); err != nil {
		t.Fatal(err)
	}
}

func wasmSHA(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "plugin.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	return installed.Hash(data)
}

// snapshot maps every file under the data directory to its sha256, so a
// test can prove a refused install changed nothing.
func snapshot(t *testing.T, data string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(data, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(data, p)
		if rel == lockFile {
			return nil // the lifecycle lock is no part of the installed set
		}
		if d.IsDir() {
			out[rel+"/"] = "dir"
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = installed.Hash(b)
		return nil
	})
	return out
}

// sharedCache is the compilation cache of every test, so each test plugin
// compiles once.
var sharedCache string

func TestMain(m *testing.M) {
	if crashHelper != nil && os.Getenv(envCrash) != "" {
		crashHelper()
		os.Exit(3) // not reached when killed
	}
	dir, err := os.MkdirTemp("", "juju-install-cache-*")
	if err != nil {
		panic(err)
	}
	sharedCache = dir
	code := m.Run()
	os.RemoveAll(dir)
	pluginbuild.CleanupForTest()
	os.Exit(code)
}

// dataEntries lists the data directory but for the lifecycle lock.
func dataEntries(t *testing.T, data string) []string {
	t.Helper()
	entries, err := os.ReadDir(data)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Name() != lockFile {
			names = append(names, e.Name())
		}
	}
	return names
}

// env is one data directory.
type env struct{ data, cache string }

func newEnv(t *testing.T) env {
	home := t.TempDir()
	e := env{data: filepath.Join(home, "data"), cache: sharedCache}
	if err := os.MkdirAll(filepath.Join(e.data, "plugins"), 0o700); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e env) opts(grants ...string) Options {
	return Options{Data: e.data, Cache: e.cache, Grants: grants}
}

func (e env) install(t *testing.T, src string, o Options) *Result {
	t.Helper()
	res, err := Install(context.Background(), src, o)
	if err != nil {
		t.Fatalf("install %s: %v", src, err)
	}
	return res
}

func TestInstallFolder(t *testing.T) {
	e := newEnv(t)
	src := testPlugin(t, "reader")
	var progress bytes.Buffer
	o := e.opts("fs.read")
	o.Progress = &progress
	o.SHA256 = strings.ToUpper(wasmSHA(t, src)) // the owner may paste it in capitals
	res := e.install(t, src, o)
	if res.Name != "test-reader" || !reflect.DeepEqual(res.Granted, []abi.Capability{abi.CapFSRead}) ||
		len(res.NotGranted) != 0 || res.Update != nil || !slices.Equal(res.Tools, []string{"test_reader"}) {
		t.Errorf("result = %+v", res)
	}
	if !strings.Contains(progress.String(), "compiling test-reader") || !strings.Contains(progress.String(), "done in") {
		t.Errorf("progress = %q", progress.String())
	}
	in, err := installed.ReadInstalled(filepath.Join(e.data, "plugins", "test-reader"))
	if err != nil {
		t.Fatal(err)
	}
	if err := in.CheckWasm(); err != nil {
		t.Fatal(err)
	}
	if in.Pin.SHA256 != wasmSHA(t, src) || !reflect.DeepEqual(in.Granted, []abi.Capability{abi.CapFSRead}) {
		t.Errorf("pin = %+v", in.Pin)
	}
	// Only the manifest, the wasm and the pin are installed; no staging is left.
	var names []string
	entries, _ := os.ReadDir(in.Dir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"grants.json", "manifest.json", "plugin.wasm"}) {
		t.Errorf("installed files: %v", names)
	}
	if top := dataEntries(t, e.data); !slices.Equal(top, []string{"plugins"}) {
		t.Errorf("data dir holds %v", top)
	}
	// The compile went into the cache.
	if c, _ := os.ReadDir(e.cache); len(c) == 0 {
		t.Error("nothing was compiled into the cache")
	}
}

// What an interrupted install left behind is swept by the next one.
func TestInstallSweepsLeftovers(t *testing.T) {
	e := newEnv(t)
	for _, n := range []string{".install-123", ".old-4", ".remove-5"} {
		os.MkdirAll(filepath.Join(e.data, n, "x"), 0o700)
	}
	e.install(t, testPlugin(t, "echo"), e.opts())
	if top := dataEntries(t, e.data); !slices.Equal(top, []string{"plugins"}) {
		t.Errorf("data dir holds %v", top)
	}
}

func TestInstallGrantsOnlyWhatIsConfirmed(t *testing.T) {
	e := newEnv(t)
	src := testPlugin(t, "reader")
	editManifest(t, src, func(m map[string]any) { m["capabilities"] = []string{"fs.read", "state"} })
	var asked []abi.Capability
	o := e.opts("state")
	o.Confirm = func(c abi.Capability, words string) (bool, error) {
		if words == "" {
			t.Errorf("no words for %s", c)
		}
		asked = append(asked, c)
		return false, nil
	}
	res := e.install(t, src, o)
	if !slices.Equal(asked, []abi.Capability{abi.CapFSRead}) {
		t.Errorf("asked about %v, want only fs.read (state was granted by flag)", asked)
	}
	if !slices.Equal(res.Granted, []abi.Capability{abi.CapState}) || !slices.Equal(res.NotGranted, []abi.Capability{abi.CapFSRead}) {
		t.Errorf("granted %v, not granted %v", res.Granted, res.NotGranted)
	}
	// A capability the manifest does not ask for cannot be granted, and
	// that is said before the plugin is compiled (seconds of it).
	o = e.opts("exec")
	var progress strings.Builder
	o.Progress = &progress
	_, err := Install(context.Background(), src, o)
	if !errors.Is(err, ErrNotAsked) {
		t.Errorf("--grant exec: %v", err)
	}
	if progress.Len() > 0 {
		t.Errorf("--grant exec was refused after %q", progress.String())
	}
	_, err = Install(context.Background(), src, e.opts("fs.everything"))
	if err == nil || !strings.Contains(err.Error(), "unknown capability") {
		t.Errorf("--grant fs.everything: %v", err)
	}
}

func TestUpdateKeepsOldGrantsAndAsksForNewOnes(t *testing.T) {
	e := newEnv(t)
	src := testPlugin(t, "reader")
	e.install(t, src, e.opts("all"))

	editManifest(t, src, func(m map[string]any) {
		m["version"] = "2.0.0"
		m["capabilities"] = []string{"fs.read", "state", "git"}
	})
	res := e.install(t, src, e.opts())
	up := res.Update
	if up == nil || up.PreviousVersion != "1.0.0" || !slices.Equal(up.Kept, []abi.Capability{abi.CapFSRead}) ||
		!slices.Equal(up.NewAsks, []abi.Capability{abi.CapState, abi.CapGit}) {
		t.Fatalf("update = %+v", up)
	}
	if !slices.Equal(res.Granted, []abi.Capability{abi.CapFSRead}) {
		t.Errorf("granted %v: an update must not grant new capabilities by itself", res.Granted)
	}
	// The owner answers yes to git only: asked about state and git, not fs.read.
	editManifest(t, src, func(m map[string]any) { m["version"] = "2.0.1" })
	var asked []abi.Capability
	o := e.opts()
	o.Confirm = func(c abi.Capability, _ string) (bool, error) {
		asked = append(asked, c)
		return c == abi.CapGit, nil
	}
	res = e.install(t, src, o)
	if !slices.Equal(asked, []abi.Capability{abi.CapState, abi.CapGit}) || !slices.Equal(res.Granted, []abi.Capability{abi.CapFSRead, abi.CapGit}) {
		t.Errorf("asked %v, granted %v", asked, res.Granted)
	}
	// A version that drops a capability drops its grant too.
	editManifest(t, src, func(m map[string]any) {
		m["version"] = "3.0.0"
		m["capabilities"] = []string{"state"}
	})
	res = e.install(t, src, e.opts())
	if len(res.Granted) != 0 || !slices.Equal(res.Update.Dropped, []abi.Capability{abi.CapFSRead, abi.CapGit}) {
		t.Errorf("granted %v, update %+v", res.Granted, res.Update)
	}
}

// tarGz archives the plugin folder dir, its files under prefix.
func tarGz(t *testing.T, dir, prefix string, extra ...*tar.Header) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, name := range []string{"manifest.json", "plugin.wasm"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		tw.WriteHeader(&tar.Header{Name: prefix + name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg})
		tw.Write(data)
	}
	for _, h := range extra {
		tw.WriteHeader(h)
		if h.Size > 0 {
			tw.Write(make([]byte, h.Size))
		}
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

func TestInstallArchive(t *testing.T) {
	e := newEnv(t)
	src := testPlugin(t, "echo")
	archive := filepath.Join(t.TempDir(), "echo.tar.gz")
	os.WriteFile(archive, tarGz(t, src, "test-echo/", &tar.Header{Name: "test-echo/README.md", Mode: 0o644, Size: 3, Typeflag: tar.TypeReg}), 0o600)
	res := e.install(t, archive, e.opts())
	if res.Name != "test-echo" {
		t.Fatalf("result = %+v", res)
	}
	if _, err := os.Stat(filepath.Join(res.Dir, "README.md")); !os.IsNotExist(err) {
		t.Error("files other than the manifest and the wasm were installed")
	}

	bad := map[string]*tar.Header{
		"a path out of the archive": {Name: "../evil.wasm", Mode: 0o644, Size: 1, Typeflag: tar.TypeReg},
		"a symlink":                 {Name: "link.wasm", Linkname: "/etc/passwd", Typeflag: tar.TypeSymlink},
		"a deep path":               {Name: "a/b/c.wasm", Mode: 0o644, Size: 1, Typeflag: tar.TypeReg},
	}
	for name, h := range bad {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "bad.tar.gz")
			os.WriteFile(p, tarGz(t, src, "", h), 0o600)
			before := snapshot(t, e.data)
			_, err := Install(context.Background(), p, e.opts())
			if !errors.Is(err, ErrRefused) {
				t.Fatalf("err = %v", err)
			}
			if after := snapshot(t, e.data); !reflect.DeepEqual(before, after) {
				t.Errorf("the data directory changed:\n%v\n%v", before, after)
			}
		})
	}
}

func TestInstallURL(t *testing.T) {
	e := newEnv(t)
	src := testPlugin(t, "echo")
	archive := tarGz(t, src, "")
	mux := http.NewServeMux()
	mux.HandleFunc("/echo.tar.gz", func(w http.ResponseWriter, _ *http.Request) { w.Write(archive) })
	mux.HandleFunc("/to-http", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://"+r.Host+"/echo.tar.gz", http.StatusFound)
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "100000000000")
		w.WriteHeader(http.StatusOK)
	})
	srv := httptest.NewTLSServer(mux)
	defer srv.Close()
	sha := wasmSHA(t, src)
	opts := func(sha string) Options {
		o := e.opts()
		o.HTTPClient = srv.Client()
		o.SHA256 = sha
		return o
	}
	refused := []struct {
		name, url, sha, want string
	}{
		{"no sha256", srv.URL + "/echo.tar.gz", "", "--sha256 is required"},
		{"wrong sha256", srv.URL + "/echo.tar.gz", strings.Repeat("0", 64), "sha256 mismatch"},
		{"plain http", strings.Replace(srv.URL, "https", "http", 1) + "/echo.tar.gz", sha, "only https"},
		{"redirect to http", srv.URL + "/to-http", sha, "only https is followed"},
		{"too large", srv.URL + "/huge", sha, "limit"},
		{"not found", srv.URL + "/nothing.tar.gz", sha, "404"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			before := snapshot(t, e.data)
			_, err := Install(context.Background(), tc.url, opts(tc.sha))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if after := snapshot(t, e.data); !reflect.DeepEqual(before, after) {
				t.Errorf("the data directory changed")
			}
		})
	}
	var progress bytes.Buffer
	o := opts(sha)
	o.Progress = &progress
	res, err := Install(context.Background(), srv.URL+"/echo.tar.gz", o)
	if err != nil {
		t.Fatal(err)
	}
	if res.SHA256 != sha {
		t.Errorf("sha256 %s", res.SHA256)
	}
	// Not a terminal: one line, the last, without the redraws a terminal
	// gets (a log would keep each one, joined by carriage returns).
	want := fmt.Sprintf("downloading echo.tar.gz: %s, done\n", size(int64(len(archive))))
	if p := progress.String(); !strings.HasPrefix(p, want) || strings.Contains(p, "\r") {
		t.Errorf("progress = %q, want %q first and no carriage return", p, want)
	}
}

// On a terminal the download's line is redrawn in place; a download that
// fails ends its line with "stopped", not "done".
func TestDownloadProgressLine(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, redraw: true, total: 2048, label: "downloading x.tar.gz"}
	p.Write(make([]byte, 1024))
	p.done(false)
	if want := "\rdownloading x.tar.gz: 1.0 KiB / 2.0 KiB\rdownloading x.tar.gz: 1.0 KiB / 2.0 KiB, stopped\n"; b.String() != want {
		t.Errorf("on a terminal: %q, want %q", b.String(), want)
	}
}

// The download's progress line names the archive from its URL, which
// the plugin's author wrote and Go percent-decodes: %1b[2K and an OSC 52
// there once reached the owner's terminal as escape sequences, to erase a
// line or set the clipboard. They show as text now.
func TestDownloadProgressActsNotOnTheTerminal(t *testing.T) {
	e := newEnv(t)
	src := testPlugin(t, "echo")
	archive := tarGz(t, src, "")
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(archive) }))
	defer srv.Close()
	var progress bytes.Buffer
	o := e.opts()
	o.HTTPClient = srv.Client()
	o.SHA256 = wasmSHA(t, src)
	o.Progress = &progress
	if _, err := Install(context.Background(), srv.URL+"/%1b%5b2K%1b]52;c;eA==%07echo.tar.gz", o); err != nil {
		t.Fatal(err)
	}
	if p := progress.String(); strings.ContainsAny(p, "\x1b\x07") || !strings.Contains(p, `\x1b[2K\x1b]52;c;eA==\x07echo.tar.gz`) {
		t.Errorf("progress = %q", p)
	}
}

// A plugin refused at install leaves the installed set exactly as it was.
func TestRefusedInstallChangesNothing(t *testing.T) {
	e := newEnv(t)
	e.install(t, testPlugin(t, "echo"), e.opts())
	reader := testPlugin(t, "reader")
	e.install(t, reader, e.opts("fs.read"))

	cases := []struct {
		name  string
		setup func(dir string)
		want  string
	}{
		{"malformed JSON", func(dir string) {
			os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(`{"abi": 1, "name": `), 0o600)
		}, "invalid manifest"},
		{"unknown field", func(dir string) {
			editManifest(t, dir, func(m map[string]any) { m["grants"] = []string{"exec"} })
		}, "unknown field"},
		{"an unbuilt source manifest", func(dir string) {
			editManifest(t, dir, func(m map[string]any) { m["wasm"].(map[string]any)["sha256"] = "" })
		}, "write them with juju plugins build DIR (a Go plugin) or juju plugins build --wasm FILE DIR"},
		{"a manifest without tools", func(dir string) {
			editManifest(t, dir, func(m map[string]any) { delete(m, "tools") })
		}, "the manifest has no wasm.sha256 or no tools yet"},
		{"unknown capability", func(dir string) {
			editManifest(t, dir, func(m map[string]any) { m["capabilities"] = []string{"root"} })
		}, "unknown capability"},
		{"swapped wasm", func(dir string) {
			os.WriteFile(filepath.Join(dir, "plugin.wasm"), []byte("\x00asm\x01\x00\x00\x00"), 0o600)
		}, "sha256 mismatch: plugin.wasm hashes to"},
		{"missing wasm", func(dir string) { os.Remove(filepath.Join(dir, "plugin.wasm")) }, "plugin.wasm"},
		{"tool of another installed plugin", func(dir string) {
			editManifest(t, dir, func(m map[string]any) { m["name"] = "test-echo-two" })
		}, `tool "test_echo" is already provided by plugin test-echo`},
		{"tools the plugin does not export", func(dir string) {
			editManifest(t, dir, func(m map[string]any) {
				m["tools"].([]any)[0].(map[string]any)["name"] = "test_other"
			})
		}, `tool test_other is in the manifest but the plugin does not export it`},
		{"a stale input schema", func(dir string) {
			editManifest(t, dir, func(m map[string]any) {
				props := m["tools"].([]any)[0].(map[string]any)["inputSchema"].(map[string]any)["properties"].(map[string]any)
				props["text"].(map[string]any)["description"] = "What the tool took before."
			})
		}, "tool test_echo: inputSchema differs; the manifest was not written from this wasm: write it again with juju plugins build DIR"},
		{"a stale output schema", func(dir string) {
			editManifest(t, dir, func(m map[string]any) { delete(m["tools"].([]any)[0].(map[string]any), "outputSchema") })
		}, "tool test_echo: outputSchema differs"},
		{"a stale description", func(dir string) {
			editManifest(t, dir, func(m map[string]any) { m["tools"].([]any)[0].(map[string]any)["description"] = "Echoes." })
		}, "tool test_echo: title, description, tier or annotations differ"},
		{"a manifest of another abi than its module", func(dir string) {
			editManifest(t, dir, func(m map[string]any) { m["abi"] = 1 })
		}, "the manifest says abi 1, but plugin.wasm speaks abi 2"},
		{"a module that is no plugin", func(dir string) {
			// As a plain GOOS=wasip1 go build makes: it has no juju_describe,
			// and no channel import, so it read as abi 1 and was sent to a
			// build that would refuse it for the export it lacks.
			wasm := []byte("\x00asm\x01\x00\x00\x00")
			os.WriteFile(filepath.Join(dir, "plugin.wasm"), wasm, 0o600)
			editManifest(t, dir, func(m map[string]any) { m["wasm"].(map[string]any)["sha256"] = installed.Hash(wasm) })
		}, "it exports no juju_describe function"},
		{"a wasm symlinked out of the folder", func(dir string) {
			os.Remove(filepath.Join(dir, "plugin.wasm"))
			os.Symlink(filepath.Join(reader, "plugin.wasm"), filepath.Join(dir, "plugin.wasm"))
		}, "not a regular file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := testPlugin(t, "echo")
			tc.setup(dir)
			before := snapshot(t, e.data)
			_, err := Install(context.Background(), dir, e.opts())
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if after := snapshot(t, e.data); !reflect.DeepEqual(before, after) {
				t.Errorf("the data directory changed:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

func TestGrantRevokeRemove(t *testing.T) {
	e := newEnv(t)
	src := testPlugin(t, "reader")
	editManifest(t, src, func(m map[string]any) { m["capabilities"] = []string{"fs.read", "state"} })
	e.install(t, src, e.opts())

	ch, err := Grant(context.Background(), e.data, "test-reader", []string{"state,fs.read"}, nil)
	if err != nil || !slices.Equal(ch.Granted, []abi.Capability{abi.CapFSRead, abi.CapState}) || len(ch.Changed) != 2 {
		t.Fatalf("grant: %+v, %v", ch, err)
	}
	if _, err := Grant(context.Background(), e.data, "test-reader", []string{"exec"}, nil); !errors.Is(err, ErrNotAsked) ||
		err.Error() != "test-reader: the plugin's manifest does not ask for the capability exec (it asks for fs.read, state)" {
		t.Errorf("granting exec: %v", err)
	}
	ch, err = Revoke(context.Background(), e.data, "test-reader", []string{"fs.read"}, nil)
	if err != nil || !slices.Equal(ch.Granted, []abi.Capability{abi.CapState}) || !slices.Equal(ch.Changed, []abi.Capability{abi.CapFSRead}) {
		t.Fatalf("revoke: %+v, %v", ch, err)
	}
	in, err := installed.ReadInstalled(filepath.Join(e.data, "plugins", "test-reader"))
	if err != nil || !slices.Equal(in.Granted, []abi.Capability{abi.CapState}) {
		t.Errorf("after revoke: %+v, %v", in, err)
	}
	for _, name := range []string{"nothing", "../plugins", ".install-x", ""} {
		if _, err := Grant(context.Background(), e.data, name, []string{"fs.read"}, nil); !errors.Is(err, ErrNotInstalled) {
			t.Errorf("grant %q: %v", name, err)
		}
	}
	if _, err := Remove(context.Background(), e.data, "", nil, "test-reader", nil); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(filepath.Join(e.data, "plugins")); len(entries) != 0 {
		t.Errorf("left after remove: %v", entries)
	}
	if top := dataEntries(t, e.data); !slices.Equal(top, []string{"plugins"}) {
		t.Errorf("data dir after remove: %v", top)
	}
	if _, err := Remove(context.Background(), e.data, "", nil, "test-reader", nil); !errors.Is(err, ErrNotInstalled) {
		t.Errorf("second remove: %v", err)
	}
}

func TestVerify(t *testing.T) {
	e := newEnv(t)
	e.install(t, testPlugin(t, "echo"), e.opts())
	e.install(t, testPlugin(t, "reader"), e.opts())
	reports, err := Verify(e.data, "")
	if err != nil || len(reports) != 2 || !reports[0].OK || !reports[1].OK {
		t.Fatalf("verify: %+v, %v", reports, err)
	}
	dir := filepath.Join(e.data, "plugins")
	// Swap the echo wasm for the reader's: same name, other content.
	other, _ := os.ReadFile(filepath.Join(dir, "test-reader", "plugin.wasm"))
	os.WriteFile(filepath.Join(dir, "test-echo", "plugin.wasm"), other, 0o600)
	// Edit the reader's manifest: ask for more, as a tampering tool would.
	editManifest(t, filepath.Join(dir, "test-reader"), func(m map[string]any) {
		m["capabilities"] = []string{"fs.read", "exec"}
	})
	reports, _ = Verify(e.data, "")
	if reports[0].OK || !strings.Contains(reports[0].Error, "does not match its pinned sha256") {
		t.Errorf("swapped wasm: %+v", reports[0])
	}
	if reports[1].OK || !strings.Contains(reports[1].Error, "manifest.json changed since the plugin was installed") {
		t.Errorf("edited manifest: %+v", reports[1])
	}
	one, err := Verify(e.data, "test-echo")
	if err != nil || len(one) != 1 || one[0].OK {
		t.Errorf("verify one: %+v, %v", one, err)
	}
	if _, err := Verify(e.data, "nothing"); !errors.Is(err, ErrNotInstalled) {
		t.Errorf("verify nothing: %v", err)
	}
	// Granting to a tampered plugin is refused too: the pin is checked first.
	if _, err := Grant(context.Background(), e.data, "test-reader", []string{"exec"}, nil); !errors.Is(err, installed.ErrManifestPin) {
		t.Errorf("grant to a tampered plugin: %v", err)
	}
}

// Concurrent grants never lose one another: the lifecycle lock serialises them.
func TestConcurrentGrants(t *testing.T) {
	e := newEnv(t)
	src := testPlugin(t, "reader")
	editManifest(t, src, func(m map[string]any) {
		m["capabilities"] = []string{"fs.read", "state", "git", "lsp", "net.fetch", "exec"}
	})
	e.install(t, src, e.opts())
	caps := []string{"fs.read", "state", "git", "lsp", "net.fetch", "exec"}
	var wg sync.WaitGroup
	for _, c := range caps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := Grant(context.Background(), e.data, "test-reader", []string{c}, nil); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	in, err := installed.ReadInstalled(filepath.Join(e.data, "plugins", "test-reader"))
	if err != nil || len(in.Granted) != len(caps) {
		t.Errorf("granted %v, %v; want all of %v", in.Granted, err, caps)
	}
}

// envCrash names the step of the swap into place at which the test binary,
// run again as a helper, kills itself (swap_test.go, on unix).
const envCrash = "JUJU_INSTALL_CRASH_AT"

// crashHelper is that helper, where the test can kill itself.
var crashHelper func()

// An update says which tools are new, which are gone and which changed
// tier, so the owner sees what a client will be offered anew.
func TestUpdateShowsToolChanges(t *testing.T) {
	e := newEnv(t)
	e.install(t, testPlugin(t, "reader"), e.opts())
	// Another plugin's code under the same name: its tools replace test_reader.
	src := testPlugin(t, "tiers")
	editManifest(t, src, func(m map[string]any) { m["name"] = "test-reader" })
	up := e.install(t, src, e.opts()).Update
	if up == nil || !slices.Equal(up.NewTools, []string{"test_tier_r", "test_tier_e", "test_tier_x"}) ||
		!slices.Equal(up.RemovedTools, []string{"test_reader"}) || len(up.Retiered) != 0 {
		t.Fatalf("update = %+v", up)
	}

	prev := &manifest.Manifest{Tools: []abi.ToolSpec{{Name: "a", Tier: abi.TierRead}, {Name: "b", Tier: abi.TierRead}, {Name: "gone", Tier: abi.TierEdit}}}
	next := &manifest.Manifest{Tools: []abi.ToolSpec{{Name: "a", Tier: abi.TierRead}, {Name: "b", Tier: abi.TierExec}, {Name: "new", Tier: abi.TierRead}}}
	got := &Update{}
	toolChanges(got, prev, next)
	if !slices.Equal(got.NewTools, []string{"new"}) || !slices.Equal(got.RemovedTools, []string{"gone"}) ||
		!slices.Equal(got.Retiered, []Retier{{Tool: "b", From: abi.TierRead, To: abi.TierExec}}) {
		t.Fatalf("toolChanges = %+v", got)
	}
}

// A folder of a core plugin's name in the plugins folder is refused at
// load and listed under that name; remove cannot take it (the core
// plugin's state would go with it), so the refusal names the folder to
// delete, where it said only that core plugins cannot be removed.
func TestRemoveOfAFolderNamedLikeACorePlugin(t *testing.T) {
	if _, err := core.Plugins(); err != nil {
		t.Skip("core plugins not built:", err)
	}
	e := newEnv(t)
	_, err := Remove(context.Background(), e.data, "", nil, "core-exec", nil)
	if !errors.Is(err, ErrCorePlugin) || strings.Contains(err.Error(), "delete it yourself") {
		t.Errorf("remove core-exec with no such folder: %v", err)
	}
	stray := filepath.Join(e.data, "plugins", "core-exec")
	os.MkdirAll(stray, 0o700)
	_, err = Remove(context.Background(), e.data, "", nil, "core-exec", nil)
	if !errors.Is(err, ErrCorePlugin) || !strings.Contains(err.Error(), "the folder "+stray+", which juju refuses to load, is not the core plugin: delete it yourself") {
		t.Errorf("remove core-exec with the folder: %v", err)
	}
	if _, err := os.Stat(stray); err != nil {
		t.Errorf("the folder went: %v", err)
	}
}
