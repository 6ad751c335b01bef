package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/jujutools/juju/internal/lspconfig"
)

// lspCheck is what doctor reports of the language-server registrations.
type lspCheck struct {
	Servers []lspEntry `json:"servers"`
	Error   string     `json:"error,omitempty"` // lsp.toml does not decode
}

// checkLSP loads the registrations and looks their commands up. A file
// that does not decode is a problem; a command not found is reported, not
// a problem (the server may be installed later), but a language two
// registrations serve is: the second is never started for it.
func (r *doctorReport) checkLSP(env doctorEnv) {
	r.LSP = lspCheck{Servers: []lspEntry{}}
	if env.dirsErr != nil {
		return
	}
	servers, err := lspconfig.Load(env.dirs.Config)
	if err != nil {
		r.LSP.Error = err.Error()
		r.Problems = append(r.Problems, "language servers: "+err.Error())
		return
	}
	for _, s := range servers {
		r.LSP.Servers = append(r.LSP.Servers, newLSPEntry(s))
	}
	for _, msg := range lspconfig.Shadowed(servers) {
		r.Problems = append(r.Problems, "language servers: "+msg)
	}
}

func (r *doctorReport) renderLSP(w io.Writer) {
	fmt.Fprintf(w, "\nLanguage servers\n")
	if r.LSP.Error != "" {
		fmt.Fprintf(w, "  cannot read the registrations: %s\n", r.LSP.Error)
		return
	}
	if len(r.LSP.Servers) == 0 {
		fmt.Fprintf(w, "  none registered: the semantic tools use the heuristic index ('juju lsp add' registers one)\n")
		return
	}
	tw := newTable(w)
	for _, e := range r.LSP.Servers {
		status := "found, " + e.Path
		if !e.Found {
			status = "command not found on PATH: the semantic tools fail for " + strings.Join(e.Languages, ", ")
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", e.Name, strings.Join(e.Languages, ","), strings.Join(e.Command, " "), status)
	}
	tw.Flush()
}
