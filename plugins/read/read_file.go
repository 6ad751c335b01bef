package read

import "github.com/jujutools/juju/sdk/juju"

// ReadFileArgs are the arguments of read_file.
type ReadFileArgs struct {
	Path     string `json:"path" jsonschema:"required" min:"1" desc:"The file to read: relative to the first workspace root, or absolute inside a root."`
	Offset   int    `json:"offset,omitempty" min:"1" desc:"The 1-based number of the first line to read (default 1). Use it to read on after a truncated read."`
	Limit    int    `json:"limit,omitempty" min:"1" desc:"How many lines to read (default: up to 2000). The result is cut at about 100 KB whatever the limit."`
	Numbered bool   `json:"numbered,omitempty" desc:"Prefix each line with its number and a tab, like cat -n, to cite or edit by line."`
}

func init() {
	juju.Tool("read_file", juju.ReadTool("Read file",
		"Reads a text file of the workspace and returns its lines. Reads up to 2000 lines or about 100 KB at a time; "+
			"a longer file is cut with a notice that gives the offset to read the rest. "+
			"Use offset and limit to read a part of a large file, numbered for line numbers. "+
			"A binary file is described (type, size), not dumped. Secrets (.env, private keys …) are refused with SECRET_DENIED.",
		FileText{}), readFile)
}

func readFile(_ *juju.Call, in ReadFileArgs) (*juju.Result, error) {
	ft, err := readSpan(in.Path, in.Offset, in.Limit, maxBytes)
	if err != nil {
		return nil, err
	}
	return juju.Text(render(ft, in.Numbered)).WithStructured(ft), nil
}
