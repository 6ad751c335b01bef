package plugin

import (
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// A module runs on wazero alone only when it speaks ABI 2 and imports
// nothing Extism provides; anything else keeps Extism's convention.
func TestRunsDirect(t *testing.T) {
	wasi := Import{Module: "wasi_snapshot_preview1", Name: "fd_write"}
	output := Import{Module: abi.ChannelNamespace, Name: abi.ChannelOutput}
	for _, c := range []struct {
		name    string
		version int
		imports []Import
		want    bool
	}{
		{"the Go SDK's imports", abi.VersionChannel, []Import{wasi, output, {Module: abi.ChannelNamespace, Name: "juju_fs_read"}}, true},
		{"no imports at all", abi.VersionChannel, nil, true},
		{"ABI 1", abi.VersionKernel, []Import{wasi}, false},
		{"ABI 2 using the kernel's memory", abi.VersionChannel, []Import{output, {Module: "extism:host/env", Name: "alloc"}}, false},
		{"ABI 2 calling a kernel-block host function", abi.VersionChannel, []Import{output, {Module: abi.HostNamespace, Name: "juju_log"}}, false},
	} {
		if got := runsDirect(c.version, c.imports); got != c.want {
			t.Errorf("%s: runsDirect = %v, want %v", c.name, got, c.want)
		}
		if c.version == abi.VersionChannel && len(c.imports) > 1 && moduleABI(c.imports) != abi.VersionChannel {
			t.Errorf("%s: not read as ABI 2", c.name)
		}
	}
}
