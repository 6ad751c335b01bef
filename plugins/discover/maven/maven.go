// Package maven finds the tasks of Maven builds: the lifecycle phases of
// each root pom.xml (one no other pom lists as a module), and test and
// package of each module with -pl. The wrapper (./mvnw) is used when
// present.
package maven

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"pom.xml"}

type module struct {
	name string
	line int
}

type pom struct {
	file    string
	data    []byte
	modules []module
}

// Discover lists the tasks of the pom.xml files in files.
func Discover(fsys task.FS, files []string) *task.Result {
	res := task.NewResult()
	var poms []*pom
	members := map[string]bool{}
	for _, f := range files {
		data, ok := res.Read(fsys, f)
		if !ok {
			continue
		}
		mods, err := modules(data)
		if err != nil {
			res.Warn(f, "is not valid XML (%v); its tasks are not listed", err)
			continue
		}
		p := &pom{file: f, data: data, modules: mods}
		poms = append(poms, p)
		for _, m := range mods {
			if dir, ok := task.Join(task.Dir(f), m.name); ok {
				members[path.Join(dir, "pom.xml")] = true
			}
		}
	}
	phases := []struct{ name, kind, desc string }{
		{"compile", abi.KindBuild, "compile the sources"},
		{"test", abi.KindTest, "run the unit tests"},
		{"package", abi.KindBuild, "build the jar or war"},
		{"verify", abi.KindTest, "run the integration tests and checks"},
		{"clean", abi.KindOther, "delete the build output"},
	}
	for _, p := range poms {
		if members[p.file] {
			continue
		}
		dir := task.Dir(p.file)
		cmd := "mvn"
		if fsys.Exists(path.Join(dir, "mvnw")) {
			cmd = "./mvnw"
		}
		line := 1
		if l, _ := task.FindLine(p.data, 0, "<project"); l > 0 {
			line = l
		}
		for _, ph := range phases {
			res.Add(abi.Task{Name: ph.name, Runner: "maven", Command: cmd + " " + ph.name, Cwd: dir, File: p.file, Line: line, Kind: ph.kind, Description: ph.desc})
		}
		for _, m := range p.modules {
			for _, ph := range []string{"test", "package"} {
				name := ph + " -pl " + m.name
				res.Add(abi.Task{Name: name, Runner: "maven", Command: cmd + " -pl " + task.Shell(m.name) + " " + ph, Cwd: dir, File: p.file, Line: m.line, Kind: task.Kind(ph), Description: "module " + m.name})
			}
		}
	}
	return res
}

// modules reads the <module> elements of <project><modules>.
func modules(data []byte) ([]module, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var stack []string
	var out []module
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			if len(stack) > 0 {
				return nil, errors.New("unexpected end of file")
			}
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			stack = append(stack, t.Name.Local)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if strings.Join(stack, "/") == "project/modules/module" {
				if name := strings.TrimSpace(string(t)); name != "" {
					out = append(out, module{name: name, line: task.LineAt(data, int(dec.InputOffset()))})
				}
			}
		}
	}
}
