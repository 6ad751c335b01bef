package semantic

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// GetDiagnosticsArgs are the arguments of get_diagnostics.
type GetDiagnosticsArgs struct {
	Path       string `json:"path,omitempty" desc:"The source file to check. Left out: every file the language servers have open (those the semantic tools were asked about)."`
	Severity   string `json:"severity,omitempty" enum:"error,warning,information,hint" default:"hint" desc:"The least severity to list: error lists errors only, warning errors and warnings, …"`
	MaxResults int    `json:"maxResults,omitempty" default:"200" min:"1" max:"1000" desc:"The most diagnostics to return; the result says when more exist."`
}

// Diagnostic is one problem a language server reports.
type Diagnostic struct {
	Path      string `json:"path" desc:"The file, relative to the first root."`
	Severity  string `json:"severity" enum:"error,warning,information,hint" desc:"How serious it is."`
	Code      string `json:"code,omitempty" desc:"The server's code for it."`
	Source    string `json:"source,omitempty" desc:"What reported it (compiler, a linter …)."`
	Message   string `json:"message" desc:"What is wrong."`
	Line      int    `json:"line" desc:"1-based line where it starts."`
	Column    int    `json:"column" desc:"1-based column where it starts, in code points."`
	EndLine   int    `json:"endLine" desc:"1-based line where it ends."`
	EndColumn int    `json:"endColumn" desc:"1-based column just past its end."`
}

// DiagnosticsResult is the structured content of get_diagnostics.
type DiagnosticsResult struct {
	Source      string       `json:"source" enum:"lsp" desc:"Always lsp: diagnostics come from language servers only."`
	Server      string       `json:"server,omitempty" desc:"The language servers that answered."`
	Pulled      bool         `json:"pulled,omitempty" desc:"The server was asked for them (textDocument/diagnostic) rather than having pushed them."`
	Diagnostics []Diagnostic `json:"diagnostics" jsonschema:"required" desc:"The diagnostics, by file and position."`
	Errors      int          `json:"errors" desc:"How many errors are listed."`
	Warnings    int          `json:"warnings" desc:"How many warnings are listed."`
	Truncated   bool         `json:"truncated,omitempty" desc:"More diagnostics exist than are listed."`
	Unsettled   []string     `json:"unsettled,omitempty" desc:"Files the server had not reported on, as they are now, when juju stopped waiting: their diagnostics may be missing or out of date; ask again in a moment."`
	Note        string       `json:"note,omitempty" desc:"What to know about this answer."`
}

func init() {
	juju.Tool("get_diagnostics", juju.ReadTool("Get diagnostics",
		"Lists the errors and warnings a language server reports for a source file (compile errors, type errors, lint findings): severity, code, message and range "+
			"(1-based lines, columns in code points). Current after edits made through juju. Without path, lists those of every file the servers have open. "+
			"Needs a language server registered for the file's language; without one it says how the owner can register one.",
		DiagnosticsResult{}), getDiagnostics)
}

var severityRank = map[string]int{"error": 1, "warning": 2, "information": 3, "hint": 4}

func getDiagnostics(_ *juju.Call, in GetDiagnosticsArgs) (*juju.Result, error) {
	res, err := lspCall(abi.LSPRequest{Op: abi.LSPDiagnostics, Path: in.Path})
	if err != nil {
		return nil, err
	}
	if res.Unregistered {
		return nil, juju.Errorf(abi.NotFound, "diagnostics come only from a language server, and %s", lowerFirst(registerHint(res.Language)))
	}
	least := severityRank[in.Severity]
	if least == 0 {
		least = 4
	}
	out := &DiagnosticsResult{Source: sourceLSP, Server: res.Server, Pulled: res.Pulled, Diagnostics: []Diagnostic{}, Truncated: res.Truncated}
	for _, d := range res.Diagnostics {
		if severityRank[d.Severity] > least {
			continue
		}
		if len(out.Diagnostics) >= in.MaxResults {
			out.Truncated = true
			break
		}
		out.Diagnostics = append(out.Diagnostics, Diagnostic(d))
	}
	if out.fit() {
		out.Truncated = true
	}
	if in.Path == "" && res.Server == "" {
		out.Note = "no language server is running yet: pass path to check a file (its server starts then)"
	}
	out.Note = joinNotes(out.Note, unsettledNote(res.Unsettled))
	for _, u := range res.Unsettled {
		out.Unsettled = append(out.Unsettled, u.Path)
	}
	what := "in " + juju.PathText(in.Path)
	if in.Path == "" {
		what = "in the open files"
	}
	return juju.Text(diagnosticsText(what, out)).WithStructured(out), nil
}

// diagnosticsText counts out's errors and warnings, then writes the lines
// that fit the text's cap and a summary that says how many it shows.
func diagnosticsText(what string, out *DiagnosticsResult) string {
	for _, d := range out.Diagnostics {
		switch d.Severity {
		case "error":
			out.Errors++
		case "warning":
			out.Warnings++
		}
	}
	var b textBuilder
	shown := 0
	for _, d := range out.Diagnostics {
		code := ""
		if d.Code != "" {
			code = " [" + d.Code + "]"
		}
		if !b.add(position(d.Path, d.Line, d.Column) + ": " + d.Severity + code + ": " + oneLine(d.Message)) {
			break
		}
		shown++
	}
	server := ""
	if out.Server != "" {
		server = " (language server " + out.Server + ")"
	}
	if len(out.Diagnostics) == 0 {
		b.WriteString("No diagnostics " + what + server + ".\n")
	} else {
		s := fmt.Sprintf("[%d %s, %d %s %s%s; %d listed", out.Errors, plural(out.Errors, "error", "errors"), out.Warnings, plural(out.Warnings, "warning", "warnings"), what, server, shown)
		switch {
		case shown < len(out.Diagnostics):
			s += fmt.Sprintf("; %d more not shown: narrow with path or severity", len(out.Diagnostics)-shown)
		case out.Truncated:
			s += "; more exist, not listed: raise maxResults or narrow severity"
		}
		b.WriteString(s + "]\n")
	}
	if out.Note != "" {
		b.WriteString("Note: " + out.Note + "\n")
	}
	return b.String()
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]|0x20) + s[1:]
}

// unsettledNote says which files the server had not reported on in time:
// for those it sent nothing about, an empty list is no verdict.
func unsettledNote(list []abi.LSPUnsettled) string {
	var silent, older []string
	for _, u := range list {
		if u.Silent {
			silent = append(silent, juju.PathText(u.Path))
		} else {
			older = append(older, juju.PathText(u.Path))
		}
	}
	var notes []string
	if len(silent) > 0 {
		notes = append(notes, "the language server sent no diagnostics for "+strings.Join(silent, ", ")+" before juju stopped waiting, so none listed for them does not mean they are clean: it may still be loading the project; ask again in a moment")
	}
	if len(older) > 0 {
		notes = append(notes, "the diagnostics of "+strings.Join(older, ", ")+" are from before the latest change: the server had not reported on the current text before juju stopped waiting; ask again in a moment")
	}
	return strings.Join(notes, "; ")
}

func joinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}
