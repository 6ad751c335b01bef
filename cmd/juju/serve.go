package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/jujutools/juju/host/mcpserver"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/oauth"
	"github.com/jujutools/juju/internal/token"
	"github.com/jujutools/juju/internal/visible"
)

var _ mcpserver.Authorizer = (*oauth.Server)(nil)

// serveOptions are the flags of juju serve: those of juju stdio and the
// HTTP ones.
type serveOptions struct {
	stdioOptions
	addr      string
	publicURL string
	tokenFile string
}

// serveMemoryLimit is the base of juju serve's soft Go memory limit (each
// loaded module adds twice its wasm, as under juju stdio). Concurrent clients
// grow the plugins' instance pools (a Go wasm instance holds megabytes), and
// under stdio's 64 MiB the collector would then run without pause: a tiny
// read_file went from 0.6 to 3-10 ms per call after a burst of 24 clients
// (docs/RATIONALE.md).
const serveMemoryLimit = 256 << 20

// defaultAddr is where juju serve listens unless told otherwise.
const defaultAddr = "127.0.0.1:7777"

func newServeCommand() *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve MCP over streamable HTTP (for clients that connect by URL)",
		Long: `Serve the tools over MCP's streamable HTTP transport at /mcp, for the
clients that connect by URL: Claude Code, Codex or Cursor configured with a
url, Claude Desktop and claude.ai connectors, ChatGPT developer mode, or a
second machine through a tunnel. The tools, trust modes, approvals and
audit are those of juju stdio, and so are its flags.

juju serve listens on 127.0.0.1:7777 unless --addr says otherwise; any
other address is said loudly when it starts. Every request must name this
server in its Host (and X-Forwarded-Host and Origin, when it has them):
loopback or localhost with the bound port, or the host of --public-url.
Anything else is refused (403), which stops web pages from reaching juju
through DNS rebinding.

There is no unauthenticated mode. Local clients send the local token,
made on first use and printed by 'juju token':
  Authorization: Bearer <token>
Clients that only do OAuth (claude.ai, ChatGPT) register themselves and
ask for access on juju's /authorize page; you allow one by typing the
pairing code juju serve prints on this terminal at that moment. 'juju
clients list' shows what was granted and 'juju clients revoke' takes it
back.`,
		Example: `  # Claude Code, on the current project
  juju serve &
  claude mcp add --transport http juju http://127.0.0.1:7777/mcp \
    --header "Authorization: Bearer $(juju token)"

  # claude.ai or ChatGPT through a tunnel (OAuth with a pairing code)
  cloudflared tunnel --url http://127.0.0.1:7777 &
  juju serve --public-url https://example.trycloudflare.com`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.given = cmd.Flags().Changed
			gcPercent(startGCPercent)
			softMemoryLimit(serveMemoryLimit)
			return runServe(cmd.Context(), o, cmd.ErrOrStderr())
		},
	}
	o.bind(cmd.Flags())
	return cmd
}

// bind defines the flags on f.
func (o *serveOptions) bind(f *pflag.FlagSet) {
	o.stdioOptions.bind(f)
	f.StringVar(&o.addr, "addr", defaultAddr, "listen on `HOST:PORT` (port 0 picks a free one; anything but loopback is reachable from other machines)")
	f.StringVar(&o.publicURL, "public-url", "", "the `URL` a tunnel gives this server (https://…, with a path where a proxy mounts juju), accepted as Host and Origin and used as the OAuth issuer")
	f.StringVar(&o.tokenFile, "token-file", "", "read the local token from `FILE`, creating it (mode 0600) if needed in a folder that exists, outside the roots (default: token in the config directory)")
}

// runServe builds the host and serves MCP over HTTP until ctx is done.
func runServe(ctx context.Context, o *serveOptions, errw io.Writer) error {
	pub, err := parsePublicURL(o.publicURL)
	if err != nil {
		return usageError{err}
	}
	if err := checkAddr(o.addr); err != nil {
		return usageError{err}
	}
	if o.tokenFile != "" {
		// The default token lies in the config directory, which a
		// confined command finds empty; a file of the owner's choosing is
		// covered on its own.
		o.hiddenFiles = []string{tokenPath(o.tokenFile, config.Dirs{})}
	}
	w, err := openServed(&o.stdioOptions, errw)
	if err != nil {
		return err
	}
	defer w.close()
	go func() {
		select {
		case <-w.host.Warmed():
			gcPercent(serveGCPercent)
			if w.host.CacheProblem() == nil {
				pruneCacheOnce(w.dirs, w.log)
			}
		case <-ctx.Done():
		}
	}()
	tokenPath := tokenPath(o.tokenFile, w.dirs)
	if o.tokenFile != "" {
		// The default token lies in the config directory, secret to the
		// tools wherever it is (a root may hold the owner's home); a file
		// of the owner's choosing is not, and must stay out of the roots.
		if err := checkTokenFile(tokenPath, w.settings.Roots); err != nil {
			return err
		}
	}
	tok, err := token.LoadOrCreate(tokenPath)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		if uid := listenerOf(o.addr); uid >= 0 && uid != os.Geteuid() {
			// The clients set up for this port send the token to it.
			return fmt.Errorf("listening on %s: another user (uid %d) listens there, and your clients set up for this address "+
				"would send them your token: give another port (--addr 127.0.0.1:7778) and set the clients up for it; "+
				"and if a client already connected there, remove %s so that juju serve makes a new token", o.addr, uid, tokenPath)
		}
		return fmt.Errorf("listening on %s: another program listens there, perhaps another juju serve: "+
			"stop it, or give another port (--addr 127.0.0.1:7778, and the tunnel the same port)", o.addr)
	}
	if err != nil {
		return fmt.Errorf("listening on %s: %w", o.addr, err)
	}
	defer ln.Close()
	tokenCmd := tokenCommand("")
	if o.tokenFile != "" {
		tokenCmd = tokenCommand(tokenPath)
	}
	announce(errw, ln.Addr(), pub, tokenCmd)
	w.log.Info("juju serving over HTTP", "version", version, "addr", ln.Addr().String(), "roots", w.settings.Roots,
		"mode", w.settings.Mode, "sandbox", w.settings.Sandbox, "config", w.settings.ConfigFile, "tools", len(w.host.Tools()))
	auth := oauth.New(oauth.Config{
		Dir: oauthDir(w.dirs), Mode: string(w.settings.Mode), Roots: w.settings.Roots,
		Notify: func(p oauth.Pairing) { printPairing(errw, p) }, Log: w.log,
	})
	defer auth.Close()
	cfg := mcpserver.HTTPConfig{Listener: ln, PublicURL: pub, Token: tok, OAuth: auth, Log: w.log, Grace: shutdownGrace}
	return serve(ctx, w.log, shutdownGrace+shutdownGrace/2, func(ctx context.Context) error {
		return mcpserver.ServeHTTP(ctx, w.host, cfg)
	})
}

// tokenPath is --token-file, or the token in the config directory.
func tokenPath(flag string, dirs config.Dirs) string {
	if flag != "" {
		if abs, err := filepath.Abs(flag); err == nil {
			return abs
		}
		return flag
	}
	return token.Path(dirs.Config)
}

// checkTokenFile refuses a --token-file whose folder does not exist (a
// mistyped path; juju makes no folders but its own) or that lies inside a
// workspace root.
func checkTokenFile(path string, roots []string) error {
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("--token-file %s: the folder %s does not exist; create it (mkdir -p -m 700 %s) or name a file in a folder that exists",
			visible.String(path), visible.String(dir), shellQuote(dir))
	}
	return outsideRoots(path, roots)
}

// outsideRoots refuses a --token-file inside a workspace root, where the
// tools could read it: its folder, and, when the file is a symbolic link,
// the folder of the file it leads to, which is where the token is read.
func outsideRoots(path string, roots []string) error {
	dirs := []string{filepath.Dir(path)}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		dirs = append(dirs, filepath.Dir(real))
	}
	for _, dir := range dirs {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		for _, r := range roots {
			if real, err := filepath.EvalSymlinks(r); err == nil {
				r = real
			}
			if rel, err := filepath.Rel(r, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return usageError{fmt.Errorf("--token-file %s is inside the workspace root %s, where the tools could read it; keep it outside", path, r)}
			}
		}
	}
	return nil
}

// tokenCommand is the shell command that prints the token this juju serve
// takes, for the owner to paste where a client starts: this very program,
// called "juju" only when that name on PATH is this program (after `make
// serve`, bin/juju is on no PATH), with the JUJU_HOME it runs under and
// tokenFile (absolute) when not the default.
func tokenCommand(tokenFile string) string {
	cmd := "juju"
	if exe, err := os.Executable(); err == nil && !onPath(exe) {
		cmd = shellQuote(exe)
	}
	if home := os.Getenv(config.HomeEnv); home != "" {
		if abs, err := filepath.Abs(home); err == nil {
			home = abs
		}
		cmd = config.HomeEnv + "=" + shellQuote(home) + " " + cmd
	}
	cmd += " token"
	if tokenFile != "" {
		cmd += " --token-file " + shellQuote(tokenFile)
	}
	return cmd
}

// onPath reports whether "juju" on PATH is the program exe.
func onPath(exe string) bool {
	found, err := exec.LookPath("juju")
	if err != nil {
		return false
	}
	a, err1 := os.Stat(found)
	b, err2 := os.Stat(exe)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// shellQuote quotes s for a POSIX shell when it holds anything but
// letters, digits and -_./,:@%+=.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,:@%+=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// checkAddr refuses an --addr that is no HOST:PORT before anything starts:
// a mistake on the command line (exit 2), where an address in use or not
// this machine's is a failure to listen (1).
func checkAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		_, err = net.LookupPort("tcp", port)
	}
	if err != nil {
		return fmt.Errorf("--addr %q must be HOST:PORT, such as %s", addr, defaultAddr)
	}
	return nil
}

// parsePublicURL checks --public-url: http or https, a host, a path of
// plain segments, nothing else.
func parsePublicURL(s string) (*url.URL, error) {
	if s == "" {
		return nil, nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("--public-url %q: %w", s, err)
	}
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme != "https" && scheme != "http":
		return nil, fmt.Errorf("--public-url %q must be an https:// URL (or http://)", s)
	case u.Host == "" || u.Hostname() == "":
		return nil, fmt.Errorf("--public-url %q has no host", s)
	case u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery || u.Opaque != "":
		return nil, fmt.Errorf("--public-url %q must be scheme://host[:port][/path] alone, without a query or user: "+
			"give %s://%s (the tunnel's address; clients connect to its /mcp)", s, scheme, u.Host)
	}
	// A path is where a proxy that serves other things on its host too
	// mounts juju (Caddy's handle_path /juju/*, tailscale serve
	// --set-path /juju): the OAuth issuer and the MCP endpoint live below
	// it. It is plain segments, so the issuer reads as written.
	path := strings.TrimSuffix(u.Path, "/")
	segs := strings.Split(path, "/")[1:]
	if path != "" && segs[len(segs)-1] == "mcp" {
		return nil, fmt.Errorf("--public-url %q is the MCP endpoint, not the address it lies below: give %s://%s%s "+
			"(the tunnel's address; clients connect to its /mcp)", s, scheme, u.Host, strings.TrimSuffix(path, "/mcp"))
	}
	for _, seg := range segs {
		if seg == "" || seg == "." || seg == ".." || strings.Trim(seg, pathChars) != "" || u.RawPath != "" {
			return nil, fmt.Errorf("--public-url %q: its path must be plain segments of letters, digits and -._~ "+
				"(such as https://example.com/juju)", s)
		}
	}
	host := strings.ToLower(u.Host)
	// A tunnel's clients name its host without the scheme's default port,
	// and so does every URL juju hands them: kept, the port made the
	// tunnel's own Host a refused one, and the issuer and resource URLs
	// other than the one the client used.
	if p := u.Port(); p == map[string]string{"https": "443", "http": "80"}[scheme] {
		host = strings.TrimSuffix(host, ":"+p)
	}
	return &url.URL{Scheme: scheme, Host: host, Path: path}, nil
}

// pathChars are the characters of a --public-url path's segments.
const pathChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"

// announce says on the terminal where juju serve serves and how to
// connect; the line "juju: serving MCP at URL" comes first and is stable
// (tests and scripts read it). tokenCmd is the shell command that prints
// the token (tokenCommand); never the token itself.
func announce(errw io.Writer, addr net.Addr, pub *url.URL, tokenCmd string) {
	local := "http://" + addr.String() + "/mcp"
	fmt.Fprintf(errw, "juju: serving MCP at %s\n", local)
	if ap, err := netip.ParseAddrPort(addr.String()); err == nil && !ap.Addr().IsLoopback() {
		fmt.Fprintf(errw, "juju: WARNING: listening on %s, which other machines can reach. "+
			"They still need a token, but prefer 127.0.0.1 and a tunnel.\n", addr)
	}
	fmt.Fprintf(errw, "juju: local clients send \"Authorization: Bearer $(%s)\", e.g.\n"+
		"  claude mcp add --transport http juju %s --header \"Authorization: Bearer $(%s)\"\n", tokenCmd, local, tokenCmd)
	if pub != nil {
		fmt.Fprintf(errw, "juju: remote clients connect to %s/mcp with OAuth; pairing codes appear here\n", pub)
		if pub.Scheme != "https" {
			fmt.Fprintf(errw, "juju: WARNING: --public-url is not https: tokens and pairing codes cross the network in clear\n")
		}
	}
}

// printPairing shows a pairing code on the terminal (stderr, even when the
// log goes to a file): the only place it ever appears.
func printPairing(errw io.Writer, p oauth.Pairing) {
	fmt.Fprintf(errw, "\njuju: pairing code for %s (OAuth client %s; the browser then goes to %s):\n\n      %s\n\n"+
		"      Type it on juju's authorization page, %s, before %s to let it use juju in %s mode on %s.\n"+
		"      Never type it anywhere else: a page elsewhere asking for it is phishing.\n"+
		"      If you did not just connect this application, do not type it.\n\n",
		visible.Quote(p.ClientName), p.ClientID, visible.String(p.RedirectHost), p.Code, visible.String(p.Page), p.Expires.Local().Format("15:04:05"), p.Mode, strings.Join(p.Roots, ", "))
}

// listenerOf is the user id of whoever listens on addr's port, or -1.
func listenerOf(addr string) int {
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		return -1
	}
	port, err := strconv.Atoi(p)
	if err != nil {
		return -1
	}
	return portListener(port)
}
