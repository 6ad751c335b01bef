package test

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// startTunnel stands in for cloudflared or ngrok in front of srv: it takes
// HTTPS for publicHost, ends TLS there, and forwards plain HTTP to juju
// serve's loopback address with X-Forwarded-For and -Proto. With rewrite,
// the Host juju sees is its own loopback address and the public name is
// left only in X-Forwarded-Host (ngrok --host-header=rewrite); without,
// the Host is passed on unchanged and there is no X-Forwarded-Host
// (cloudflared's default). The returned client reaches publicHost, and
// only it, through the tunnel, as the internet would.
func startTunnel(t *testing.T, srv *server, publicHost string, rewrite bool) *http.Client {
	t.Helper()
	return startMountedTunnel(t, srv, publicHost, rewrite, nil)
}

// startMountedTunnel is startTunnel with mount, when not nil, choosing
// which requests reach juju and with what path, as a proxy that serves
// other things on its host too does: a request mount refuses gets the
// proxy's own 404.
func startMountedTunnel(t *testing.T, srv *server, publicHost string, rewrite bool, mount func(path string) (string, bool)) *http.Client {
	t.Helper()
	target, _ := url.Parse(srv.base)
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.SetXForwarded()
			if !rewrite {
				pr.Out.Host = pr.In.Host
				pr.Out.Header.Del("X-Forwarded-Host")
			}
		},
		FlushInterval: -1,
	}
	var h http.Handler = proxy
	if mount != nil {
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p, ok := mount(r.URL.Path)
			if !ok {
				http.NotFound(w, r)
				return
			}
			r.URL.Path, r.URL.RawPath = p, ""
			proxy.ServeHTTP(w, r)
		})
	}
	ts := httptest.NewUnstartedServer(h)
	ts.StartTLS()
	t.Cleanup(ts.Close)
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if addr != publicHost+":443" {
				return nil, &net.AddrError{Err: "not the tunnel's address", Addr: addr}
			}
			return (&net.Dialer{}).DialContext(ctx, network, ts.Listener.Addr().String())
		},
		// The test certificate does not name publicHost; the tunnel's
		// TLS is not what is under test.
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
	}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// chatgpt plays ChatGPT's connector (developer mode, a custom connector
// with OAuth), over HTTPS through the tunnel, the way OpenAI's Apps SDK
// authentication guide and the MCP authorization spec (2025-06-18,
// 2025-11-25) describe it.
type chatgpt struct {
	t   *testing.T
	web *http.Client
}

func (c chatgpt) do(method, u, ctype, body string, hdr map[string]string) (*http.Response, string) {
	c.t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := c.web.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, u, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res, string(b)
}

func (c chatgpt) getJSON(u string, v any) {
	c.t.Helper()
	res, body := c.do("GET", u, "", "", map[string]string{"Accept": "application/json"})
	if res.StatusCode != 200 || json.Unmarshal([]byte(body), v) != nil {
		c.t.Fatalf("GET %s: %d %s", u, res.StatusCode, body)
	}
}

// ChatGPT connects to `juju serve` through a tunnel, step by step as its
// connector does, with the tunnel passing the Host on and with the tunnel
// rewriting it to juju's loopback address: every URL juju hands out (the
// 401's resource metadata, the resource, the issuer, the endpoints, the
// redirect's iss) is the public one, registration with ChatGPT's callback
// works, the owner allows it with the pairing code, the code and refresh
// token exchanges carry the resource ChatGPT echoes, tools/list and a
// tools/call succeed, and `juju clients revoke` ends it (docs/CLI.md,
// "ChatGPT through a tunnel").
func TestServeChatGPTThroughTunnel(t *testing.T) {
	for _, mode := range []struct {
		name    string
		rewrite bool
	}{{"host passed on", false}, {"host rewritten", true}} {
		t.Run(mode.name, func(t *testing.T) {
			const host = "juju-demo.trycloudflare.com"
			const public = "https://" + host
			root := workspace(t, map[string]string{"a.txt": "alpha\n"})
			srv := startServe(t, root, "--public-url", public)
			gpt := chatgpt{t: t, web: startTunnel(t, srv, host, mode.rewrite)}
			chatgptConnects(t, srv, gpt, public)
		})
	}
}

func chatgptConnects(t *testing.T, srv *server, gpt chatgpt, public string) {
	const callback = "https://chatgpt.com/connector/oauth/cb_0123456789abcdef"
	const initBody = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"openai-mcp","version":"1.0.0"}}}`
	mcpHeaders := map[string]string{"Accept": "application/json, text/event-stream"}
	under := func(what, u string) {
		t.Helper()
		if u != public && !strings.HasPrefix(u, public+"/") {
			t.Fatalf("juju gave ChatGPT %s %q, not under %s", what, u, public)
		}
	}

	// 1. The connector's URL answers 401 with the resource metadata's URL.
	res, body := gpt.do("POST", public+"/mcp", "application/json", initBody, mcpHeaders)
	challenge := res.Header.Get("WWW-Authenticate")
	_, prmURL, _ := strings.Cut(challenge, `resource_metadata="`)
	prmURL, _, _ = strings.Cut(prmURL, `"`)
	if res.StatusCode != 401 || !strings.HasPrefix(challenge, "Bearer ") || prmURL == "" {
		t.Fatalf("no token: %d %q %s", res.StatusCode, challenge, body)
	}
	under("the resource metadata", prmURL)

	// 2. Protected resource metadata (RFC 9728), at the challenge's URL and
	// at the path-suffixed well-known URL a 2025-11-25 client tries first.
	var prm struct {
		Resource string   `json:"resource"`
		Servers  []string `json:"authorization_servers"`
	}
	gpt.getJSON(prmURL, &prm)
	var suffixed struct {
		Resource string `json:"resource"`
	}
	pub, _ := url.Parse(public)
	gpt.getJSON(pub.Scheme+"://"+pub.Host+"/.well-known/oauth-protected-resource"+pub.Path+"/mcp", &suffixed)
	if prm.Resource != public+"/mcp" || suffixed.Resource != prm.Resource || len(prm.Servers) != 1 {
		t.Fatalf("protected resource metadata %+v, suffixed %+v", prm, suffixed)
	}
	issuer := prm.Servers[0]
	under("the authorization server", issuer)

	// 3. Authorization server metadata (RFC 8414) at the issuer's
	// well-known URL; its issuer must be the one asked for (§3.3).
	var as struct {
		Issuer        string   `json:"issuer"`
		Authorize     string   `json:"authorization_endpoint"`
		Token         string   `json:"token_endpoint"`
		Register      string   `json:"registration_endpoint"`
		PKCE          []string `json:"code_challenge_methods_supported"`
		AuthMethods   []string `json:"token_endpoint_auth_methods_supported"`
		Grants        []string `json:"grant_types_supported"`
		ISSParameter  bool     `json:"authorization_response_iss_parameter_supported"`
		ResponseTypes []string `json:"response_types_supported"`
	}
	u, _ := url.Parse(issuer)
	gpt.getJSON(u.Scheme+"://"+u.Host+"/.well-known/oauth-authorization-server"+strings.TrimSuffix(u.Path, "/"), &as)
	if as.Issuer != issuer || !slices.Contains(as.PKCE, "S256") || !slices.Contains(as.AuthMethods, "none") ||
		!slices.Contains(as.Grants, "refresh_token") || !slices.Contains(as.ResponseTypes, "code") || !as.ISSParameter {
		t.Fatalf("authorization server metadata %+v", as)
	}
	for _, e := range []string{as.Authorize, as.Token, as.Register} {
		under("an endpoint", e)
	}

	// 4. Dynamic client registration (RFC 7591), once per connector, with
	// the connector's callback.
	res, body = gpt.do("POST", as.Register, "application/json", `{"client_name":"ChatGPT","redirect_uris":["`+callback+`"],`+
		`"grant_types":["authorization_code","refresh_token"],"response_types":["code"],"token_endpoint_auth_method":"none"}`, nil)
	var reg struct {
		ClientID   string `json:"client_id"`
		AuthMethod string `json:"token_endpoint_auth_method"`
	}
	if res.StatusCode != 201 || json.Unmarshal([]byte(body), &reg) != nil || reg.ClientID == "" || reg.AuthMethod != "none" {
		t.Fatalf("register: %d %s", res.StatusCode, body)
	}

	// 5. The owner's browser goes to the authorization endpoint, PKCE S256
	// and the resource from the metadata; juju prints a pairing code, the
	// owner types it on the page, and the browser goes back to ChatGPT.
	verifier, challengeS256 := pkcePair()
	q := url.Values{"response_type": {"code"}, "client_id": {reg.ClientID}, "redirect_uri": {callback}, "state": {"oauth_s_42"},
		"code_challenge": {challengeS256}, "code_challenge_method": {"S256"}, "resource": {prm.Resource}, "scope": {""}}
	res, page := gpt.do("GET", as.Authorize+"?"+q.Encode(), "", "", map[string]string{"Accept": "text/html"})
	txn, csrf := txnRE.FindStringSubmatch(page), csrfRE.FindStringSubmatch(page)
	cookies := res.Cookies()
	if res.StatusCode != 200 || txn == nil || csrf == nil || len(cookies) != 1 || !cookies[0].Secure {
		t.Fatalf("consent page: %d, cookies %v\n%s", res.StatusCode, cookies, page)
	}
	// The browser posts the form to its action and sends the cookie back
	// only to its path: both must be the page's own, below the public URL's
	// path.
	authorizePath := strings.TrimPrefix(as.Authorize, pub.Scheme+"://"+pub.Host)
	if action := actionRE.FindStringSubmatch(page); action == nil || action[1] != authorizePath || cookies[0].Path != authorizePath {
		t.Fatalf("the consent form posts to %q and its cookie goes back to %q, not to the page, %s", action, cookies[0].Path, authorizePath)
	}
	if !strings.Contains(page, "ChatGPT") || !strings.Contains(page, "chatgpt.com") {
		t.Errorf("the consent page does not name the client and where the browser goes:\n%s", page)
	}
	code, clientID := srv.pairingCode(t, 1)
	if clientID != reg.ClientID {
		t.Fatalf("the pairing code is for %s, ChatGPT registered %s", clientID, reg.ClientID)
	}
	form := url.Values{"txn": {txn[1]}, "csrf": {csrf[1]}, "code": {code}, "action": {"allow"}}
	res, body = gpt.do("POST", as.Authorize, "application/x-www-form-urlencoded", form.Encode(), map[string]string{
		"Origin": formOrigin(res.Header.Get("Referrer-Policy"), public, as.Authorize),
		"Cookie": cookies[0].Name + "=" + cookies[0].Value,
	})
	loc, _ := url.Parse(res.Header.Get("Location"))
	if res.StatusCode != 303 || loc == nil || !strings.HasPrefix(loc.String(), callback+"?") || loc.Query().Get("code") == "" ||
		loc.Query().Get("state") != "oauth_s_42" || loc.Query().Get("iss") != issuer {
		t.Fatalf("consent: %d %v %s", res.StatusCode, loc, body)
	}

	// 6. The code for tokens, the resource echoed (RFC 8707).
	type tokens struct {
		Access    string `json:"access_token"`
		Type      string `json:"token_type"`
		ExpiresIn int    `json:"expires_in"`
		Refresh   string `json:"refresh_token"`
	}
	exchange := func(f url.Values) tokens {
		t.Helper()
		res, body := gpt.do("POST", as.Token, "application/x-www-form-urlencoded", f.Encode(), map[string]string{"Accept": "application/json"})
		var tok tokens
		if res.StatusCode != 200 || json.Unmarshal([]byte(body), &tok) != nil || tok.Access == "" || tok.Refresh == "" ||
			!strings.EqualFold(tok.Type, "Bearer") || tok.ExpiresIn <= 0 {
			t.Fatalf("token (%s): %d %s", f.Get("grant_type"), res.StatusCode, body)
		}
		return tok
	}
	tok := exchange(url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")}, "redirect_uri": {callback},
		"client_id": {reg.ClientID}, "code_verifier": {verifier}, "resource": {prm.Resource}})

	// 7. MCP with the token: initialize, tools/list, a tools/call.
	call := func(access string) {
		t.Helper()
		tr, err := transport.NewStreamableHTTP(prm.Resource, transport.WithHTTPBasicClient(gpt.web),
			transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + access}))
		if err != nil {
			t.Fatal(err)
		}
		c := client.NewClient(tr, client.WithProtocolVersion("2025-06-18"))
		defer c.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		init := mcp.InitializeRequest{}
		init.Params.ProtocolVersion = "2025-06-18"
		init.Params.ClientInfo = mcp.Implementation{Name: "openai-mcp", Version: "1.0.0"}
		if _, err := c.Initialize(ctx, init); err != nil {
			t.Fatalf("initialize with the access token: %v\n%s", err, srv.log)
		}
		list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
		if err != nil || !slices.ContainsFunc(list.Tools, func(tl mcp.Tool) bool { return tl.Name == "read_file" }) {
			t.Fatalf("tools/list: %v", err)
		}
		req := mcp.CallToolRequest{}
		req.Params.Name = "read_file"
		req.Params.Arguments = map[string]any{"path": "a.txt"}
		got, err := c.CallTool(ctx, req)
		if err != nil || got.IsError || !strings.Contains(text(got), "alpha") {
			t.Fatalf("tools/call read_file: %v %+v", err, got)
		}
	}
	call(tok.Access)

	// 8. An hour later: the refresh token for new tokens, the resource
	// echoed again; the new access token works.
	fresh := exchange(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.Refresh},
		"client_id": {reg.ClientID}, "resource": {prm.Resource}})
	call(fresh.Access)

	// 9. The owner revokes ChatGPT: its token is refused with a challenge
	// that sends it back to the metadata.
	juju(t, srv.home, srv.root, "clients", "revoke", reg.ClientID)
	res, body = gpt.do("POST", prm.Resource, "application/json", initBody, merge(mcpHeaders, map[string]string{"Authorization": "Bearer " + fresh.Access}))
	if res.StatusCode != 401 || !strings.Contains(res.Header.Get("WWW-Authenticate"), `resource_metadata="`+prmURL+`"`) {
		t.Fatalf("a revoked ChatGPT's token: %d %q %s", res.StatusCode, res.Header.Get("WWW-Authenticate"), body)
	}
	// ChatGPT keeps its registration and asks again with it: the page
	// tells the owner to have it register anew, which it cannot do itself.
	res, page = gpt.do("GET", as.Authorize+"?"+q.Encode(), "", "", map[string]string{"Accept": "text/html"})
	if res.StatusCode != 400 || !strings.Contains(page, "delete the app) and add it again") {
		t.Fatalf("a revoked ChatGPT's new authorization request: %d\n%s", res.StatusCode, page)
	}
}

// A proxy that serves other things on its host too mounts juju at a path
// (--public-url https://HOST/team/juju): ChatGPT connects to
// https://HOST/team/juju/mcp as it does to a tunnel's root, whether the
// proxy strips the path from what it forwards (Caddy's handle_path) or
// passes it on (nginx's proxy_pass without a URI), the metadata found at
// RFC 8414's and RFC 9728's well-known URLs for an issuer and a resource
// with a path, which the owner routes to juju too. juju once refused any
// path in --public-url.
func TestServeChatGPTThroughProxyPath(t *testing.T) {
	for _, mode := range []struct {
		name  string
		strip bool
	}{{"path stripped", true}, {"path passed on", false}} {
		t.Run(mode.name, func(t *testing.T) {
			const host = "tools.example.org"
			const prefix = "/team/juju"
			root := workspace(t, map[string]string{"a.txt": "alpha\n"})
			srv := startServe(t, root, "--public-url", "https://"+host+prefix+"/")
			mount := func(p string) (string, bool) {
				switch {
				case p == "/.well-known/oauth-authorization-server"+prefix,
					p == "/.well-known/oauth-protected-resource"+prefix+"/mcp":
					return p, true
				case !strings.HasPrefix(p, prefix+"/"):
					return "", false
				case mode.strip:
					return strings.TrimPrefix(p, prefix), true
				}
				return p, true
			}
			gpt := chatgpt{t: t, web: startMountedTunnel(t, srv, host, false, mount)}
			chatgptConnects(t, srv, gpt, "https://"+host+prefix)
		})
	}
}

// An owner who writes the tunnel's address with its default port
// (--public-url https://NAME:443) gets the tunnel's requests, which name
// the host alone, answered, with URLs that name it alone as the client's
// do; the port once made juju refuse its own tunnel.
func TestServePublicURLDefaultPort(t *testing.T) {
	const host = "juju-demo.trycloudflare.com"
	srv := startServe(t, workspace(t, nil), "--public-url", "https://"+host+":443")
	gpt := chatgpt{t: t, web: startTunnel(t, srv, host, false)}
	var prm struct {
		Resource string   `json:"resource"`
		Servers  []string `json:"authorization_servers"`
	}
	gpt.getJSON("https://"+host+"/.well-known/oauth-protected-resource", &prm)
	if prm.Resource != "https://"+host+"/mcp" || len(prm.Servers) != 1 || prm.Servers[0] != "https://"+host {
		t.Fatalf("protected resource metadata %+v", prm)
	}
}
