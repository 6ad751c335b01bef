package read

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// ReadFileArgs are the arguments of read_file.
type ReadFileArgs struct {
	Path       string `json:"path" jsonschema:"required" min:"1" desc:"The file to read: relative to the first workspace root, or absolute inside a root."`
	Offset     int    `json:"offset,omitempty" min:"1" desc:"The 1-based number of the first line to read (default 1). Use it to read on after a truncated read."`
	Limit      int    `json:"limit,omitempty" min:"1" desc:"How many lines to read (default: up to 2000). The result is cut at about 90 KB whatever the limit."`
	Numbered   bool   `json:"numbered,omitempty" desc:"Prefix each line with its number and a tab, like cat -n, to cite or edit by line."`
	ByteOffset *int64 `json:"byteOffset,omitempty" min:"0" desc:"Read by bytes from this offset (0-based) instead of by lines: the way on inside a line too long to show whole (minified code, one-line JSON), as a cut read says. Not with offset or limit."`
	MaxBytes   int    `json:"maxBytes,omitempty" min:"1" max:"90000" desc:"The most bytes of the file's text to return (default and most: 90000), though a character wider than that is shown whole; less keeps a look inside a long line short."`
}

func init() {
	juju.Tool("read_file", juju.ReadTool("Read file",
		"Reads a text file of the workspace and returns its lines. Reads up to 2000 lines or about 90 KB at a time; "+
			"a longer file is cut with a notice that gives the offset to read the rest. "+
			"Use offset and limit to read a part of a large file, numbered for line numbers. "+
			"A line too long to show whole (minified code) is cut inside, and byteOffset reads on from where it stopped (maxBytes for less). "+
			"A binary file is described (type, size), not dumped. Secrets (.env, private keys …) are refused with SECRET_DENIED.",
		FileText{}), readFile)
}

func readFile(_ *juju.Call, in ReadFileArgs) (*juju.Result, error) {
	// byteOffset 0 is a read by bytes from the file's start, not the
	// argument left out.
	byBytes := in.ByteOffset != nil
	if byBytes && (in.Offset > 0 || in.Limit > 0) {
		return nil, juju.Errorf(abi.InvalidArgument, "read by lines (offset, limit) or by bytes (byteOffset), not both; to go on inside a cut line, pass only byteOffset")
	}
	byteCap := int64(maxText)
	if in.MaxBytes > 0 {
		byteCap = min(byteCap, int64(in.MaxBytes))
	}
	sp := span{offset: in.Offset, limit: in.Limit, byBytes: byBytes, byteCap: byteCap, numbered: in.Numbered}
	if byBytes {
		sp.byteOffset = *in.ByteOffset
	}
	ft, err := readSpan(in.Path, sp)
	if err != nil {
		return nil, err
	}
	return juju.Text(render(ft, in.Numbered)).WithStructured(ft), nil
}
