package maven

import (
	"bytes"
	"encoding/xml"
	"errors"
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

// parse reads the elements of a pom that matter here.
func parse(file string, data []byte) (*pom, error) {
	p := &pom{file: file, line: 1}
	dec := xml.NewDecoder(bytes.NewReader(data))
	var stack []string
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			if len(stack) > 0 {
				return nil, errors.New("unexpected end of file")
			}
			return p, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			stack = append(stack, t.Name.Local)
			switch strings.Join(stack, "/") {
			case "project":
				p.line = task.LineAt(data, int(start))
			case "project/profiles/profile":
				p.profiles = append(p.profiles, profile{})
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			text := strings.TrimSpace(string(t))
			if text == "" {
				continue
			}
			line := task.LineAt(data, int(dec.InputOffset()))
			switch strings.Join(stack, "/") {
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
