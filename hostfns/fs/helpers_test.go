package fs

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/policy"
)

// funcs returns the host functions of New by name.
func funcs(p *policy.Policy, opts Options) map[string]hostfns.Func {
	m := map[string]hostfns.Func{}
	for _, f := range New(p, opts) {
		m[f.Name] = f
	}
	return m
}

func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func writeFile(dir, name, content string) error {
	return os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
}
