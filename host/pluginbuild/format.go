package pluginbuild

import (
	"bytes"
	"encoding/json"

	"github.com/jujutools/juju/internal/manifest"
)

// Format encodes a manifest the one way juju writes manifests: two-space
// indentation, no HTML escaping, a final newline.
func Format(m *manifest.Manifest) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
