package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/host/pluginbuild"
	"github.com/jujutools/juju/internal/installed"
)

// Hostile text a model or a plugin's author chooses, and how the CLI must
// show it: escaped, visible, on one line.
const (
	claimEsc      = "evil\x1b[2J"
	claimEscShown = `evil\x1b[2J`
	claimNL       = "a\nFAKE LINE"
	claimNLShown  = `a\nFAKE LINE`

	claimVersion      = "1.0.0-" + claimEsc + "\n" + "FAKE LINE"
	claimVersionShown = `1.0.0-evil\x1b[2J\nFAKE LINE`
	claimDesc         = "Echo " + claimEsc + " then " + claimNL
	claimDescShown    = `Echo evil\x1b[2J then a\nFAKE LINE`
	claimToolDesc     = "Echo tool " + claimEsc + "\x07\rFAKE LINE"
	claimToolShown    = `Echo tool evil\x1b[2J\x07\rFAKE LINE`
	claimFolder       = "bad-" + claimEsc + "\n" + "FAKE LINE"
	claimFolderShown  = `bad-evil\x1b[2J\nFAKE LINE`
)

// claimTerminalSafe is checkTerminalSafe, stricter: no C0 control other
// than a newline or a tab, no DEL or C1 control, and no row that hostile
// text started (a line beginning with FAKE LINE); out must show want.
func claimTerminalSafe(t *testing.T, where, out string, want ...string) {
	t.Helper()
	checkTerminalSafe(t, where, out, want...)
	for _, r := range out {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			t.Errorf("%s prints the raw control character %U:\n%q", where, r, out)
			break
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "FAKE LINE") {
			t.Errorf("%s lets hostile text start a row of its own:\n%s", where, out)
		}
	}
}

// claimHostileEcho installs the echo test plugin into home the way juju
// plugins install lays it out (pinned, so it loads), with a manifest whose
// version, description and tool description are hostile, as a plugin's
// author may write them into the wasm's own description.
func claimHostileEcho(t *testing.T, home string) {
	t.Helper()
	built := pluginbuild.ForTest(t, filepath.Join(repoRoot, "plugins", "testplugins", "echo"))
	dst := filepath.Join(home, "data", "plugins", "test-echo")
	if err := os.MkdirAll(dst, 0o700); err != nil {
		t.Fatal(err)
	}
	wasm, err := os.ReadFile(filepath.Join(built, "plugin.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, "plugin.wasm"), wasm, 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(built, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	m["version"], m["description"] = claimVersion, claimDesc
	m["tools"].([]any)[0].(map[string]any)["description"] = claimToolDesc
	mdata, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(filepath.Join(dst, "manifest.json"), mdata, 0o600); err != nil {
		t.Fatal(err)
	}
	g, _ := json.Marshal(map[string]any{"granted": []string{}, "sha256": installed.Hash(wasm), "manifestSha256": installed.Hash(mdata)})
	if err := os.WriteFile(filepath.Join(dst, "grants.json"), g, 0o600); err != nil {
		t.Fatal(err)
	}
}

// claimHostileFolder puts a folder with a hostile name, and no valid
// plugin in it, among the installed plugins: juju refuses it and names it
// by its folder.
func claimHostileFolder(t *testing.T, home string) {
	t.Helper()
	writeFile(t, filepath.Join(home, "data", "plugins", claimFolder, "manifest.json"), "{not json "+claimEsc+"\n")
}

// TestClaimCLIEscapesApprovalDecisions holds the claim of docs/SECURITY.md
// ("The CLI escapes the model's text"): juju approvals approve and deny
// print the held call's arguments — the model's text — escaped, so an ESC
// sequence or a line break in them cannot act on the owner's terminal or
// forge a row; the escaped text is shown, not dropped.
func TestClaimCLIEscapesApprovalDecisions(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	home := gateHome(t, 300*time.Millisecond)
	s := startGate(t, home, root, "edit", "claims-cli-e2e", nil)

	esc := pendingIn(t, s.fail("test_gated_exec", map[string]any{"text": claimEsc}, "APPROVAL_PENDING"))
	nl := pendingIn(t, s.fail("test_gated_exec", map[string]any{"text": claimNL}, "APPROVAL_PENDING"))

	out := juju(t, home, root, "approvals", "approve", esc)
	claimTerminalSafe(t, "juju approvals approve", out, esc, claimEscShown)
	out = juju(t, home, root, "approvals", "deny", nl)
	claimTerminalSafe(t, "juju approvals deny", out, nl, claimNLShown)

	// The other way round too: a denial of the ESC, an approval of the line break.
	esc2 := pendingIn(t, s.fail("test_gated_exec", map[string]any{"text": claimEsc + claimNL}, "APPROVAL_PENDING"))
	nl2 := pendingIn(t, s.fail("test_gated_exec", map[string]any{"text": claimNL + claimEsc}, "APPROVAL_PENDING"))
	if s.ran(claimEsc+claimNL) || s.ran(claimNL+claimEsc) {
		t.Fatal("a held call ran")
	}
	claimTerminalSafe(t, "juju approvals deny", juju(t, home, root, "approvals", "deny", esc2), claimEscShown+claimNLShown)
	claimTerminalSafe(t, "juju approvals approve", juju(t, home, root, "approvals", "approve", nl2), claimNLShown+claimEscShown)

	// The list of every approval (decided ones too) stays safe as well.
	claimTerminalSafe(t, "juju approvals --all", juju(t, home, root, "approvals", "--all"), claimEscShown, claimNLShown)
}

// TestClaimCLIEscapesPluginText holds the claim of docs/SECURITY.md ("The
// CLI escapes the model's text"): a plugin's version, description and tool
// description, and the name of a plugin juju refuses, are its author's
// text; juju plugins info, plugins verify, plugins list, tools and doctor
// print them escaped, shown and on one line, so they cannot clear the
// owner's terminal or forge a row.
func TestClaimCLIEscapesPluginText(t *testing.T) {
	home := newHome(t)
	claimHostileEcho(t, home)
	claimHostileFolder(t, home)

	// The plugin with hostile text loads: it is served, not refused.
	if p := findListed(t, home, "test-echo"); p.State == "refused" {
		t.Fatalf("the hostile plugin was refused, the test cannot reach the CLI's output: %+v", p)
	}

	info := cliOK(t, home, "plugins", "info", "test-echo")
	claimTerminalSafe(t, "juju plugins info", info, claimVersionShown, claimDescShown, claimToolShown)

	// The refused folder is named by its hostile folder name.
	out, errs, code := cli(t, home, nil, "plugins", "info", claimFolder)
	if code != 0 {
		t.Errorf("juju plugins info of the refused plugin: exit %d", code)
	}
	claimTerminalSafe(t, "juju plugins info (a refused plugin)", out+errs, claimFolderShown, "refused")

	out, errs, code = cli(t, home, nil, "plugins", "verify")
	if code != 1 {
		t.Errorf("juju plugins verify: exit %d, want 1 (a refused plugin)\n%s%s", code, out, errs)
	}
	claimTerminalSafe(t, "juju plugins verify", out+errs, "ok      test-echo "+claimVersionShown, "FAILED  "+claimFolderShown)
	out, errs, _ = cli(t, home, nil, "plugins", "verify", "test-echo")
	claimTerminalSafe(t, "juju plugins verify NAME", out+errs, claimVersionShown)

	claimTerminalSafe(t, "juju plugins list", cliOK(t, home, "plugins", "list"), claimVersionShown, claimFolderShown)

	claimTerminalSafe(t, "juju tools", cliOK(t, home, "tools"), claimToolShown)

	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	out, errs, code = cli(t, home, nil, "doctor", "--root", root)
	if code != 0 && code != 1 {
		t.Fatalf("juju doctor: exit %d\n%s%s", code, out, errs)
	}
	claimTerminalSafe(t, "juju doctor", out+errs, claimFolderShown)
}

// TestClaimCLIEscapesInstallAndBuildOutput holds the claim of
// docs/SECURITY.md ("The CLI escapes the model's text") for juju plugins
// build and install: the version an author writes is printed escaped, on
// install, on update (the previous version too) and on build; a hostile
// plugin name is refused at install, and the refusal names it escaped.
func TestClaimCLIEscapesInstallAndBuildOutput(t *testing.T) {
	home := newHome(t)

	// build --wasm: the manifest's version is the author's.
	dir := authorFolder(t)
	editJSON(t, filepath.Join(dir, "manifest.json"), func(m map[string]any) {
		m["version"], m["description"] = claimVersion, claimDesc
	})
	good := buildRaw(t, "")
	out, errs, code := cli(t, home, nil, "plugins", "build", "--wasm", good, dir)
	if code != 0 {
		t.Fatalf("juju plugins build --wasm: exit %d\n%s%s", code, out, errs)
	}
	claimTerminalSafe(t, "juju plugins build", out+errs, "test-raw "+claimVersionShown)

	out, errs, code = cli(t, home, nil, "plugins", "install", dir, "--yes")
	if code != 0 {
		t.Fatalf("juju plugins install: exit %d\n%s%s", code, out, errs)
	}
	claimTerminalSafe(t, "juju plugins install", out+errs, "test-raw "+claimVersionShown+" installed")

	// An update shows the old version and the new one, both escaped.
	editJSON(t, filepath.Join(dir, "manifest.json"), func(m map[string]any) {
		m["version"] = "2.0.0-" + claimNL
	})
	out, errs, code = cli(t, home, nil, "plugins", "install", dir, "--yes")
	if code != 0 {
		t.Fatalf("juju plugins install (update): exit %d\n%s%s", code, out, errs)
	}
	claimTerminalSafe(t, "juju plugins install (update)", out+errs, "test-raw 2.0.0-"+claimNLShown+" updated (from "+claimVersionShown+")")

	// A hostile plugin name is refused; the refusal prints it escaped.
	bad := pluginCopy(t, "echo")
	editJSON(t, filepath.Join(bad, "manifest.json"), func(m map[string]any) {
		m["name"] = claimFolder
	})
	out, errs, code = cli(t, home, nil, "plugins", "install", bad, "--yes")
	if code != 1 || !strings.Contains(errs, "plugin refused") {
		t.Fatalf("install of a plugin named %q: exit %d, want a refusal\n%s%s", claimFolder, code, out, errs)
	}
	claimTerminalSafe(t, "juju plugins install (a hostile name)", out+errs, claimFolderShown)
	if _, err := os.Stat(filepath.Join(home, "data", "plugins", claimFolder)); !os.IsNotExist(err) {
		t.Errorf("the refused plugin was installed: %v", err)
	}
}
