package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

// Arguments that do not fit a tool's input schema are answered as a tool
// result, INVALID_ARGUMENT with a message naming each argument at fault
// and what it should be (MCP 2025-11-25, SEP-1303): clients show tool
// results to the model, which can correct its call, while most never show
// it a JSON-RPC error. This is the check whose message the model reads:
// the SDK in the plugin checks the same tags again, for hosts that do not
// check, and under juju never fails (RATIONALE, "Bad arguments are tool
// results, checked by the host").

// inputSchema is a tool's input schema, compiled on the tool's first call,
// with the outline of its properties that messages are written from.
type inputSchema struct {
	raw      []byte
	once     sync.Once
	compiled *jsonschema.Schema
	outline  *outline
	err      error
}

func (s *inputSchema) get(name string) (*jsonschema.Schema, *outline, error) {
	s.once.Do(func() {
		s.compiled, s.err = manifest.CompileSchema(name+".input.json", s.raw)
		s.outline = outlineOf(s.raw)
	})
	return s.compiled, s.outline, s.err
}

// check validates a call's arguments: nil when they fit.
func (s *inputSchema) check(tool string, args any) *abi.Error {
	sch, o, err := s.get(tool)
	if err != nil {
		return abi.Errorf(abi.Internal, "the input schema of %s does not compile, so it cannot be called; tell the author of its plugin", tool)
	}
	if countValues(args, maxArgumentValues) > maxArgumentValues {
		return abi.Errorf(abi.InvalidArgument, "the arguments of %s hold more than %d JSON values (each item of an array counts); no tool takes that many. Send fewer at once and call again", tool, maxArgumentValues)
	}
	if !manifest.WithinCost(sch, args, manifest.MaxEvaluations) {
		return abi.Errorf(abi.InvalidArgument, "checking the arguments of %s against its input schema would apply it more than %d times, past what juju checks; send less deeply nested values and call again", tool, manifest.MaxEvaluations)
	}
	err = sch.Validate(args)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return abi.Errorf(abi.InvalidArgument, "the arguments of %s could not be checked: %v", tool, err)
	}
	return abi.Errorf(abi.InvalidArgument, "%s", argumentsMessage(tool, o, ve))
}

// maxArgumentValues bounds the JSON values a call's arguments hold before
// they are checked against the schema: the check builds an error for each
// item that does not fit, and an array of 3 million numbers where strings
// belong (6 MB, within the 16 MiB a message may be) cost 4 minutes of CPU
// and 1.2 GB. No tool takes anywhere near this many; a file's content is
// one value.
const maxArgumentValues = 100_000

// countValues counts the JSON values in v, itself included, stopping past
// limit.
func countValues(v any, limit int) int {
	n := 1
	switch t := v.(type) {
	case []any:
		for _, x := range t {
			if n += countValues(x, limit-n); n > limit {
				return n
			}
		}
	case map[string]any:
		for _, x := range t {
			if n += countValues(x, limit-n); n > limit {
				return n
			}
		}
	}
	return n
}

// maxProblems is how many problems one message names.
const maxProblems = 4

// argumentsMessage says what is wrong with a call's arguments: each
// problem (unknown names first, they often explain a missing one), then
// how to retry.
func argumentsMessage(tool string, o *outline, ve *jsonschema.ValidationError) string {
	var leaves []*jsonschema.ValidationError
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e)
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	slices.SortStableFunc(leaves, func(a, b *jsonschema.ValidationError) int {
		_, ua := a.ErrorKind.(*kind.AdditionalProperties)
		_, ub := b.ErrorKind.(*kind.AdditionalProperties)
		switch {
		case ua && !ub:
			return -1
		case ub && !ua:
			return 1
		}
		return 0
	})
	// A call may hold a problem per item of a long array: a set keeps
	// finding the distinct ones linear (a list made 100,000 nulls cost
	// minutes).
	var parts []string
	seen := make(map[string]bool)
	for _, e := range leaves {
		if p := problem(tool, o, e); !seen[p] {
			seen[p] = true
			parts = append(parts, p)
		}
	}
	if len(parts) > maxProblems {
		parts = append(parts[:maxProblems], fmt.Sprintf("and %d more", len(parts)-maxProblems))
	}
	return "the arguments do not fit the input schema of " + tool + ": " + strings.Join(parts, "; ") + ". Correct them and call again"
}

var english = message.NewPrinter(language.English)

// problem describes one validation failure.
func problem(tool string, o *outline, e *jsonschema.ValidationError) string {
	at := argPath(e.InstanceLocation)
	node := o.at(e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		var known []string
		if node != nil {
			known = node.names
		}
		var out []string
		for i, p := range slices.Sorted(slices.Values(k.Properties)) {
			if i == maxUnknownNames {
				out = append(out, fmt.Sprintf("and %d more unknown", len(k.Properties)-i))
				break
			}
			s := "unknown argument " + strconv.Quote(joinPath(at, abi.Cut(p, maxNameBytes)))
			if near := nearest(p, known); near != "" {
				s += fmt.Sprintf(" (did you mean %q?)", near)
			}
			out = append(out, s)
		}
		takes := tool + " takes"
		if at != "" {
			takes = strconv.Quote(at) + " takes"
		}
		switch {
		case len(known) > 0:
			return strings.Join(out, ", ") + "; " + takes + " only: " + strings.Join(known, ", ")
		case node != nil:
			return strings.Join(out, ", ") + "; " + takes + " no arguments"
		}
		return strings.Join(out, ", ")
	case *kind.Required:
		var out []string
		for _, m := range k.Missing {
			s := fmt.Sprintf("the argument %q is required", joinPath(at, m))
			if d := node.child(m).describe(); d != "" {
				s += " (" + d + ")"
			}
			out = append(out, s)
		}
		return strings.Join(out, "; ")
	case *kind.Type:
		if at == "" {
			return fmt.Sprintf("the arguments must be a JSON object, not %s", article(k.Got))
		}
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = article(w)
		}
		return fmt.Sprintf("the argument %q must be %s, not %s", at, strings.Join(want, " or "), article(k.Got))
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = jsonText(w)
		}
		return fmt.Sprintf("the argument %q must be one of %s, not %s", at, strings.Join(want, ", "), jsonText(k.Got))
	case *kind.Const:
		return fmt.Sprintf("the argument %q must be %s, not %s", at, jsonText(k.Want), jsonText(k.Got))
	case *kind.Minimum:
		return fmt.Sprintf("the argument %q must be at least %s (got %s)", at, number(k.Want), number(k.Got))
	case *kind.Maximum:
		return fmt.Sprintf("the argument %q must be at most %s (got %s)", at, number(k.Want), number(k.Got))
	case *kind.ExclusiveMinimum:
		return fmt.Sprintf("the argument %q must be more than %s (got %s)", at, number(k.Want), number(k.Got))
	case *kind.ExclusiveMaximum:
		return fmt.Sprintf("the argument %q must be less than %s (got %s)", at, number(k.Want), number(k.Got))
	case *kind.MinLength:
		return fmt.Sprintf("the argument %q must be at least %s long (got %d)", at, plural(k.Want, "character"), k.Got)
	case *kind.MaxLength:
		return fmt.Sprintf("the argument %q must be at most %s long (got %d)", at, plural(k.Want, "character"), k.Got)
	case *kind.MinItems:
		return fmt.Sprintf("the argument %q must have at least %s (got %d)", at, plural(k.Want, "item"), k.Got)
	case *kind.MaxItems:
		return fmt.Sprintf("the argument %q must have at most %s (got %d)", at, plural(k.Want, "item"), k.Got)
	}
	if at == "" {
		return e.ErrorKind.LocalizedString(english)
	}
	return fmt.Sprintf("the argument %q: %s", at, e.ErrorKind.LocalizedString(english))
}

// number renders a bound or a number of the call for a message: an int64
// exactly (9007199254740993 is no float64), any other as abi.Number does,
// 1e+308 and not its 309 digits, 0.75 and not 3/4.
func number(r *big.Rat) string {
	if r.IsInt() && r.Num().IsInt64() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return abi.Number(f)
}

// maxUnknownNames is how many unknown argument names one message names,
// and maxNameBytes how much of each it shows: the names are the client's,
// and a call of 50,000 made-up names, or of one name 300 KB long, was
// answered with 74 KB of them.
const (
	maxUnknownNames = 8
	maxNameBytes    = 64
)

// plural counts n of a noun whose plural adds an s: 1 item, 2 items.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// argPath writes an instance location as the SDK names arguments:
// nested.field, list[2].
func argPath(loc []string) string {
	var b strings.Builder
	for _, seg := range loc {
		if _, err := strconv.Atoi(seg); err == nil {
			b.WriteString("[" + seg + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(abi.Cut(seg, maxNameBytes))
	}
	return b.String()
}

func joinPath(at, name string) string {
	if at == "" {
		return name
	}
	return at + "." + name
}

// article names a JSON type with its article: "a string", "an integer".
func article(t string) string {
	switch t {
	case "integer", "object", "array":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

// jsonText writes a value as JSON, cut to a readable length.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 80 {
		return string(b[:77]) + "…"
	}
	return string(b)
}

// nearest is the known name an unknown one most likely meant, or "", in
// this order: the same once case, '_' and '-' are ignored (old_string →
// oldString), one holding the other (file_path → path), its letters in
// order from the first (cmd → command), or within a third of its length in
// edits (pth → path).
func nearest(name string, known []string) string {
	fold := func(s string) string {
		return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(s))
	}
	n := fold(name)
	best, bestRank, bestDist := "", 5, 0
	for _, k := range known {
		f := fold(k)
		d := editDistance(n, f)
		rank := 4
		switch {
		case n == f:
			rank = 0
		case len(f) >= 3 && len(n) >= 3 && (strings.Contains(n, f) || strings.Contains(f, n)):
			rank = 1
		case len(n) >= 3 && n[0] == f[0] && subsequence(n, f):
			rank = 2
		case d <= max(1, len(f)/3):
			rank = 3
		}
		if rank < bestRank || rank == bestRank && d < bestDist {
			best, bestRank, bestDist = k, rank, d
		}
	}
	if bestRank > 3 {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance of a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// subsequence reports whether the bytes of s appear in t in order.
func subsequence(s, t string) bool {
	for i := 0; i < len(t) && len(s) > 0; i++ {
		if t[i] == s[0] {
			s = s[1:]
		}
	}
	return s == ""
}

// outline is what messages need of a schema: each object's property names
// in the schema's order, their descriptions, and the items of arrays. It is
// read from the raw schema; a schema it cannot follow (references,
// combinations) gives no names, and the messages do without.
type outline struct {
	desc  string
	names []string
	props map[string]*outline
	items *outline
}

func outlineOf(raw []byte) *outline {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	o := &outline{}
	json.Unmarshal(m["description"], &o.desc)
	if p, ok := m["properties"]; ok {
		o.names = objectKeys(p)
		var props map[string]json.RawMessage
		json.Unmarshal(p, &props)
		o.props = make(map[string]*outline, len(props))
		for k, v := range props {
			o.props[k] = outlineOf(v)
		}
	}
	if it, ok := m["items"]; ok {
		o.items = outlineOf(it)
	}
	return o
}

// objectKeys lists a JSON object's keys in order.
func objectKeys(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}

// at follows an instance location down the outline (nil when it cannot).
func (o *outline) at(loc []string) *outline {
	for _, seg := range loc {
		if o == nil {
			return nil
		}
		if _, err := strconv.Atoi(seg); err == nil && o.items != nil {
			o = o.items
			continue
		}
		o = o.props[seg]
	}
	return o
}

func (o *outline) child(name string) *outline {
	if o == nil {
		return nil
	}
	return o.props[name]
}

// describe is a property's description, cut to a readable length.
func (o *outline) describe() string {
	if o == nil {
		return ""
	}
	d := strings.TrimSuffix(strings.TrimSpace(o.desc), ".")
	if n := 160; len(d) > n {
		for n > 0 && !utf8.RuneStart(d[n]) {
			n--
		}
		d = strings.TrimRight(d[:n], " ") + "…"
	}
	return d
}
