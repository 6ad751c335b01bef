package manifest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jujutools/juju/sdk/abi"
)

// FileName is the name of a plugin's manifest inside its folder.
const FileName = "manifest.json"

// MaxSize bounds a manifest file.
const MaxSize = 1 << 20

// Bounds of a manifest's texts, in bytes. Every tools/list carries each
// tool's title and description into the model's context, and the owner's
// terminal shows them: a plugin gets room for a precise description
// (juju's longest is under 900 bytes), not for a book.
const (
	MaxVersion         = 64
	MaxDescription     = 4096 // the plugin's
	MaxToolTitle       = 128
	MaxToolDescription = 4096
)

// Manifest describes one plugin.
type Manifest struct {
	ABI          int                  `json:"abi"`
	Name         string               `json:"name"`
	Version      string               `json:"version"`
	Description  string               `json:"description"`
	Wasm         Wasm                 `json:"wasm"`
	Capabilities []abi.Capability     `json:"capabilities"`
	Limits       *Limits              `json:"limits,omitempty"`
	Tools        []abi.ToolSpec       `json:"tools"`
	Discoverers  []abi.DiscovererSpec `json:"discoverers,omitempty"`

	// Lazy keeps the plugin out of the warm-up that compiles each plugin
	// and readies an instance of it when a client connects: it is
	// compiled on its first call instead. For a plugin seldom called whose
	// module is large, whose warm instance would hold memory for nothing.
	Lazy bool `json:"lazy,omitempty"`
}

// Wasm names the plugin's module and pins its content.
type Wasm struct {
	File   string `json:"file"`   // file name inside the plugin folder
	SHA256 string `json:"sha256"` // lowercase hex; empty only in a source manifest (see DecodeSource)
	// Module, for a core plugin only, names the core plugin whose module
	// this one runs: its folder holds no wasm of its own, File is in that
	// plugin's folder, and SHA256 pins that same module (core-exec runs
	// the core module). The plugins share one compilation and keep their
	// own instances and grants. An installed plugin may not set it
	// (Decode refuses it): it ships its own wasm.
	Module string `json:"module,omitempty"`
}

// Limits lets a plugin ask for other per-call limits than the defaults; the
// host clamps them to its own ceilings.
type Limits struct {
	MemoryMiB int `json:"memoryMiB,omitempty"`
	TimeoutMs int `json:"timeoutMs,omitempty"`
	Instances int `json:"instances,omitempty"`
}

// ErrInvalid wraps every validation failure.
var ErrInvalid = errors.New("invalid manifest")

// Decode parses and validates a complete manifest, whose wasm hash must be set.
func Decode(data []byte) (*Manifest, error) {
	m, err := decode(data)
	if err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if m.Wasm.Module != "" {
		return nil, fmt.Errorf("%w: wasm.module is for juju's core plugins only; a plugin ships its own wasm", ErrInvalid)
	}
	return m, nil
}

// DecodeEmbedded parses a manifest that was validated in full when it was
// built into the binary (core plugins): everything is checked again except
// the tools' JSON Schemas, which the build compiled (buildplugins decodes
// the source with DecodeSource and the stamped result with Decode) and
// which cannot have changed since. Reading them again took a third of the
// decoding, on every start.
func DecodeEmbedded(data []byte) (*Manifest, error) {
	m, err := decode(data)
	if err != nil {
		return nil, err
	}
	if err := m.check(true, schemasBuilt); err != nil {
		return nil, err
	}
	return m, nil
}

// CheckEmbedded checks a manifest built into the binary as a Go value
// (host/core's generated file), as DecodeEmbedded checks one it decodes.
func CheckEmbedded(m *Manifest) error { return m.check(true, schemasBuilt) }

// DecodeSource parses a manifest as kept beside a plugin's source, where the
// wasm hash is not known yet; everything else is validated.
func DecodeSource(data []byte) (*Manifest, error) {
	m, err := decode(data)
	if err != nil {
		return nil, err
	}
	if err := m.check(false, schemasCompiled); err != nil {
		return nil, err
	}
	return m, nil
}

func decode(data []byte) (*Manifest, error) {
	if len(data) > MaxSize {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrInvalid, MaxSize)
	}
	// Decoding makes a string's bytes that are not UTF-8 U+FFFD, but the
	// schemas are kept as they are and go into every tools/list, where
	// such bytes make the message no JSON text for a strict client.
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%w: not UTF-8", ErrInvalid)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: trailing data after the JSON object", ErrInvalid)
	}
	return &m, nil
}

// Validate checks every rule of a complete manifest.
func (m *Manifest) Validate() error { return m.check(true, schemasCompiled) }

// schemaCheck is how far check reads the tools' JSON Schemas.
type schemaCheck int

const (
	// schemasBuilt: the build compiled them; only their presence is checked.
	schemasBuilt schemaCheck = iota
	// schemasCompiled: each must be an object schema that compiles.
	schemasCompiled
)

// check validates m; needHash requires wasm.sha256.
func (m *Manifest) check(needHash bool, schemas schemaCheck) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
	}
	if m.ABI < abi.VersionKernel || m.ABI > abi.Version {
		return bad("abi %d is not supported (this juju speaks abi %d to %d)", m.ABI, abi.VersionKernel, abi.Version)
	}
	if !validName(m.Name) {
		return bad("name %q must match %s", m.Name, namePattern)
	}
	if strings.TrimSpace(m.Version) == "" {
		return bad("version is empty")
	}
	if len(m.Version) > MaxVersion {
		return bad("version is %d bytes, longer than %d", len(m.Version), MaxVersion)
	}
	if len(m.Description) > MaxDescription {
		return bad("description is %d bytes, longer than %d", len(m.Description), MaxDescription)
	}
	if m.Wasm.File == "" {
		return bad(`wasm.file is missing: name the module's file, "wasm": {"file": "plugin.wasm"}`)
	}
	if !validFile(m.Wasm.File) {
		return bad("wasm.file %q must be a plain file name ending in .wasm", m.Wasm.File)
	}
	if mod := m.Wasm.Module; mod != "" && (!validName(mod) || mod == m.Name) {
		return bad("wasm.module %q must name another plugin (%s)", mod, namePattern)
	}
	if needHash || m.Wasm.SHA256 != "" {
		if len(m.Wasm.SHA256) != 64 || strings.ToLower(m.Wasm.SHA256) != m.Wasm.SHA256 {
			return bad("wasm.sha256 must be 64 lowercase hex digits")
		}
		if _, err := hex.DecodeString(m.Wasm.SHA256); err != nil {
			return bad("wasm.sha256 must be 64 lowercase hex digits")
		}
	}
	seenCap := map[abi.Capability]bool{}
	for _, c := range m.Capabilities {
		if !c.Known() {
			return bad("unknown capability %q", c)
		}
		if seenCap[c] {
			return bad("capability %q listed twice", c)
		}
		seenCap[c] = true
	}
	if l := m.Limits; l != nil && (l.MemoryMiB < 0 || l.TimeoutMs < 0 || l.Instances < 0) {
		return bad("limits must not be negative")
	}
	if len(m.Tools) == 0 && len(m.Discoverers) == 0 {
		return bad("a plugin must export at least one tool or discoverer")
	}
	seenTool := map[string]bool{}
	budget := newBudget() // every tool's schemas together
	for i := range m.Tools {
		t := &m.Tools[i]
		if err := validateTool(t, schemas, budget); err != nil {
			return bad("tool %q: %v", t.Name, err)
		}
		if seenTool[t.Name] {
			return bad("tool %q listed twice", t.Name)
		}
		seenTool[t.Name] = true
	}
	if len(m.Discoverers) > abi.MaxDiscoverers {
		return bad("%d discoverers, more than the %d a plugin may have", len(m.Discoverers), abi.MaxDiscoverers)
	}
	seenDisc := map[string]bool{}
	forms := 0 // of all the discoverers' globs
	for _, d := range m.Discoverers {
		if !validName(d.Name) {
			return bad("discoverer name %q must match %s", d.Name, namePattern)
		}
		if seenDisc[d.Name] {
			return bad("discoverer %q listed twice", d.Name)
		}
		seenDisc[d.Name] = true
		if len(d.Files) == 0 {
			return bad("discoverer %q names no files", d.Name)
		}
		if len(d.Files) > abi.MaxDiscovererGlobs {
			return bad("discoverer %q has %d file globs, more than %d", d.Name, len(d.Files), abi.MaxDiscovererGlobs)
		}
		for _, g := range d.Files {
			if len(g) > abi.MaxDiscovererGlob {
				return bad("discoverer %q: a file glob of %d bytes, longer than %d", d.Name, len(g), abi.MaxDiscovererGlob)
			}
			if forms += abi.GlobForms(g); forms > abi.MaxGlobForms {
				return bad("discoverer %q: the discoverers' file globs expand to more than %d forms in all (each {a,b} group multiplies its glob's); use fewer brace groups", d.Name, abi.MaxGlobForms)
			}
		}
	}
	return nil
}

func validateTool(t *abi.ToolSpec, schemas schemaCheck, budget *schemaBudget) error {
	if !validToolName(t.Name) {
		return fmt.Errorf("name must match %s", toolNamePattern)
	}
	if strings.TrimSpace(t.Description) == "" {
		return errors.New("description is empty")
	}
	if len(t.Description) > MaxToolDescription {
		return fmt.Errorf("description is %d bytes, longer than %d: every tools/list carries it to the model", len(t.Description), MaxToolDescription)
	}
	if len(t.Title) > MaxToolTitle {
		return fmt.Errorf("title is %d bytes, longer than %d", len(t.Title), MaxToolTitle)
	}
	switch t.Tier {
	case abi.TierRead, abi.TierEdit, abi.TierExec:
	default:
		return fmt.Errorf("tier %q must be R, E or X", t.Tier)
	}
	if t.Tier == abi.TierRead && !t.Annotations.ReadOnly {
		return errors.New("a read-tier tool must set readOnlyHint")
	}
	if t.Tier != abi.TierRead && t.Annotations.ReadOnly {
		return errors.New("only read-tier tools may set readOnlyHint")
	}
	if schemas == schemasBuilt {
		if len(t.InputSchema) == 0 {
			return errors.New("inputSchema: missing")
		}
		return nil
	}
	if err := checkSchema(t.InputSchema, true, budget); err != nil {
		return fmt.Errorf("inputSchema: %w", err)
	}
	if len(t.OutputSchema) > 0 {
		if err := checkSchema(t.OutputSchema, false, budget); err != nil {
			return fmt.Errorf("outputSchema: %w", err)
		}
	}
	return nil
}

// Capabilities returns the manifest's capabilities as a set.
func (m *Manifest) CapabilitySet() map[abi.Capability]bool {
	s := make(map[abi.Capability]bool, len(m.Capabilities))
	for _, c := range m.Capabilities {
		s[c] = true
	}
	return s
}
