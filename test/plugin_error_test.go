package test

import (
	"strings"
	"testing"
)

// A plugin's own error message (Extism's error_set) is as long as its
// memory allows; the PLUGIN_FAILED quoting it costs juju what it quotes.
// Before, an error of 64 MiB of "a a a …" was split into words whole:
// juju's peak grew by 926 MB and the call took 16 s of its time, so a few
// such calls at once could take the owner's machine.
func TestPluginErrorMessageCostsWhatIsQuoted(t *testing.T) {
	s, root := startRawPlugin(t, "rawhugefail")
	s.ok("test_raw_echo", map[string]any{"text": "x"})
	pid := jujuPID(t, root)
	before := hwm(t, pid)
	res := s.call("test_raw_fail", map[string]any{})
	if got := text(res); !res.IsError || !strings.HasPrefix(got, "PLUGIN_FAILED") || !strings.Contains(got, `"a a a`) || len(got) > 1000 {
		t.Errorf("the failing call: %.400s", got)
	}
	// The plugin's memories (its Go heap and the Extism block, 64 MiB
	// each) are in juju's resident size too: it grew by 168 MB.
	if grew := hwm(t, pid) - before; grew > 500<<20 {
		t.Errorf("juju's peak resident size grew by %d MB", grew>>20)
	}
	if got := s.ok("test_raw_echo", map[string]any{"text": "after"}); got != "raw: after" {
		t.Errorf("echo after the failure: %q", got)
	}
}

// A structured content is checked against the tool's output schema only
// while the check costs juju a bounded part of what the plugin sent: decoded
// for the check, 64 MB of {"n":[0,0,…]} took juju's heap to 2.2 GB, where a
// client gets at most 99,000 bytes of it. Past the bound the call fails,
// saying so, and the plugin keeps serving.
func TestLargeStructuredContentIsNotDecodedWhole(t *testing.T) {
	s, root := startRawPlugin(t, "rawhugestructured")
	s.ok("list_directory", map[string]any{"path": "."})
	pid := jujuPID(t, root)
	before := hwm(t, pid)
	res := s.call("test_raw_echo", map[string]any{"text": "x"})
	if got := text(res); !res.IsError || !strings.HasPrefix(got, "PLUGIN_FAILED") || !strings.Contains(got, "MiB") {
		t.Errorf("the call: %.400s", got)
	}
	// The plugin's memories (its Go heap and the Extism blocks) are in
	// juju's resident size too.
	grew := hwm(t, pid) - before
	t.Logf("juju's peak resident size grew by %d MB", grew>>20)
	if grew > 700<<20 {
		t.Errorf("juju's peak resident size grew by %d MB", grew>>20)
	}
	s.ok("list_directory", map[string]any{"path": "."})
}

// An output schema that applies one definition twice to every item (a
// oneOf of two branches) costs its validator 2^d steps for arrays nested d
// deep: 66 bytes of structured content nested 30 deep pinned a core of
// juju's for hours, past any deadline, where the plugin's own call had
// ended. juju counts what the check would apply before it runs it, and
// answers PLUGIN_FAILED; arguments checked against such an input schema
// are INVALID_ARGUMENT.
func TestCostlyOutputSchemaIsNotRun(t *testing.T) {
	s, _ := startRawPlugin(t, "rawcostlyschema")
	res := s.call("test_raw_echo", map[string]any{"text": "x"})
	if got := text(res); !res.IsError || !strings.HasPrefix(got, "PLUGIN_FAILED") || !strings.Contains(got, "too many for juju to check") {
		t.Errorf("the call: %.400s", got)
	}
	var a any = []any{}
	for range 30 {
		a = []any{a}
	}
	res = s.call("test_raw_echo", map[string]any{"text": "x", "a": a})
	if got := text(res); !res.IsError || !strings.HasPrefix(got, "INVALID_ARGUMENT") || !strings.Contains(got, "more than 600000 times") {
		t.Errorf("the call with nested arguments: %.400s", got)
	}
	s.ok("list_directory", map[string]any{"path": "."})
}

// An ABI 1 plugin hands its result back through Extism's output, as long
// as its memory allows. juju reads no more of a call's result than the
// 16 MiB an ABI 2 frame's header holds: 32 MiB of empty text items,
// decoded, took juju's peak up by 283 MB (103 MB refused by its size, the
// plugin's memories included) and the call 10 s. Past the bound the
// call fails by its size before any of it is decoded, and the plugin
// keeps serving.
func TestHugeCallResultIsRefusedBySize(t *testing.T) {
	s, root := startRawPlugin(t, "rawhugecontent")
	s.ok("list_directory", map[string]any{"path": "."})
	pid := jujuPID(t, root)
	before := hwm(t, pid)
	res := s.call("test_raw_echo", map[string]any{"text": "x"})
	if got := text(res); !res.IsError || !strings.HasPrefix(got, "PLUGIN_FAILED") || !strings.Contains(got, "17.0 MiB") {
		t.Errorf("the call: %.400s", got)
	}
	grew := hwm(t, pid) - before
	t.Logf("juju's peak resident size grew by %d MB", grew>>20)
	// The plugin's memories (its Go heap and the Extism block, some 100
	// MB) are in juju's resident size too.
	if grew > 200<<20 {
		t.Errorf("juju's peak resident size grew by %d MB", grew>>20)
	}
	s.ok("list_directory", map[string]any{"path": "."})
}

// startRawPlugin installs the raw test plugin built with tags and starts a juju
// serving it, on a workspace of its own.
func startRawPlugin(t *testing.T, tags string) (s *session, root string) {
	t.Helper()
	home := newHome(t)
	dir := authorFolder(t)
	cliOK(t, home, "plugins", "build", "--wasm", buildRaw(t, tags), dir)
	cliOK(t, home, "plugins", "install", dir, "--yes")
	root = workspace(t, nil)
	return startHome(t, home, root), root
}
