package manifest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A schema compiles from itself alone: a $ref, $dynamicRef or $schema
// naming a file (absolute, relative, a FIFO nobody writes, /dev/stdin) is
// refused without being opened, while references within the document and
// the standard metaschemas still work.
func TestCompileSchemaLoadsNothingOutside(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	file := filepath.Join(dir, "string.json")
	if err := os.WriteFile(file, []byte(`{"type":"string"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	// Opening a FIFO with no writer blocks: a loader that tried would hang.
	fifo := filepath.Join(dir, "fifo.json")
	hasFIFO := mkfifo(fifo) == nil
	prop := func(ref string) string {
		return `{"type":"object","properties":{"text":{"$ref":"` + ref + `"}}}`
	}
	for name, schema := range map[string]string{
		"absolute file":  prop("file://" + file),
		"relative file":  prop("string.json"),
		"stdin":          prop("file:///dev/stdin"),
		"fifo":           prop("file://" + fifo),
		"https":          prop("https://example.com/s.json"),
		"dynamicRef":     `{"type":"object","properties":{"text":{"$dynamicRef":"file://` + file + `#x"}}}`,
		"schema keyword": `{"$schema":"file://` + file + `","type":"object","properties":{}}`,
		"in an $id":      `{"$id":"file://` + dir + `/","type":"object","properties":{"text":{"$ref":"string.json"}}}`,
	} {
		if name == "fifo" && !hasFIFO {
			continue
		}
		done := make(chan error, 1)
		go func() {
			_, err := CompileSchema("t", []byte(schema))
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrExternalRef) {
				t.Errorf("%s: compiled (or failed otherwise): %v", name, err)
			} else if !strings.Contains(err.Error(), `may refer only within itself`) {
				t.Errorf("%s: the error does not say what to do: %v", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: CompileSchema opened a file and waits on it", name)
		}
	}

	for name, schema := range map[string]string{
		"$defs":      `{"$defs":{"s":{"type":"string"}},"type":"object","properties":{"text":{"$ref":"#/$defs/s"}}}`,
		"metaschema": `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"s":{"type":"string"}},"type":"object","properties":{"text":{"$ref":"#/definitions/s"}}}`,
		"anchor":     `{"$defs":{"s":{"$anchor":"str","type":"string"}},"type":"object","properties":{"text":{"$ref":"#str"}}}`,
	} {
		s, err := CompileSchema("t", []byte(schema))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if s.Validate(map[string]any{"text": 7}) == nil {
			t.Errorf("%s: the in-document reference was not followed", name)
		}
	}
}

// A manifest whose tool schema refers outside itself is invalid.
func TestDecodeRefusesExternalRef(t *testing.T) {
	bad := strings.Replace(good, `{"path": {"type": "string"}}`, `{"path": {"$ref": "file:///dev/stdin"}}`, 1)
	if bad == good {
		t.Fatal("fixture unchanged")
	}
	_, err := Decode([]byte(bad))
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `refers outside itself: it names "file:///dev/stdin"`) {
		t.Fatalf("Decode: %v", err)
	}
}

// Every JSON Schema juju compiles goes through CompileSchema, whose loader
// refuses every URL: no other compiler is made, and the MCP library's own
// validation (whose compiler loads files) stays off.
func TestOneSchemaCompiler(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	self := filepath.Join(root, "internal", "manifest", "schema.go")
	found := false
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "node_modules", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		src := string(b)
		for _, call := range []string{"NewCompiler(", "WithInputSchemaValidation(", "WithOutputSchemaValidation("} {
			if !strings.Contains(src, call) {
				continue
			}
			if path == self && call == "NewCompiler(" {
				found = true
				continue
			}
			t.Errorf("%s calls %s: compile JSON Schemas with manifest.CompileSchema, whose loader reads no file", path, call)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !found {
		t.Fatal("the scan did not find CompileSchema's own compiler: it looks in the wrong place")
	}
}
