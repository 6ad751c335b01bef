package host

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/journal"
	"github.com/jujutools/juju/internal/journal/text"
	"github.com/jujutools/juju/internal/visible"
	"github.com/jujutools/juju/sandbox"
	"github.com/jujutools/juju/sdk/abi"
)

// What the owner is told a call will do, before its arguments: the
// arguments say what the model asked for, and for apply_changes only a
// plan id, so the owner would approve blind. juju writes this text itself,
// from the arguments and, for a plan, from the journal; every name and
// string in it goes through internal/visible (a file name with a newline,
// a terminal escape or a bidi control cannot make it read as something
// else), and it is bounded: whatLines lines, each name or command cut at
// whatName or whatCommand characters, saying so.
const (
	whatLines   = 20   // paths listed for a plan
	whatName    = 200  // characters of one rendered path
	whatCommand = 1000 // characters of one rendered command line
)

// coreTools are the plugins whose tools juju describes: its own.
const (
	corePlugin     = "core"
	coreExecPlugin = "core-exec"
)

// describe returns what the call c with args will do, for the owner: ""
// for a tool juju does not describe (the arguments are all there is to
// show).
func (h *Host) describe(c hostfns.Caller, args []byte) string {
	// The plugin decodes its arguments with exact keys, the last of a
	// repeated key winning: so does a map.
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return ""
	}
	str := func(k string) string {
		var s string
		json.Unmarshal(m[k], &s)
		return s
	}
	flag := func(k string) bool {
		var b bool
		json.Unmarshal(m[k], &b)
		return b
	}
	switch c.Plugin + "/" + c.Tool {
	case corePlugin + "/apply_changes":
		return h.describePlan(c, str("planId"))
	case corePlugin + "/write_file":
		content := str("content")
		return fmt.Sprintf("writes %s%s: its whole content becomes %s (created if missing, replaced if there).", name(str("path")), h.through(str("path")), size(content))
	case corePlugin + "/edit_file":
		every := "one occurrence of"
		if flag("replaceAll") {
			every = "every occurrence of"
		}
		return fmt.Sprintf("edits %s%s: replaces %s a text of %s by a text of %s.", name(str("path")), h.through(str("path")), every, size(str("oldString")), size(str("newString")))
	case corePlugin + "/delete_path":
		if flag("recursive") {
			return fmt.Sprintf("deletes %s, and everything inside if it is a folder.", name(str("path")))
		}
		return fmt.Sprintf("deletes %s (a file, a link or an empty folder).", name(str("path")))
	case corePlugin + "/move_path":
		over := ""
		if flag("overwrite") {
			over = ", replacing a file there"
		}
		return fmt.Sprintf("moves %s to %s%s.", name(str("path")), name(str("destination")), over)
	case corePlugin + "/apply_patch":
		return describePatch(str("patch"), flag("dryRun"))
	case corePlugin + "/rollback_changes":
		return h.describeRollback(str("changeId"), str("scope"), flag("force"))
	case corePlugin + "/preview_changes":
		var ops []json.RawMessage
		json.Unmarshal(m["operations"], &ops)
		patch := ""
		if str("patch") != "" {
			patch = " and a patch"
		}
		return fmt.Sprintf("makes a plan of %d operation(s)%s, writing nothing: applying it is a call of its own (apply_changes), asked about with every path it touches.", len(ops), patch)
	case corePlugin + "/discard_changes":
		return h.describeDiscard(c, str("planId"))
	case corePlugin + "/replace_in_files":
		_, given := m["dryRun"]
		return h.describeReplace(str("oldString"), str("newString"), str("fileGlob"), str("path"), given && !flag("dryRun"), m["expectedCount"])
	case corePlugin + "/make_directory":
		return fmt.Sprintf("makes the folder %s.", name(str("path")))
	case coreExecPlugin + "/run_command":
		return fmt.Sprintf("runs the shell command line %s with bash -c, in %s; %s.", command(str("command")), h.cwd(str("cwd")), h.confinement(flag("sandbox"), flag("network")))
	case coreExecPlugin + "/exec_command":
		var argv []string
		json.Unmarshal(m["args"], &argv)
		argv = append([]string{str("program")}, argv...)
		quoted := make([]string, len(argv))
		for i, a := range argv {
			quoted[i] = visible.Quote(a)
		}
		return fmt.Sprintf("runs the program with the argument list [%s] (no shell), in %s; %s.", clip(strings.Join(quoted, " "), whatCommand), h.cwd(str("cwd")), h.confinement(flag("sandbox"), flag("network")))
	case coreExecPlugin + "/git_commit":
		return h.describeCommit(str("message"), m["paths"], flag("all"), str("cwd"))
	case coreExecPlugin + "/cancel_job":
		return fmt.Sprintf("stops the background job %s and every process it started; what it wrote stays readable with job_output.", name(str("jobId")))
	case coreExecPlugin + "/run_commands":
		var lines []string
		json.Unmarshal(m["commands"], &lines)
		var b strings.Builder
		fmt.Fprintf(&b, "runs %d shell command line(s) at once, each with bash -c, in %s; %s:", len(lines), h.cwd(str("cwd")), h.confinement(flag("sandbox"), flag("network")))
		for i, l := range lines {
			fmt.Fprintf(&b, "\n  %d. %s", i+1, command(l))
		}
		return b.String()
	}
	return ""
}

// describePlan says what applying plan id will do: each path it touches
// (up to whatLines) with the lines it adds and removes.
func (h *Host) describePlan(c hostfns.Caller, id string) string {
	by := journal.Author{Client: c.Client, Principal: c.Principal, Plugin: c.Plugin, Tool: c.Tool, CallID: c.CallID}
	pv, e := h.ws.Journal.ViewPlan(by, id)
	switch {
	case e != nil && e.Code == abi.NotFound:
		return fmt.Sprintf("applies plan %s, which this client does not have (applied, discarded, expired or never made): the call will fail (NOT_FOUND) and change nothing.", name(id))
	case e != nil:
		return fmt.Sprintf("applies plan %s, which juju could not read to show you (%s %s): do not approve a change you have not seen; deny it, and have the client call again.", name(id), e.Code, clip(visible.String(e.Message), whatCommand))
	}
	added, removed := 0, 0
	for _, f := range pv.Files {
		added += f.Added
		removed += f.Removed
	}
	var b strings.Builder
	fmt.Fprintf(&b, "applies plan %s: %d path(s), +%d -%d lines in all:", pv.ID, len(pv.Files), added, removed)
	for i, f := range pv.Files {
		if i == whatLines {
			fmt.Fprintf(&b, "\n  … and %d more path(s) (preview_changes listed them all)", len(pv.Files)-i)
			break
		}
		fmt.Fprintf(&b, "\n  %s %s +%d -%d", f.Action, name(f.Path), f.Added, f.Removed)
	}
	return b.String()
}

// describeDiscard says what discarding plan id will do: forget it,
// writing nothing, and which paths it would have changed.
func (h *Host) describeDiscard(c hostfns.Caller, id string) string {
	by := journal.Author{Client: c.Client, Principal: c.Principal, Plugin: c.Plugin, Tool: c.Tool, CallID: c.CallID}
	pv, e := h.ws.Journal.ViewPlan(by, id)
	if e != nil {
		return fmt.Sprintf("discards plan %s, which this client does not have (applied, discarded, expired or never made): the call will fail and change nothing.", name(id))
	}
	paths := make([]string, 0, min(len(pv.Files), whatLines))
	for i, f := range pv.Files {
		if i == whatLines {
			paths = append(paths, fmt.Sprintf("… and %d more", len(pv.Files)-i))
			break
		}
		paths = append(paths, name(f.Path))
	}
	return fmt.Sprintf("discards plan %s, writing nothing: its %d path(s) (%s) stay as they are.", pv.ID, len(pv.Files), strings.Join(paths, ", "))
}

// describeReplace says what replace_in_files will do: the literal texts,
// which files, and whether it writes (dryRun is its default) and how many
// replacements it must find. Which files match is known only as it runs.
func (h *Host) describeReplace(from, to, glob, dir string, writes bool, expected json.RawMessage) string {
	where := "the first root"
	if dir != "" {
		where = name(dir)
	}
	texts := fmt.Sprintf("the literal text %s (%s) by %s (%s) in the files matching %s under %s (.gitignored files skipped)",
		clip(visible.Quote(from), whatName), size(from), clip(visible.Quote(to), whatName), size(to), name(glob), where)
	if !writes {
		return "shows, writing nothing (dryRun), where it would replace " + texts + "."
	}
	count := "; with no expectedCount it writes however many it finds, in files known only as it runs"
	var n int64
	if json.Unmarshal(expected, &n) == nil && expected != nil {
		count = fmt.Sprintf("; it writes only if it finds exactly %d replacement(s), as its dry run showed (otherwise CONFLICT, nothing written)", n)
	}
	return "replaces every occurrence of " + texts + count + "."
}

// describeCommit says what git_commit will do: which files it stages and
// commits, with what message, and that the repository's hooks and
// filters run, confined as a command is under the owner's setting.
func (h *Host) describeCommit(message string, rawPaths json.RawMessage, all bool, cwd string) string {
	var paths []string
	json.Unmarshal(rawPaths, &paths)
	var what string
	switch {
	case all && len(paths) > 0:
		return "commits, but gives both paths and all: the call will fail (INVALID_ARGUMENT) and change nothing."
	case all:
		what = "stages and commits every changed file the model can see (secrets and denied paths are never staged)"
	case len(paths) > 0:
		shown := make([]string, 0, min(len(paths), whatLines))
		for i, p := range paths {
			if i == whatLines {
				shown = append(shown, fmt.Sprintf("… and %d more", len(paths)-i))
				break
			}
			shown = append(shown, name(p))
		}
		what = fmt.Sprintf("stages and commits %d file(s): %s (other staged changes stay staged, uncommitted)", len(paths), strings.Join(shown, ", "))
	default:
		what = "commits what is already staged"
	}
	first, _, _ := strings.Cut(message, "\n")
	lines := strings.Count(strings.TrimRight(message, "\n"), "\n") + 1
	return fmt.Sprintf("%s in the repository at %s, with the message %s (%d line(s)); the repository's hooks and filters run as a command would: %s.",
		what, h.cwd(cwd), clip(visible.Quote(first), whatName), lines, h.confinement(false, false))
}

// describePatch says what applying patch will do: each file it creates,
// deletes, renames or edits (up to whatLines) with the lines it adds and
// removes, read as apply_patch reads it.
func describePatch(patch string, dryRun bool) string {
	files, e := text.ParsePatch(patch)
	if e != nil {
		return fmt.Sprintf("applies a patch juju cannot read (%s %s): the call will fail and change nothing.", e.Code, clip(visible.String(e.Message), whatCommand))
	}
	verb := "applies"
	if dryRun {
		verb = "checks, writing nothing (dryRun),"
	}
	added, removed := 0, 0
	for _, f := range files {
		for _, h := range f.Hunks {
			added += len(h.NewLines)
			removed += len(h.OldLines)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s a patch of %d file(s), +%d -%d lines in all:", verb, len(files), added, removed)
	for i, f := range files {
		if i == whatLines {
			fmt.Fprintf(&b, "\n  … and %d more file(s)", len(files)-i)
			break
		}
		a, r := 0, 0
		for _, h := range f.Hunks {
			a += len(h.NewLines)
			r += len(h.OldLines)
		}
		switch {
		case f.Old == "":
			fmt.Fprintf(&b, "\n  creates %s +%d", name(f.New), a)
		case f.New == "":
			fmt.Fprintf(&b, "\n  deletes %s -%d", name(f.Old), r)
		case f.Old != f.New:
			fmt.Fprintf(&b, "\n  moves %s to %s +%d -%d", name(f.Old), name(f.New), a, r)
		default:
			fmt.Fprintf(&b, "\n  edits %s +%d -%d", name(f.New), a, r)
		}
	}
	return b.String()
}

// describeRollback says what rolling back change id in scope will undo:
// the changes and the paths they wrote (up to whatLines paths).
func (h *Host) describeRollback(id, scope string, force bool) string {
	over := "; a file changed since any of them makes it fail with CONFLICT"
	if force {
		over = "; force: files changed since, by hand or by later changes, are overwritten"
	}
	c, err := h.ws.Journal.Change(id)
	if err != nil {
		return fmt.Sprintf("rolls back change %s, which juju could not find (%s): the call will fail and change nothing.", name(id), clip(visible.String(err.Error()), whatCommand))
	}
	undone := []journal.ChangeSummary{c.ChangeSummary}
	if scope == "since" || scope == "after" {
		later, err := h.ws.Journal.Changes(c.Time)
		if err != nil {
			return fmt.Sprintf("rolls back the changes %s %s, which juju could not list to show you (%s): do not approve a change you have not seen; deny it, and have the client call again.", scope, name(c.ID), clip(visible.String(err.Error()), whatCommand))
		}
		undone = undone[:0]
		if scope == "since" {
			undone = append(undone, c.ChangeSummary)
		}
		for _, l := range later {
			if l.ID > c.ID && !l.RolledBack {
				undone = append(undone, l)
			}
		}
	}
	var b strings.Builder
	switch scope {
	case "since":
		fmt.Fprintf(&b, "undoes change %s and every later one: %d change(s)%s:", c.ID, len(undone), over)
	case "after":
		fmt.Fprintf(&b, "undoes every change after %s, keeping it: %d change(s)%s:", c.ID, len(undone), over)
	default:
		fmt.Fprintf(&b, "undoes change %s%s:", c.ID, over)
	}
	shown := 0
	for _, u := range undone {
		for _, p := range u.Paths {
			if shown == whatLines {
				b.WriteString("\n  … and more (change_history lists them all)")
				return b.String()
			}
			shown++
			fmt.Fprintf(&b, "\n  %s by %s: restores %s", u.ID, name(u.Tool), name(p))
		}
	}
	return b.String()
}

// through says where a write to p lands when links lead elsewhere: a
// write goes through a symlink to its target, so a hostile repository's
// README.md that links to its Makefile would have the owner approve a
// change to the Makefile while reading README.md. "" when p is what it
// names, or does not exist yet.
func (h *Host) through(p string) string {
	r, e := h.policy.Resolve(p)
	switch {
	case e != nil:
		return ""
	case r.Link != "":
		return ", a link to " + name(r.Link) + ", which is the file that changes"
	case !filepath.IsAbs(p) && r.Display != filepath.ToSlash(filepath.Clean(p)):
		return ", which is " + name(r.Display) + " once links are followed, the file that changes"
	}
	return ""
}

// name renders a path the owner reads: quoted, every character visible,
// cut at whatName characters.
func name(p string) string {
	return clip(visible.Quote(p), whatName)
}

// command renders a command line: quoted, every character visible, cut at
// whatCommand characters (the arguments below show it whole).
func command(s string) string {
	return clip(visible.Quote(s), whatCommand)
}

// clip cuts a rendering at n characters, saying how many more there are.
func clip(rendered string, n int) string {
	shown, left := visible.Clip(rendered, n)
	if left > 0 {
		shown += fmt.Sprintf(" (%d more characters: see the arguments in full)", left)
	}
	return shown
}

// size says how long a text is, in bytes and lines.
func size(s string) string {
	lines := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		lines++
	}
	if !utf8.ValidString(s) {
		return fmt.Sprintf("%s (%s, not all UTF-8)", quantity(len(s), "byte"), quantity(lines, "line"))
	}
	return fmt.Sprintf("%s (%s)", quantity(len(s), "byte"), quantity(lines, "line"))
}

// quantity is "1 line", "2 lines", "0 lines".
func quantity(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// cwd names the folder a command runs in.
func (h *Host) cwd(dir string) string {
	if dir != "" {
		return name(dir)
	}
	if roots := h.policy.Roots(); len(roots) > 0 {
		return "the first root, " + name(roots[0].Path)
	}
	return "the first root"
}

// detectSandbox is the sandbox as this process finds it, looked for once.
var detectSandbox = sync.OnceValue(func() error {
	_, err := sandbox.NewDefault().Available()
	return err
})

// confinement says whether a command runs in the sandbox and reaches the
// network, as the exec host functions decide it (hostfns/exec confine):
// asked is the call's sandbox argument, network its network argument.
func (h *Host) confinement(asked, network bool) string {
	net := "network denied"
	if network {
		net = "network allowed"
	}
	mode := h.cfg.Sandbox
	switch {
	case !asked && (mode == "" || mode == sandbox.Off):
		return "sandbox OFF (the setting is off): it runs with your rights, may write wherever you can and reach the network"
	case detectSandbox() != nil && (asked || mode == sandbox.Require):
		return "in the sandbox, which does not work here: it will be refused (SANDBOX_UNAVAILABLE) and not run"
	case detectSandbox() != nil:
		return "sandbox OFF (the setting is prefer, and no sandbox works here): it runs with your rights, may write wherever you can and reach the network"
	}
	return "in the sandbox (writes only inside the workspace roots, the package caches and a private /tmp), " + net
}
