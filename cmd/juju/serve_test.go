package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/oauth"
)

func TestParsePublicURL(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{"", "", ""},
		{"https://Example.trycloudflare.com", "https://example.trycloudflare.com", ""},
		{"https://tunnel.example:8443/", "https://tunnel.example:8443", ""},
		{"https://tunnel.example:443", "https://tunnel.example", ""},
		{"HTTPS://tunnel.example:443/", "https://tunnel.example", ""},
		{"http://192.168.1.5:80", "http://192.168.1.5", ""},
		{"http://tunnel.example:443", "http://tunnel.example:443", ""},
		{"https://[::1]:443", "https://[::1]", ""},
		{"http://192.168.1.5:7777", "http://192.168.1.5:7777", ""},
		{"ftp://tunnel.example", "", "https://"},
		{"tunnel.example", "", "https://"},
		{"https://", "", "no host"},
		{"https://tunnel.example/mcp", "", "give https://tunnel.example (the tunnel's address"},
		{"https://tunnel.example/juju/mcp/", "", "give https://tunnel.example/juju (the tunnel's address"},
		{"https://tunnel.example/juju/", "https://tunnel.example/juju", ""},
		{"https://Tunnel.example:443/Team-1/juju_2~.x", "https://tunnel.example/Team-1/juju_2~.x", ""},
		{"https://tunnel.example/a//b", "", "plain segments"},
		{"https://tunnel.example/a/../b", "", "plain segments"},
		{"https://tunnel.example/a/./b", "", "plain segments"},
		{"https://tunnel.example/%6Auju", "", "plain segments"},
		{"https://tunnel.example/a%2Fb", "", "plain segments"},
		{"https://tunnel.example/j%20u", "", "plain segments"},
		{"https://tunnel.example/j\u202eu", "", "plain segments"},
		{"https://user@tunnel.example", "", "without a query or user"},
		{"https://tunnel.example?x=1", "", "without a query or user"},
		{"https://tunnel.example/?", "", "without a query or user"},
		{"https://tunnel.example#f", "", "without a query or user"},
		{"https://tun nel", "", "public-url"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			u, err := parsePublicURL(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if u != nil {
				got = u.String()
			}
			if got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTokenFileOutsideRoots(t *testing.T) {
	root := t.TempDir()
	elsewhere := t.TempDir()
	link := filepath.Join(elsewhere, "link")
	os.Symlink(root, link)
	// A token file that is itself a link to a file inside the root (a
	// dotfiles repository served as a root) is read there.
	os.WriteFile(filepath.Join(root, "notes.txt"), nil, 0o600)
	os.Symlink(filepath.Join(root, "notes.txt"), filepath.Join(elsewhere, "tok-link"))
	os.Symlink(filepath.Join(elsewhere, "token"), filepath.Join(elsewhere, "tok-out"))
	for path, inside := range map[string]bool{
		filepath.Join(elsewhere, "tok-link"):   true,
		filepath.Join(elsewhere, "tok-out"):    false,
		filepath.Join(root, "token"):           true,
		filepath.Join(root, "sub", "token"):    true,
		filepath.Join(link, "token"):           true,
		filepath.Join(elsewhere, "token"):      false,
		filepath.Join(root+"-sibling", "tok"):  false,
		filepath.Join(filepath.Dir(root), "t"): false,
	} {
		err := outsideRoots(path, []string{root})
		if (err != nil) != inside {
			t.Errorf("%s: %v, inside %v", path, err, inside)
		}
	}
}

func TestTokenCommand(t *testing.T) {
	dirs := jujuHome(t)
	var out strings.Builder
	if err := runToken(&tokenOptions{}, &out); err != nil {
		t.Fatal(err)
	}
	tok := strings.TrimSpace(out.String())
	data, err := os.ReadFile(filepath.Join(dirs.Config, "token"))
	if err != nil || strings.TrimSpace(string(data)) != tok || !strings.HasPrefix(tok, "juju_") {
		t.Fatalf("printed %q, file %q %v", tok, data, err)
	}
	out.Reset()
	other := filepath.Join(t.TempDir(), "t")
	if err := runToken(&tokenOptions{tokenFile: other}, &out); err != nil || strings.TrimSpace(out.String()) == tok {
		t.Fatalf("--token-file: %q %v", out.String(), err)
	}
	os.Chmod(other, 0o644)
	if err := runToken(&tokenOptions{tokenFile: other}, &out); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("an exposed token file: %v", err)
	}
}

func TestAnnounce(t *testing.T) {
	tests := []struct {
		addr, public string
		want, not    []string
	}{
		{"127.0.0.1:7777", "", []string{"juju: serving MCP at http://127.0.0.1:7777/mcp", "claude mcp add --transport http juju http://127.0.0.1:7777/mcp"}, []string{"WARNING", "OAuth"}},
		{"0.0.0.0:7777", "", []string{"WARNING: listening on 0.0.0.0:7777"}, nil},
		{"192.168.1.5:7777", "", []string{"WARNING"}, nil},
		{"[::1]:7777", "https://t.example", []string{"remote clients connect to https://t.example/mcp"}, []string{"WARNING"}},
		{"127.0.0.1:7777", "http://t.example", []string{"WARNING: --public-url is not https"}, nil},
	}
	for _, tt := range tests {
		addr, err := net.ResolveTCPAddr("tcp", tt.addr)
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := parsePublicURL(tt.public)
		var out strings.Builder
		announce(&out, addr, pub, "juju token")
		for _, w := range tt.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s %s: no %q in\n%s", tt.addr, tt.public, w, out.String())
			}
		}
		for _, n := range tt.not {
			if strings.Contains(out.String(), n) {
				t.Errorf("%s %s: %q in\n%s", tt.addr, tt.public, n, out.String())
			}
		}
	}
}

func TestPrintPairing(t *testing.T) {
	var out strings.Builder
	printPairing(&out, oauth.Pairing{Code: "ABCD-EFGH", ClientID: "c_1", ClientName: "Evil\x1b[2J", RedirectHost: "claude.ai",
		Mode: "edit", Roots: []string{"/home/me/app"}, Expires: time.Now()})
	s := out.String()
	for _, want := range []string{"ABCD-EFGH", "c_1", "claude.ai", "edit mode on /home/me/app", `"Evil\x1b[2J"`} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in\n%s", want, s)
		}
	}
	if strings.Contains(s, "\x1b") {
		t.Error("an escape sequence from the client's name reached the terminal")
	}
	// A host registered before redirect URIs had to be ASCII: shown escaped.
	out.Reset()
	printPairing(&out, oauth.Pairing{Code: "ABCD-EFGH", ClientName: "x", RedirectHost: "a\u009b2Jb\u202e.example", Expires: time.Now()})
	if s := out.String(); strings.ContainsAny(s, "\u009b\u202e") {
		t.Errorf("the redirect host reached the terminal raw:\n%q", s)
	}
}

// The client's name on the pairing line is rendered as juju clients list
// renders it: the Hangul filler (U+3164), which Go's %q counts as a
// printable letter, showed as blank on the terminal, so a name could
// hold a run of it and carry its own "(OAuth client …; the browser then
// goes to chatgpt.com)" with the line's real end pushed out of sight.
func TestPrintPairingShowsTheWholeName(t *testing.T) {
	var out strings.Builder
	name := `ChatGPT" (the browser then goes to chatgpt.com)` + strings.Repeat("\u3164", 60) + "."
	printPairing(&out, oauth.Pairing{Code: "ABCD-EFGH", ClientID: "c_1", ClientName: name, RedirectHost: "evil.example", Expires: time.Now()})
	s := out.String()
	if strings.Contains(s, "\u3164") || !strings.Contains(s, `\u3164`) || !strings.Contains(s, `"ChatGPT\" (the browser`) {
		t.Errorf("the client's name is not shown escaped:\n%s", s)
	}
}

// The pairing line names the page the code is for, the only place to type
// it: someone who loads juju's page through the tunnel holds its form, and
// a page of theirs asking the owner for "the code juju serve printed"
// would get them in.
func TestPrintPairingNamesItsPage(t *testing.T) {
	var out strings.Builder
	printPairing(&out, oauth.Pairing{Code: "ABCD-EFGH", ClientID: "c_1", ClientName: "ChatGPT", RedirectHost: "chatgpt.com",
		Page: "https://tunnel.example/authorize", Expires: time.Now()})
	s := out.String()
	if !strings.Contains(s, "juju's authorization page, https://tunnel.example/authorize,") || !strings.Contains(s, "Never type it anywhere else") {
		t.Errorf("the pairing line does not say where the code goes:\n%s", s)
	}
}

// A port already taken (another juju serve, most often) is said as such,
// with what to do.
func TestServePortTaken(t *testing.T) {
	jujuHome(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var out, errw strings.Builder
	code := run(t.Context(), []string{"serve", "--root", t.TempDir(), "--addr", ln.Addr().String()}, strings.NewReader(""), &out, &errw)
	if code != 1 || !strings.Contains(errw.String(), "another program listens there, perhaps another juju serve") ||
		!strings.Contains(errw.String(), "--addr 127.0.0.1:7778") {
		t.Errorf("exit %d, stderr:\n%s", code, errw.String())
	}
}
