package main

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/jujutools/juju/internal/config"
)

// cliDoc is the CLI reference this test keeps true to the code.
const cliDoc = "../../docs/CLI.md"

// headingRE matches a command's heading in the reference: "## juju tools".
var headingRE = regexp.MustCompile("(?m)^(#{2,3}) (juju(?: [a-z-]+)*)$")

// commands walks the command tree, leaving out cobra's help command.
func commands(c *cobra.Command) []*cobra.Command {
	c.InitDefaultHelpFlag() // cobra adds --help when a command runs
	var out []*cobra.Command
	if c.IsAvailableCommand() || !c.HasParent() {
		out = append(out, c)
	}
	for _, sub := range c.Commands() {
		if sub.Name() != "help" {
			out = append(out, commands(sub)...)
		}
	}
	return out
}

// sections maps each "juju …" heading of the reference to its text, up to
// the next heading of the same or a higher level.
func sections(doc string) map[string]string {
	out := map[string]string{}
	matches := headingRE.FindAllStringSubmatchIndex(doc, -1)
	for i, m := range matches {
		level := m[3] - m[2]
		end := len(doc)
		for _, n := range matches[i+1:] {
			if n[3]-n[2] <= level {
				end = n[0]
				break
			}
		}
		if next := regexp.MustCompile(`(?m)^#{1,2} `).FindStringIndex(doc[m[1]:]); next != nil && m[1]+next[0] < end {
			end = m[1] + next[0]
		}
		out[doc[m[4]:m[5]]] = doc[m[1]:end]
	}
	return out
}

// TestCLIDocCoversCommands checks docs/CLI.md against the command tree:
// every command has a section naming each of its flags, and every section
// is a command that exists.
func TestCLIDocCoversCommands(t *testing.T) {
	data, err := os.ReadFile(cliDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	secs := sections(doc)
	root := newRootCommand()
	var paths []string
	for _, c := range commands(root) {
		path := c.CommandPath()
		paths = append(paths, path)
		if !c.HasParent() {
			continue // the introduction covers juju itself
		}
		sec, ok := secs[path]
		if !ok {
			t.Errorf("docs/CLI.md has no section %q", "## "+path)
			continue
		}
		if !strings.Contains(doc, "`"+path+"`") {
			t.Errorf("docs/CLI.md does not list `%s` in its table of commands", path)
		}
		c.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "help" && !strings.Contains(sec, "`--"+f.Name) {
				t.Errorf("section %q does not document --%s", path, f.Name)
			}
			// A flag that takes a value names it as the reference does
			// (--sha256 HEX), not by its Go type (--sha256 string).
			if name, _ := pflag.UnquoteUsage(f); name != "" && f.Name != "help" && !strings.Contains(sec, "--"+f.Name+" "+name) {
				t.Errorf("%s --help shows --%s %s, which section %q does not name", path, f.Name, name, path)
			}
		})
	}
	for path := range secs {
		if !slices.Contains(paths, path) {
			t.Errorf("docs/CLI.md documents %q, which is no command", path)
		}
	}
	for _, flag := range regexp.MustCompile("`(--[a-z0-9-]+)").FindAllStringSubmatch(doc, -1) {
		found := false
		for _, c := range commands(root) {
			if c.Flags().Lookup(strings.TrimPrefix(flag[1], "--")) != nil {
				found = true
			}
		}
		if !found {
			t.Errorf("docs/CLI.md names %s, which no command has", flag[1])
		}
	}
}

// TestCLIDocConfigExample decodes the reference's config example strictly
// and checks that it sets every key and that the key table lists them all.
func TestCLIDocConfigExample(t *testing.T) {
	data, err := os.ReadFile(cliDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	_, rest, ok := strings.Cut(doc, "## The config file")
	if !ok {
		t.Fatal("docs/CLI.md has no config file section")
	}
	m := regexp.MustCompile("(?s)```toml\n(.*?)```").FindStringSubmatch(rest)
	if m == nil {
		t.Fatal("no TOML example in the config file section")
	}
	f, err := config.Decode("CLI.md", []byte(m[1]))
	if err != nil {
		t.Fatalf("the example does not decode: %v", err)
	}
	checkAllSet(t, reflect.ValueOf(*f), "")
	// The error shown is the one juju gives for that file.
	errLine := regexp.MustCompile(`(?m)^juju: (/home/me/\.config/juju/config\.toml):3: (.*)$`).FindStringSubmatch(rest)
	if errLine == nil {
		t.Fatal("no error example in the config file section")
	}
	_, err = config.Decode(errLine[1], []byte("mode = \"edit\"\nsandbox = \"prefer\"\npolcy = 1\n"))
	if want := "juju: " + errLine[1] + ":3: " + errLine[2]; err == nil || "juju: "+err.Error() != want {
		t.Errorf("the reference's error example:\n%s\njuju says:\njuju: %v", want, err)
	}
	for _, key := range []string{"mode", "sandbox", "allowWebFetch", "policy.deny", "policy.secrets", "fetch.allow", "exec.backgroundAfterMs"} {
		if !strings.Contains(rest, "| `"+key+"` |") {
			t.Errorf("the key table has no row for %s", key)
		}
	}
}

// checkAllSet fails for every field of the decoded example left unset, so a
// key added to config.File must be added to the example too.
func checkAllSet(t *testing.T, v reflect.Value, prefix string) {
	for i := range v.NumField() {
		f, field := v.Field(i), v.Type().Field(i)
		tag, _, _ := strings.Cut(field.Tag.Get("toml"), ",")
		if tag == "" || tag == "-" {
			continue
		}
		switch {
		case f.Kind() == reflect.Struct:
			checkAllSet(t, f, prefix+tag+".")
		case f.IsZero():
			t.Errorf("the config example does not set %s%s", prefix, tag)
		}
	}
}
