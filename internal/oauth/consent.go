package oauth

import (
	"html/template"
	"net/http"
	"path/filepath"
)

// The pages the owner sees. html/template escapes everything a client
// chose (its name, its redirect host). No pairing code is ever put in a
// page, a header or a cookie: the owner reads it on juju's terminal.
var pages = template.Must(template.New("consent").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>juju: allow {{.ClientName}}?</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em}
code{background:#eee;padding:0 .2em}.warn{color:#a00}input[name=code]{font:1.4em monospace;width:10em;letter-spacing:.1em}
button{font-size:1em;margin:.5em .5em 0 0}</style></head><body>
<h1>Allow “{{.ClientName}}” to use juju?</h1>
<p>An application that calls itself <b>{{.ClientName}}</b> asks to use juju on this machine.
After you decide, your browser goes to <b>{{.RedirectHost}}</b>: if that is not the application you are connecting, deny.</p>
<p>It would get the tools of a coding agent — read, search, edit files and run commands — on
{{range $i, $r := .Roots}}{{if $i}}, {{end}}<code>{{$r}}</code>{{end}}, in <b>{{.Mode}}</b> mode{{if .ModeNote}} ({{.ModeNote}}){{end}},
until you revoke it with <code>juju clients revoke {{.ClientID}}</code>.</p>
<form method="post" action="{{.Action}}">
<input type="hidden" name="txn" value="{{.Txn}}"><input type="hidden" name="csrf" value="{{.CSRF}}">
<p><label>Type the pairing code that <code>juju serve</code> just printed in its terminal:<br>
<input name="code" autocomplete="off" autocapitalize="characters" spellcheck="false" autofocus></label></p>
{{if .Error}}<p class="warn">{{.Error}}</p>{{end}}
<button name="action" value="allow">Allow</button><button name="action" value="deny">Deny</button>
</form></body></html>
{{define "error"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>juju: authorization refused</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em}</style></head><body>
<h1>juju did not authorize this request</h1><p>{{.}}</p></body></html>{{end}}`))

// consentPage is what the consent page shows.
type consentPage struct {
	ClientName, ClientID, RedirectHost string
	Roots                              []string
	Mode, ModeNote                     string
	Txn, CSRF                          string
	Error                              string
	Action                             string // the authorization endpoint's path, as the browser reaches it
}

// modeNotes say what each trust mode means for the owner.
var modeNotes = map[string]string{
	"inspect": "every edit and command waits for your approval",
	"edit":    "edits apply at once and can be rolled back; commands wait for your approval",
	"trusted": "nothing waits for your approval",
}

// pageHeaders keep the pages from being framed, cached, or leaking their
// address to another site.
//
// The referrer policy is same-origin, not no-referrer: under the Fetch
// standard a browser sends "Origin: null" with the POST of a form on a
// no-referrer page, and juju's HTTP front refuses that Origin (DNS
// rebinding protection), so the owner could never allow anyone. Under
// same-origin the consent form's POST carries the page's own origin, and
// the redirect to the client, on another site, carries no Referer.
func pageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
}

// showConsent renders the consent page of c.
func (s *Server) showConsent(w http.ResponseWriter, c *consent, status int, msg string) {
	pageHeaders(w)
	w.WriteHeader(status)
	roots := make([]string, len(s.cfg.Roots))
	for i, r := range s.cfg.Roots {
		// The page may be reached through a public tunnel: it names the
		// folders, and the terminal shows their full paths.
		roots[i] = filepath.Base(r)
	}
	pages.Execute(w, consentPage{
		ClientName: c.clientName, ClientID: c.clientID, RedirectHost: redirectHost(c.redirect),
		Roots: roots, Mode: s.cfg.Mode, ModeNote: modeNotes[s.cfg.Mode],
		Txn: c.txn, CSRF: c.csrf, Error: msg, Action: basePath(c.issuer) + PathAuthorize,
	})
}

// errorPage answers with a page explaining a refusal, never a redirect.
func errorPage(w http.ResponseWriter, status int, msg string) {
	pageHeaders(w)
	w.WriteHeader(status)
	pages.ExecuteTemplate(w, "error", msg)
}
