package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jujutools/juju/sandbox"
)

func ptr[T any](v T) *T { return &v }

// specExample is the example of SPEC §8b, as docs/CLI.md shows it.
const specExample = `mode = "edit"                 # inspect | edit | trusted
sandbox = "prefer"            # off | prefer | require
allowWebFetch = false
[policy]
deny = ["build/secret-data/**"]   # extra deny globs
secrets = ["*.vault"]             # extra secret globs (the default list cannot be shrunk)
[fetch]
allow = ["127.0.0.1:8443"]        # exact host:port pairs exempt from the private-address block
[exec]
backgroundAfterMs = 50000
`

func TestDecode(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want File
	}{
		{name: "empty", doc: "", want: File{}},
		{name: "comments only", doc: "# nothing set\n\n", want: File{}},
		{
			name: "spec example",
			doc:  specExample,
			want: File{
				Mode: ptr(ModeEdit), Sandbox: ptr(sandbox.Prefer), AllowWebFetch: ptr(false),
				Policy: PolicyTable{Deny: []string{"build/secret-data/**"}, Secrets: []string{"*.vault"}},
				Fetch:  FetchTable{Allow: []string{"127.0.0.1:8443"}},
				Exec:   ExecTable{BackgroundAfterMs: ptr(int64(50000))},
			},
		},
		{
			name: "dotted keys and inline tables",
			doc:  "policy.deny = [\"a/**\"]\nexec = { backgroundAfterMs = 1000 }\nmode = \"trusted\"\n",
			want: File{
				Mode:   ptr(ModeTrusted),
				Policy: PolicyTable{Deny: []string{"a/**"}},
				Exec:   ExecTable{BackgroundAfterMs: ptr(int64(1000))},
			},
		},
		{
			name: "journal limits",
			doc:  "[journal]\nmaxAgeDays = 7\nmaxSizeMiB = 0\n",
			want: File{Journal: JournalTable{MaxAgeDays: ptr(int64(7)), MaxSizeMiB: ptr(int64(0))}},
		},
		{
			name: "plugins unload",
			doc:  "[plugins]\nunloadAfterMs = 0\n",
			want: File{Plugins: PluginsTable{UnloadAfterMs: ptr(int64(0))}},
		},
		{
			name: "standby idle",
			doc:  "exec.standbyIdleMs = 5000\n",
			want: File{Exec: ExecTable{StandbyIdleMs: ptr(int64(5000))}},
		},
		{
			name: "allow forms",
			doc:  `fetch.allow = ["localhost:3000", "[::1]:8443", "dev.example.test:443", "10.0.0.2:1"]`,
			want: File{Fetch: FetchTable{Allow: []string{"localhost:3000", "[::1]:8443", "dev.example.test:443", "10.0.0.2:1"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode("config.toml", []byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Path = "config.toml"
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", *got, tt.want)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string // every one must appear in the error
		not  []string // none may
	}{
		{
			name: "unknown top-level key",
			doc:  "mode = \"edit\"\ncolour = \"blue\"\n",
			want: []string{`config.toml:2: unknown key "colour"`},
		},
		{
			name: "unknown table names only the table",
			doc:  "[polcy]\ndeny = [\"x\"]\n",
			want: []string{`config.toml:1: unknown key "polcy"`},
			not:  []string{"polcy.deny"},
		},
		{
			name: "unknown key in a known table",
			doc:  "[exec]\nbackgroundAfter = 3\n",
			want: []string{`config.toml:2: unknown key "exec.backgroundAfter"`},
		},
		{
			name: "unknown dotted key",
			doc:  "\npolicy.denny = []\n",
			want: []string{`config.toml:2: unknown key "policy.denny"`},
		},
		{
			name: "unknown key in an inline table",
			doc:  "policy = { deny = [], extra = 1 }\n",
			want: []string{`config.toml:1: unknown key "policy.extra"`},
		},
		{
			name: "keys are case-sensitive",
			doc:  "AllowWebFetch = true\n",
			want: []string{`config.toml:1: unknown key "AllowWebFetch"`, `did you mean "allowWebFetch"?`},
		},
		{
			name: "every unknown key is named",
			doc:  "a = 1\nb = 2\n",
			want: []string{`config.toml:1: unknown key "a"`, `config.toml:2: unknown key "b"`},
		},
		{
			name: "bad mode",
			doc:  "\nmode = \"fast\"\n",
			want: []string{`config.toml:2: mode: "fast" must be one of inspect, edit, trusted`},
		},
		{
			name: "bad sandbox",
			doc:  "sandbox = \"always\"\n",
			want: []string{`config.toml:1: sandbox: "always" must be one of off, prefer, require`},
		},
		{
			name: "journal limits out of range",
			doc:  "[journal]\nmaxAgeDays = -1\nmaxSizeMiB = -2\n",
			want: []string{"config.toml:2: journal.maxAgeDays: -1 must be a number of days from 0", "config.toml:3: journal.maxSizeMiB: -2 must be a number of MiB from 0"},
		},
		{
			name: "plugins unload out of range",
			doc:  "plugins.unloadAfterMs = -5\n",
			want: []string{"config.toml:1: plugins.unloadAfterMs: -5 must be a number of milliseconds from 0 (never unload) to 86400000 (a day)"},
		},
		{
			name: "standby idle out of range",
			doc:  "[exec]\nstandbyIdleMs = -1\n",
			want: []string{"config.toml:2: exec.standbyIdleMs: -1 must be a number of milliseconds from 0 (keep it) to 86400000 (a day)"},
		},
		{
			name: "plugins unload past a day",
			doc:  "[plugins]\nunloadAfterMs = 86400001\n",
			want: []string{"config.toml:2: plugins.unloadAfterMs: 86400001 must be a number of milliseconds from 0 (never unload) to 86400000 (a day)"},
		},
		{
			name: "journal size of the wrong type",
			doc:  "journal.maxSizeMiB = 1.5\n",
			want: []string{"config.toml:1: journal.maxSizeMiB: must be a whole number"},
		},
		{
			name: "unknown journal key",
			doc:  "[journal]\nmaxSize = 10\n",
			want: []string{`config.toml:2: unknown key "journal.maxSize" (known keys here: maxAgeDays, maxSizeMiB)`},
		},
		{
			name: "mode of the wrong type",
			doc:  "mode = 3\n",
			want: []string{"config.toml:1: mode: must be a string"},
		},
		{
			name: "allowWebFetch of the wrong type",
			doc:  "allowWebFetch = \"yes\"\n",
			want: []string{"config.toml:1: allowWebFetch: must be true or false"},
		},
		{
			name: "deny of the wrong type",
			doc:  "[policy]\ndeny = \"build/**\"\n",
			want: []string{"config.toml:2: policy.deny: must be a list of strings"},
		},
		{
			name: "allow entry without a port",
			doc:  "[fetch]\nallow = [\"localhost\"]\n",
			want: []string{`config.toml:2: fetch.allow: "localhost": must be host:port`},
		},
		{
			name: "allow entry with port 0",
			doc:  "fetch.allow = [\"127.0.0.1:0\"]\n",
			want: []string{`fetch.allow: "127.0.0.1:0": port "0" must be a number from 1 to 65535`},
		},
		{
			name: "allow entry with a large port",
			doc:  "fetch.allow = [\"127.0.0.1:99999\"]\n",
			want: []string{`port "99999"`},
		},
		{
			name: "allow entry with a named port",
			doc:  "fetch.allow = [\"127.0.0.1:https\"]\n",
			want: []string{`port "https"`},
		},
		{
			name: "allow entry without a host",
			doc:  "fetch.allow = [\":8080\"]\n",
			want: []string{`":8080": the host is missing`},
		},
		{
			name: "allow entry with a URL",
			doc:  "fetch.allow = [\"https://example.com:443\"]\n",
			want: []string{`"https://example.com:443": must be host:port`},
		},
		{
			name: "allow entry with a wildcard",
			doc:  "fetch.allow = [\"*.example.com:443\"]\n",
			want: []string{`"*.example.com" is neither an IP address nor a host name`},
		},
		{
			name: "backgroundAfterMs zero",
			doc:  "[exec]\nbackgroundAfterMs = 0\n",
			want: []string{"config.toml:2: exec.backgroundAfterMs: 0 must be a positive number of milliseconds"},
		},
		{
			name: "backgroundAfterMs negative",
			doc:  "exec.backgroundAfterMs = -5\n",
			want: []string{"exec.backgroundAfterMs: -5 must be a positive"},
		},
		{
			// 18446744073710 ms is 2^64 ns and 0.45 ms: as a duration it
			// wrapped to a fraction of a millisecond.
			name: "backgroundAfterMs past a day",
			doc:  "[exec]\nbackgroundAfterMs = 18446744073710\n",
			want: []string{"config.toml:2: exec.backgroundAfterMs: 18446744073710 must be a positive number of milliseconds, at most 86400000 (a day)"},
		},
		{
			name: "timeoutMs past a day",
			doc:  "[approvals]\ntimeoutMs = 9223372036855\n",
			want: []string{"config.toml:2: approvals.timeoutMs: 9223372036855 must be a positive number of milliseconds, at most 86400000"},
		},
		{
			name: "backgroundAfterMs as a string",
			doc:  "exec.backgroundAfterMs = \"50s\"\n",
			want: []string{"config.toml:1: exec.backgroundAfterMs: must be a whole number"},
		},
		{
			name: "bad glob",
			doc:  "policy.secrets = [\"[abc\"]\n",
			want: []string{`config.toml:1: policy.secrets: "[abc": not a valid glob`},
		},
		{
			name: "empty glob",
			doc:  "policy.deny = [\"\"]\n",
			want: []string{`policy.deny: "": an empty glob matches nothing`},
		},
		{
			name: "syntax error",
			doc:  "mode = \"edit\"\nsandbox =\n",
			want: []string{"config.toml:2: "},
		},
		{
			name: "duplicate key",
			doc:  "mode = \"edit\"\nmode = \"trusted\"\n",
			want: []string{"config.toml:2: "},
		},
		{
			name: "several problems at once",
			doc:  "mode = \"x\"\nsandbox = \"y\"\n",
			want: []string{"config.toml:1: mode:", "config.toml:2: sandbox:"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode("config.toml", []byte(tt.doc))
			if err == nil {
				t.Fatal("Decode succeeded, want an error")
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v does not wrap ErrInvalid", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not contain %q", err, w)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(err.Error(), n) {
					t.Errorf("error %q\ncontains %q", err, n)
				}
			}
		})
	}
}

// TestKnownKeys pins the set of keys to SPEC §8b: adding a key is a change
// of the documented file format (docs/CLI.md).
func TestKnownKeys(t *testing.T) {
	var got []string
	for k := range knownKeys {
		got = append(got, k)
	}
	want := []string{
		"allowWebFetch", "approvals", "approvals.askInClient", "approvals.timeoutMs", "exec", "exec.backgroundAfterMs", "exec.standbyIdleMs", "fetch", "fetch.allow",
		"journal", "journal.maxAgeDays", "journal.maxSizeMiB", "mode", "plugins", "plugins.unloadAfterMs", "policy", "policy.deny", "policy.secrets", "sandbox",
	}
	slices.Sort(got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("keys = %q\nwant   %q", got, want)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	d := Dirs{Config: dir}

	f, err := LoadDefault(d)
	if err != nil {
		t.Fatalf("missing default file: %v", err)
	}
	if !reflect.DeepEqual(*f, File{}) {
		t.Errorf("missing default file gave %+v, want an empty File", *f)
	}

	missing := filepath.Join(dir, "nope.toml")
	if _, err := Load(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load(missing) = %v, want fs.ErrNotExist", err)
	}

	if err := os.WriteFile(d.ConfigFile(), []byte("mode = \"trusted\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err = LoadDefault(d)
	if err != nil {
		t.Fatal(err)
	}
	if f.Mode == nil || *f.Mode != ModeTrusted || f.Path != d.ConfigFile() {
		t.Errorf("LoadDefault = %+v", *f)
	}

	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("nope = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), bad+`:1: unknown key "nope"`) {
		t.Errorf("Load(bad) = %v, want the path, line and key", err)
	}

	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, make([]byte, MaxFileSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); !errors.Is(err, ErrInvalid) {
		t.Errorf("Load(big) = %v, want ErrInvalid", err)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(specExample))
	f.Add([]byte("policy = { deny = [], extra = 1 }\n"))
	f.Add([]byte("[[exec]]\nx = 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Decode("fuzz.toml", data)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if file.Mode != nil && !file.Mode.Valid() {
			t.Fatalf("accepted mode %q", *file.Mode)
		}
		if ms := file.Exec.BackgroundAfterMs; ms != nil && *ms <= 0 {
			t.Fatalf("accepted backgroundAfterMs %d", *ms)
		}
		if ms := file.Approvals.TimeoutMs; ms != nil && *ms <= 0 {
			t.Fatalf("accepted approvals.timeoutMs %d", *ms)
		}
	})
}
