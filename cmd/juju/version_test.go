package main

import (
	"bytes"
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

func TestBuildVersion(t *testing.T) {
	bi := &debug.BuildInfo{
		GoVersion: "go1.99.1",
		Deps: []*debug.Module{
			{Path: "github.com/spf13/cobra", Version: "v1.10.2"},
			{Path: extismModule, Version: "v1.7.1"},
			{Path: wazeroModule, Version: "v1.12.0", Replace: &debug.Module{Path: "../wazero", Version: "v1.12.1-local"}},
		},
	}
	platform := runtime.GOOS + "/" + runtime.GOARCH
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want versionInfo
	}{
		{"build info", bi, versionInfo{"1.2.3", "go1.99.1", abi.Version, "v1.7.1", "v1.12.1-local", platform}},
		{"no build info", nil, versionInfo{"1.2.3", runtime.Version(), abi.Version, "unknown", "unknown", platform}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := buildVersion("1.2.3", tt.bi); got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestVersionJSON(t *testing.T) {
	var out bytes.Buffer
	info := versionInfo{"1.2.3", "go1.26.0", 1, "v1.7.1", "v1.12.0", "linux/amd64"}
	if err := runVersion(&out, &versionOptions{json: true}, info); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	want := map[string]any{
		"version": "1.2.3", "go": "go1.26.0", "abi": 1.0,
		"extism": "v1.7.1", "wazero": "v1.12.0", "platform": "linux/amd64",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("keys = %v", got)
	}
}

func TestVersionText(t *testing.T) {
	var out bytes.Buffer
	info := versionInfo{"1.2.3", "go1.26.0", 1, "v1.7.1", "v1.12.0", "linux/amd64"}
	if err := runVersion(&out, &versionOptions{}, info); err != nil {
		t.Fatal(err)
	}
	want := `juju        1.2.3
go          go1.26.0
plugin abi  1
extism      v1.7.1
wazero      v1.12.0
platform    linux/amd64
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestVersionCommand runs juju version --json end to end, as the shell does.
func TestVersionCommand(t *testing.T) {
	var out, errw bytes.Buffer
	if code := run(t.Context(), []string{"version", "--json"}, strings.NewReader(""), &out, &errw); code != 0 {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	var info versionInfo
	if err := json.Unmarshal(out.Bytes(), &info); err != nil {
		t.Fatal(err)
	}
	if info.Version != version || info.ABI != abi.Version || info.Go == "" {
		t.Errorf("got %+v", info)
	}
	if errw.Len() != 0 {
		t.Errorf("stderr: %s", errw.String())
	}
}
