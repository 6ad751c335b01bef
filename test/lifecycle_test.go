package test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jujutools/juju/host/pluginbuild"
)

// cli runs the built juju with JUJU_HOME=home (and the extra environment)
// and returns its stdout, stderr and exit code.
func cli(t *testing.T, home string, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(jujuBin, args...)
	cmd.Env = append(append(os.Environ(), "JUJU_HOME="+home), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("juju %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// cliOK runs juju and fails the test unless it exits 0.
func cliOK(t *testing.T, home string, args ...string) string {
	t.Helper()
	out, errs, code := cli(t, home, nil, args...)
	if code != 0 {
		t.Fatalf("juju %v: exit %d\n%s%s", args, code, out, errs)
	}
	return out
}

// cliJSON runs juju with --json and decodes its output into v.
func cliJSON(t *testing.T, home string, v any, args ...string) {
	t.Helper()
	out := cliOK(t, home, append(args, "--json")...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("juju %v --json: %v\n%s", args, err, out)
	}
}

// newHome is a JUJU_HOME whose compilation cache is the shared one.
func newHome(t *testing.T) string {
	home := t.TempDir()
	if err := os.Symlink(sharedCache, filepath.Join(home, "cache")); err != nil {
		t.Fatal(err)
	}
	return home
}

// pluginCopy builds a test plugin and returns a private copy of its folder.
func pluginCopy(t *testing.T, name string) string {
	t.Helper()
	built := pluginbuild.ForTest(t, filepath.Join(repoRoot, "plugins", "testplugins", name))
	dir := filepath.Join(t.TempDir(), name)
	os.MkdirAll(dir, 0o700)
	for _, f := range []string{"manifest.json", "plugin.wasm"} {
		b, err := os.ReadFile(filepath.Join(built, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o600)
	}
	return dir
}

// tree maps every file under dir to its sha256 (folders to "dir").
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			out[rel+"/"] = "dir"
			return nil
		}
		b, _ := os.ReadFile(p)
		s := sha256.Sum256(b)
		out[rel] = hex.EncodeToString(s[:])
		return nil
	})
	return out
}

// listed is one plugin in juju plugins list --json.
type listed struct {
	Name    string   `json:"name"`
	Source  string   `json:"source"`
	State   string   `json:"state"`
	Granted []string `json:"granted"`
	Error   string   `json:"error"`
}

func findListed(t *testing.T, home, name string) listed {
	t.Helper()
	var all []listed
	cliJSON(t, home, &all, "plugins", "list")
	for _, p := range all {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("plugins list has no %s: %+v", name, all)
	return listed{}
}

// The owner's lifecycle of a plugin, end to end through the built binary
// and a real MCP client: install without the grant, CAPABILITY_DENIED;
// grant, it reads; revoke, denied again at the next call of the same
// server; verify catches a swapped wasm; remove.
func TestPluginLifecycle(t *testing.T) {
	home := newHome(t)
	root := workspace(t, map[string]string{"a.txt": "hello from the workspace\n", ".env": "SECRET=1\n"})
	src := pluginCopy(t, "reader")

	var res struct {
		Name       string   `json:"name"`
		Granted    []string `json:"granted"`
		NotGranted []string `json:"notGranted"`
		SHA256     string   `json:"sha256"`
		Tools      []string `json:"tools"`
	}
	cliJSON(t, home, &res, "plugins", "install", src, "--yes")
	if res.Name != "test-reader" || len(res.Granted) != 0 || !reflect.DeepEqual(res.NotGranted, []string{"fs.read"}) ||
		len(res.SHA256) != 64 || !reflect.DeepEqual(res.Tools, []string{"test_reader"}) {
		t.Fatalf("install --json = %+v", res)
	}

	s := startHome(t, home, root, "--mode", "trusted")
	msg := s.fail("test_reader", map[string]any{"path": "a.txt"}, "CAPABILITY_DENIED")
	if !strings.Contains(msg, "juju plugins grant test-reader fs.read") {
		t.Errorf("the denial does not say how to grant: %q", msg)
	}

	// A grant applies to the next call of the running server.
	out := cliOK(t, home, "plugins", "grant", "test-reader", "fs.read")
	if !strings.Contains(out, "granted fs.read") {
		t.Errorf("grant said %q", out)
	}
	if got := s.ok("test_reader", map[string]any{"path": "a.txt"}); !strings.Contains(got, "hello from the workspace") {
		t.Fatalf("after grant: %q", got)
	}
	// The grant is fs.read through the policy: a secret stays out of reach.
	s.fail("test_reader", map[string]any{"path": ".env"}, "SECRET_DENIED")
	// So does a revoke, and a new server starts with it too.
	var ch struct {
		Granted []string `json:"granted"`
		Changed []string `json:"changed"`
	}
	cliJSON(t, home, &ch, "plugins", "revoke", "test-reader", "fs.read")
	if len(ch.Granted) != 0 || !reflect.DeepEqual(ch.Changed, []string{"fs.read"}) {
		t.Errorf("revoke --json = %+v", ch)
	}
	s.fail("test_reader", map[string]any{"path": "a.txt"}, "CAPABILITY_DENIED")
	s2 := startHome(t, home, root, "--mode", "trusted")
	s2.fail("test_reader", map[string]any{"path": "a.txt"}, "CAPABILITY_DENIED")
	cliOK(t, home, "plugins", "grant", "test-reader", "all")
	s2.ok("test_reader", map[string]any{"path": "a.txt"})

	// info shows the capability in words, granted.
	var info struct {
		SHA256 string `json:"sha256"`
		Asks   []struct {
			Name    string `json:"name"`
			Words   string `json:"words"`
			Granted bool   `json:"granted"`
		} `json:"asks"`
	}
	cliJSON(t, home, &info, "plugins", "info", "test-reader")
	if info.SHA256 != res.SHA256 || len(info.Asks) != 1 || !info.Asks[0].Granted || !strings.Contains(info.Asks[0].Words, "read files") {
		t.Errorf("info --json = %+v", info)
	}

	// verify passes, then catches a swapped wasm; list and the server refuse it.
	if out := cliOK(t, home, "plugins", "verify"); !strings.Contains(out, "ok      test-reader 1.0.0") {
		t.Errorf("verify: %q", out)
	}
	installed := filepath.Join(home, "data", "plugins", "test-reader")
	echo := pluginCopy(t, "echo")
	swapped, _ := os.ReadFile(filepath.Join(echo, "plugin.wasm"))
	os.WriteFile(filepath.Join(installed, "plugin.wasm"), swapped, 0o600)
	out, _, code := cli(t, home, nil, "plugins", "verify")
	if code != 1 || !strings.Contains(out, "FAILED  test-reader: the wasm file does not match its pinned sha256") {
		t.Errorf("verify after the swap: exit %d\n%s", code, out)
	}
	var reports []struct {
		Name  string `json:"name"`
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	out, _, _ = cli(t, home, nil, "plugins", "verify", "test-reader", "--json")
	if err := json.Unmarshal([]byte(out), &reports); err != nil || len(reports) != 1 || reports[0].OK || reports[0].Error == "" {
		t.Errorf("verify --json: %v %s", err, out)
	}
	if p := findListed(t, home, "test-reader"); p.State != "refused" || !strings.Contains(p.Error, "pinned sha256") {
		t.Errorf("list after the swap: %+v", p)
	}
	// It holds nothing, and a grant would not change that: the list says
	// it is refused, not that fs.read waits for a grant.
	if out := cliOK(t, home, "plugins", "list"); !strings.Contains(out, "fs.read (refused: holds none)") || strings.Contains(out, "not granted") {
		t.Errorf("list of the refused plugin:\n%s", out)
	}
	// Nor does grant say it now holds what it cannot.
	if out, errs, code := cli(t, home, nil, "plugins", "grant", "test-reader", "fs.read"); code != 1 ||
		!strings.Contains(errs, "test-reader is refused, and a grant would give it nothing: the wasm file does not match its pinned sha256") {
		t.Errorf("grant of the refused plugin: exit %d\n%s%s", code, out, errs)
	}
	s3 := startHome(t, home, root, "--mode", "trusted")
	if res, err := s3.callErr("test_reader", map[string]any{"path": "a.txt"}); err == nil && !res.IsError {
		t.Errorf("a swapped plugin served a call: %s", text(res))
	}
	// A manifest edited after install is refused with its own reason.
	cliOK(t, home, "plugins", "install", src, "--grant", "fs.read")
	mpath := filepath.Join(installed, "manifest.json")
	m, _ := os.ReadFile(mpath)
	os.WriteFile(mpath, bytes.Replace(m, []byte(`"version": "1.0.0"`), []byte(`"version": "1.0.1"`), 1), 0o600)
	if p := findListed(t, home, "test-reader"); p.State != "refused" || !strings.Contains(p.Error, "manifest.json changed since the plugin was installed") {
		t.Errorf("list after the manifest edit: %+v", p)
	}

	// remove; core plugins cannot be removed or revoked.
	var rm struct {
		Name    string `json:"name"`
		Removed bool   `json:"removed"`
	}
	cliJSON(t, home, &rm, "plugins", "remove", "test-reader")
	if !rm.Removed {
		t.Errorf("remove --json = %+v", rm)
	}
	if _, err := os.Stat(installed); !os.IsNotExist(err) {
		t.Errorf("still installed: %v", err)
	}
	for _, args := range [][]string{{"remove", "core"}, {"revoke", "core", "fs.read"}, {"grant", "core", "fs.read"}} {
		_, errs, code := cli(t, home, nil, append([]string{"plugins"}, args...)...)
		if code != 1 || !strings.Contains(errs, "core plugins are part of juju") {
			t.Errorf("plugins %v: exit %d, %q", args, code, errs)
		}
	}
	_, errs, code := cli(t, home, nil, "plugins", "remove", "test-reader")
	if code != 1 || !strings.Contains(errs, "no installed plugin has that name") {
		t.Errorf("second remove: exit %d, %q", code, errs)
	}
}

// A plugin whose manifest is malformed, whose tools collide, or whose wasm
// does not match is refused without touching the installed set.
func TestInstallRefusalsLeaveInstalledSetAlone(t *testing.T) {
	home := newHome(t)
	cliOK(t, home, "plugins", "install", pluginCopy(t, "echo"), "--yes")
	data := filepath.Join(home, "data")
	before := tree(t, data)

	edit := func(dir string, from, to string) {
		p := filepath.Join(dir, "manifest.json")
		b, _ := os.ReadFile(p)
		if !bytes.Contains(b, []byte(from)) {
			t.Fatalf("manifest has no %q", from)
		}
		os.WriteFile(p, bytes.Replace(b, []byte(from), []byte(to), 1), 0o600)
	}
	cases := []struct {
		name  string
		setup func(dir string)
		want  string
	}{
		{"malformed manifest", func(dir string) { edit(dir, `"abi": 2`, `"abi": 2,,`) }, "invalid manifest"},
		{"a core tool's name", func(dir string) {
			edit(dir, `"name": "test-echo"`, `"name": "test-echo-two"`)
			edit(dir, `"name": "test_echo"`, `"name": "read_file"`)
		}, `tool "read_file" is already provided by plugin core, part of juju; rename the tool` + "\n"},
		{"a core discoverer's name", func(dir string) {
			edit(dir, `"name": "test-echo"`, `"name": "test-echo-two"`)
			edit(dir, `"abi": 2`, `"abi": 2, "discoverers": [{"name": "just", "files": ["justfile"]}]`)
		}, `discoverer "just" is already provided by plugin core-discover, part of juju; rename the discoverer` + "\n"},
		{"another plugin's tool", func(dir string) { edit(dir, `"name": "test-echo"`, `"name": "test-echo-two"`) },
			`tool "test_echo" is already provided by plugin test-echo`},
		{"a core plugin's name", func(dir string) { edit(dir, `"name": "test-echo"`, `"name": "core"`) },
			"core is the name of a core plugin"},
		{"sha256 mismatch", func(dir string) {
			os.WriteFile(filepath.Join(dir, "plugin.wasm"), append([]byte("\x00asm\x01\x00\x00\x00"), 0), 0o600)
		}, "sha256 mismatch"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := pluginCopy(t, "echo")
			tc.setup(dir)
			_, errs, code := cli(t, home, nil, "plugins", "install", dir, "--yes")
			if code != 1 || !strings.Contains(errs, "plugin refused") || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d, stderr %q; want %q", code, errs, tc.want)
			}
			if after := tree(t, data); !reflect.DeepEqual(before, after) {
				t.Errorf("the data directory changed:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
	// --sha256 given for a path is checked too.
	_, errs, code := cli(t, home, nil, "plugins", "install", pluginCopy(t, "echo"), "--sha256", strings.Repeat("ab", 32))
	if code != 1 || !strings.Contains(errs, "--sha256 says") {
		t.Errorf("wrong --sha256: exit %d, %q", code, errs)
	}
	if after := tree(t, data); !reflect.DeepEqual(before, after) {
		t.Error("the data directory changed")
	}
}

// Installing from an https URL: juju trusts the test server's certificate
// through SSL_CERT_FILE, as it would a private CA's.
func TestInstallFromURL(t *testing.T) {
	home := newHome(t)
	src := pluginCopy(t, "reader")
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range []string{"manifest.json", "plugin.wasm"} {
		b, _ := os.ReadFile(filepath.Join(src, f))
		tw.WriteHeader(&tar.Header{Name: "test-reader/" + f, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg})
		tw.Write(b)
	}
	tw.Close()
	gz.Close()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/reader.tar.gz" {
			http.NotFound(w, r)
			return
		}
		w.Write(buf.Bytes())
	}))
	defer srv.Close()
	certFile := filepath.Join(t.TempDir(), "ca.pem")
	pemData := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	os.WriteFile(certFile, pemData, 0o600)
	env := []string{"SSL_CERT_FILE=" + certFile}
	wasm, _ := os.ReadFile(filepath.Join(src, "plugin.wasm"))
	sum := sha256.Sum256(wasm)
	sha := hex.EncodeToString(sum[:])
	url := srv.URL + "/reader.tar.gz"

	_, errs, code := cli(t, home, env, "plugins", "install", url)
	if code != 2 || !strings.Contains(errs, "--sha256 is required") { // a wrong command line
		t.Errorf("no --sha256: exit %d, %q", code, errs)
	}
	_, errs, code = cli(t, home, env, "plugins", "install", url, "--sha256", strings.Repeat("0", 64))
	if code != 1 || !strings.Contains(errs, "sha256 mismatch") {
		t.Errorf("wrong --sha256: exit %d, %q", code, errs)
	}
	// An author may publish the archive's sha256 (sha256sum's) rather
	// than the wasm's: juju says which one --sha256 takes, and installs
	// nothing.
	archiveSum := sha256.Sum256(buf.Bytes())
	_, errs, code = cli(t, home, env, "plugins", "install", url, "--sha256", hex.EncodeToString(archiveSum[:]))
	if code != 1 || !strings.Contains(errs, "is the sha256 of the archive, not of the plugin.wasm it holds") || !strings.Contains(errs, "--sha256 takes the wasm's") {
		t.Errorf("the archive's sha256: exit %d, %q", code, errs)
	}
	local := filepath.Join(t.TempDir(), "reader.tar.gz")
	os.WriteFile(local, buf.Bytes(), 0o600)
	_, errs, code = cli(t, home, env, "plugins", "install", local, "--sha256", hex.EncodeToString(archiveSum[:]))
	if code != 1 || !strings.Contains(errs, "is the sha256 of the archive") {
		t.Errorf("the archive's sha256 for a file: exit %d, %q", code, errs)
	}
	// Without the certificate the download fails: juju does not skip TLS checks.
	_, errs, code = cli(t, home, nil, "plugins", "install", url, "--sha256", sha)
	if code != 1 || !strings.Contains(errs, "certificate") {
		t.Errorf("untrusted certificate: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(home, "data", "plugins", "test-reader")); !os.IsNotExist(err) {
		t.Fatal("a refused install left the plugin installed")
	}
	out, errs, code := cli(t, home, env, "plugins", "install", url, "--sha256", sha, "--grant", "fs.read")
	if code != 0 {
		t.Fatalf("install: exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(errs, "downloading reader.tar.gz:") || !strings.Contains(errs, "compiling test-reader") {
		t.Errorf("no progress lines on stderr: %q", errs)
	}
	if !strings.Contains(out, "fs.read: granted: read files") {
		t.Errorf("install output: %q", out)
	}
	root := workspace(t, map[string]string{"a.txt": "fetched plugin reads\n"})
	s := startHome(t, home, root, "--mode", "trusted")
	if got := s.ok("test_reader", map[string]any{"path": "a.txt"}); !strings.Contains(got, "fetched plugin reads") {
		t.Errorf("test_reader: %q", got)
	}
}

// An update that asks for more keeps the old grants only, and says what is new.
func TestUpdateNeedsNewGrant(t *testing.T) {
	home := newHome(t)
	src := pluginCopy(t, "reader")
	cliOK(t, home, "plugins", "install", src, "--grant", "fs.read")
	p := filepath.Join(src, "manifest.json")
	m, _ := os.ReadFile(p)
	m = bytes.Replace(m, []byte(`"version": "1.0.0"`), []byte(`"version": "1.1.0"`), 1)
	m = bytes.Replace(m, []byte(`"fs.read"`), []byte(`"fs.read", "net.fetch"`), 1)
	os.WriteFile(p, m, 0o600)
	out := cliOK(t, home, "plugins", "install", src, "--yes")
	for _, want := range []string{
		"test-reader 1.1.0 updated (from 1.0.0)",
		"fs.read: granted: read files",
		"net.fetch: NOT granted (new in this version): fetch pages from the internet",
		"juju plugins grant test-reader net.fetch",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("update output lacks %q:\n%s", want, out)
		}
	}
	if l := findListed(t, home, "test-reader"); !reflect.DeepEqual(l.Granted, []string{"fs.read"}) || l.State == "refused" {
		t.Errorf("after update: %+v", l)
	}
}
