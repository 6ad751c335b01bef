package maven

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
)

// pom is what a pom.xml says that matters here.
type pom struct {
	file           string
	line           int // of <project>
	modules        []module
	profileModules []module // modules that only a profile adds
	profiles       []profile
}

// module is one <module> and its line.
type module struct {
	name string
	line int
}

// profile is one <profile> and the line of its id.
type profile struct {
	id              string
	line            int
	activeByDefault bool
}

// maxDepth bounds how deep a pom's elements nest: the decoder keeps a
// stack of them, and Maven's own model nests about ten deep (plugin
// configurations a few more). A pom of 500,000 nested elements ran the
// discoverer past its time.
const maxDepth = 256

// parse reads the elements of a pom that matter here, in time linear in
// the file: the path of an element is kept as text for the first five
// levels (the deepest path read) and never rebuilt.
func parse(file string, data []byte) (*pom, error) {
	p := &pom{file: file, line: 1}
	dec := xml.NewDecoder(bytes.NewReader(data))
	lines := task.NewLines(data)
	// paths[i] is the path of the element i+1 deep ("project/modules"),
	// "" past the fifth.
	var paths []string
	cur := func() string {
		if len(paths) == 0 {
			return ""
		}
		return paths[len(paths)-1]
	}
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			if len(paths) > 0 {
				return nil, errors.New("unexpected end of file")
			}
			return p, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(paths) >= maxDepth {
				return nil, fmt.Errorf("line %d: elements nest deeper than %d", lines.At(int(start)), maxDepth)
			}
			path := ""
			switch parent := cur(); {
			case len(paths) == 0:
				path = t.Name.Local
			case parent != "" && len(paths) < 5:
				path = parent + "/" + t.Name.Local
			}
			paths = append(paths, path)
			switch path {
			case "project":
				p.line = lines.At(int(start))
			case "project/profiles/profile":
				p.profiles = append(p.profiles, profile{})
			}
		case xml.EndElement:
			paths = paths[:len(paths)-1]
		case xml.CharData:
			text := strings.TrimSpace(string(t))
			if text == "" {
				continue
			}
			line := lines.At(int(dec.InputOffset()))
			switch cur() {
			case "project/modules/module":
				p.modules = append(p.modules, module{text, line})
			case "project/profiles/profile/modules/module":
				p.profileModules = append(p.profileModules, module{text, line})
			case "project/profiles/profile/id":
				pr := &p.profiles[len(p.profiles)-1]
				pr.id, pr.line = text, line
			case "project/profiles/profile/activation/activeByDefault":
				p.profiles[len(p.profiles)-1].activeByDefault = text == "true"
			}
		}
	}
}
