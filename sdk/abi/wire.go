package abi

import "encoding/json"

// Exports a plugin provides.
const (
	// ExportCall runs one tool. Input: a CallRequest as JSON (ABI 1), or
	// a frame of the tool's name and the arguments (ABI 2, EncodeCall).
	// Output: a CallResult as JSON (ABI 1), or a frame of one (ABI 2, see
	// Resolve). Return code 0.
	ExportCall = "juju_call"
	// ExportDescribe returns the plugin's tools and discoverers as a
	// Description (JSON, Extism output). It runs at build time only: the
	// host serves tools/list from manifests and never calls it at run time.
	ExportDescribe = "juju_describe"
)

// HostNamespace is the wasm import module of juju's host functions.
const HostNamespace = "extism:host/user"

// Host function names. Each takes one i64 (the offset of an Extism memory
// block holding a request frame) and returns one i64 (the offset of a block
// holding a response frame). The response header always embeds Status.
const (
	FnLog    = "juju_log"     // LogRequest → Status; needs no capability
	FnFSRead = "juju_fs_read" // ReadRequest → ReadResult + file bytes; fs.read
	// FnFSReads is several juju_fs_read in one call, which the host may
	// serve at once: ReadsRequest → ReadsResult + the reads' frames
	// (AppendFramed); fs.read.
	FnFSReads = "juju_fs_reads"
	FnFSList  = "juju_fs_list" // ListRequest → ListResult; fs.read
	FnFSStat  = "juju_fs_stat" // StatRequest → StatResult; fs.read
	FnFSGlob  = "juju_fs_glob" // GlobRequest → GlobResult; fs.read (also the walk)
)

// CallRequest is the input of ExportCall.
type CallRequest struct {
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// CallResult is the output of ExportCall: either content (and optionally
// structured content) or an error. In ABI 2 it is the header of a frame
// whose body holds the bytes its spans and splices refer to (see Resolve).
type CallResult struct {
	Content    []Content       `json:"content,omitempty"`
	Structured json.RawMessage `json:"structured,omitempty"`
	// StructuredSpan (ABI 2) holds Structured as raw bytes of the frame's
	// body instead, so that the host reads it once, to check that it is
	// one JSON value, rather than decoding it as part of the header.
	StructuredSpan *Span `json:"structuredSpan,omitempty"`
	// Splices (ABI 2) fill empty strings of Structured from the body.
	Splices []Splice `json:"splices,omitempty"`
	Error   *Error   `json:"error,omitempty"`
}

// Content is one MCP content item.
type Content struct {
	Type     string `json:"type"`               // "text" or "image"
	Text     string `json:"text,omitempty"`     // for "text"
	Data     []byte `json:"data,omitempty"`     // for "image" (base64 in JSON)
	MimeType string `json:"mimeType,omitempty"` // for "image"
	// TextSpan and DataSpan (ABI 2) hold Text or Data as raw bytes of the
	// frame's body instead, unescaped and not base64-encoded.
	TextSpan *Span `json:"textSpan,omitempty"`
	DataSpan *Span `json:"dataSpan,omitempty"`
}

// Status is embedded in every host function response header. Its Error is
// the host's refusal of the call, which the SDK returns as the wrapper's
// error; it is left out of tool output schemas (jsonschema:"-"), so that a
// tool can return a result struct as it is.
type Status struct {
	Error *Error `json:"error,omitempty" jsonschema:"-"`
}

// Err returns the error the host reported, or nil.
func (s Status) Err() *Error { return s.Error }

// LogRequest asks the host to log a line on juju's log, tagged with the plugin.
type LogRequest struct {
	Level   string `json:"level"` // debug, info, warn, error
	Message string `json:"message"`
}

// Entry types.
const (
	TypeFile    = "file"
	TypeDir     = "dir"
	TypeSymlink = "symlink"
	TypeOther   = "other"
)

// ReadRequest reads a file, by bytes or by lines. Paths are relative to the
// first root, or absolute inside a root.
type ReadRequest struct {
	Path string `json:"path"`
	// Byte mode (Line == 0): Offset and Length in bytes; Length 0 means to the end.
	Offset int64 `json:"offset,omitempty"`
	Length int64 `json:"length,omitempty"`
	// Line mode: Line is the 1-based first line, Lines how many (0: all).
	Line  int `json:"line,omitempty"`
	Lines int `json:"lines,omitempty"`
	// MaxBytes caps the body; the host also applies its own cap.
	MaxBytes int64 `json:"maxBytes,omitempty"`
	// Binary asks for the bytes even when the file looks binary.
	Binary bool `json:"binary,omitempty"`
	// Hash asks for the sha256 of the body when the body is the whole
	// file (ReadResult.SHA256): what a change's ExpectedSHA256 names.
	Hash bool `json:"hash,omitempty"`
}

// ReadResult describes what was read; the bytes are the frame's body.
type ReadResult struct {
	Status
	Path       string `json:"path"`                 // display path (first root relative, else absolute)
	Size       int64  `json:"size"`                 // whole file size in bytes
	ModTime    string `json:"modTime"`              // RFC 3339
	Binary     bool   `json:"binary,omitempty"`     // looks binary; body empty unless asked
	Truncated  bool   `json:"truncated,omitempty"`  // the body was cut at MaxBytes
	FirstLine  int    `json:"firstLine,omitempty"`  // line mode: number of the first line returned
	LineCount  int    `json:"lineCount,omitempty"`  // line mode: lines in the body
	TotalLines int    `json:"totalLines,omitempty"` // line mode: lines in the file
	// StartOffset, in line mode, is the byte offset of the first line
	// returned: with the body's length, where a cut line goes on.
	StartOffset int64 `json:"startOffset,omitempty"`
	// SHA256 is the hex sha256 of the body, when Hash was asked and the
	// body is the whole file: byte mode from offset 0, not truncated, and
	// not a binary file's empty body.
	SHA256 string `json:"sha256,omitempty"`
	// Encoding is set for a UTF-16 text file (one that starts with its
	// byte-order mark): "utf-16le" or "utf-16be". The host converts it to
	// UTF-8, without the mark, and serves the read from that text: Size,
	// StartOffset and byte offsets count its bytes. A read asking for Hash
	// or Binary gets the file's own bytes (a UTF-16 file looks binary).
	Encoding string `json:"encoding,omitempty"`
}

// MaxReads bounds ReadsRequest.Reads.
const MaxReads = 64

// ReadsRequest is several reads in one host call (FnFSReads). Each is
// answered as FnFSRead would answer it alone, except that the reads share
// the host's cap on the bytes of one read: each gets at most its share.
type ReadsRequest struct {
	Reads []ReadRequest `json:"reads"`
}

// ReadsResult answers a ReadsRequest. Its Status fails only when the
// request as a whole does (too many reads, say); each read has its own.
// The frame's body holds Reads frames, one per read in the order asked,
// each as FnFSRead would have answered that read alone (AppendFramed).
type ReadsResult struct {
	Status
	Reads int `json:"reads"`
}

// Entry is one item of a listing or a glob. Path is a display path; Type
// is one of the Type constants; Target, for a symlink, is the display path
// of an in-root target.
type Entry struct {
	Name    string `json:"name" desc:"The entry's name."`
	Path    string `json:"path" desc:"Its path, relative to the first root."`
	Type    string `json:"type" enum:"file,dir,symlink,other" desc:"What it is."`
	Size    int64  `json:"size" desc:"Size in bytes."`
	ModTime string `json:"modTime" desc:"Last modification time (RFC 3339)."`
	Target  string `json:"target,omitempty" desc:"For a symlink: its target, relative to the first root; absent when the link is broken (its target missing or a loop)."`
}

// ListRequest lists one folder, or a window of it: the entries from Offset
// (0-based, in name order), at most Limit of them.
type ListRequest struct {
	Path           string `json:"path"`
	IncludeIgnored bool   `json:"includeIgnored,omitempty"` // also list .gitignored entries
	Offset         int    `json:"offset,omitempty"`         // entries to skip
	Limit          int    `json:"limit,omitempty"`          // 0: the host's cap
	// Packed asks for the entries packed in the response's body
	// (AppendEntries) rather than in ListResult.Entries, which is then
	// empty: a plugin decodes them without scanning their strings.
	Packed bool `json:"packed,omitempty"`
}

// ListResult is a folder's entries, sorted by name (never nil), or the
// window of them a ListRequest asked for. Hidden counts entries the policy
// withholds (secrets, denied paths); Ignored counts .gitignored ones. Total
// counts every entry listed; Truncated says Entries stop before the last
// of them. list_directory returns it.
type ListResult struct {
	Status
	Path      string  `json:"path" desc:"The folder listed, relative to the first root."`
	Entries   []Entry `json:"entries" jsonschema:"required" desc:"The folder's entries from offset on, sorted by name."`
	Total     int     `json:"total" desc:"How many entries the folder lists in all."`
	Truncated bool    `json:"truncated,omitempty" desc:"True when entries stop before the last one; read on with offset nextOffset."`
	Hidden    int     `json:"hidden,omitempty" desc:"Entries withheld by the workspace policy (secrets, denied paths)."`
	Ignored   int     `json:"ignored,omitempty" desc:"Entries not listed because .gitignore excludes them; includeIgnored lists them."`
	Unnamed   int     `json:"unnamed,omitempty" desc:"Entries not listed because their names are not UTF-8, which no argument can name; run_command can."`
}

// StatRequest describes one path. Hash asks for the sha256 of a file of
// at most MaxHashBytes.
type StatRequest struct {
	Path string `json:"path"`
	Hash bool   `json:"hash,omitempty"`
}

// MaxHashBytes bounds the file a stat hashes: a larger one (a disk
// image, a 10 GB sparse file) would take the whole of a call's time, and
// no edit takes a file that large; its SHA256 is left empty.
const MaxHashBytes = 1 << 30

// StatResult describes one path. For a symlink, Type is that of its target
// and Link holds the link's own display target. SHA256 is set for a file
// when asked, never for a secret. file_info returns it.
type StatResult struct {
	Status
	Path    string `json:"path" desc:"The path, relative to the first root."`
	Type    string `json:"type" enum:"file,dir,symlink,other" desc:"What the path is; for a symlink, the type of its target."`
	Size    int64  `json:"size" desc:"Size in bytes."`
	ModTime string `json:"modTime" desc:"Last modification time (RFC 3339)."`
	Mode    string `json:"mode" desc:"Permission bits, as ls -l shows them (e.g. -rw-r--r--)."`
	SHA256  string `json:"sha256,omitempty" desc:"SHA-256 of a file's content, in hex; pass it as expectedSha256 to an edit."`
	Link    string `json:"link,omitempty" desc:"When the path is a symlink: where it points, relative to the first root."`
}

// GlobRequest walks a folder and keeps what matches a doublestar pattern.
// An empty pattern matches every file (the walk).
type GlobRequest struct {
	Pattern        string `json:"pattern"`
	Path           string `json:"path,omitempty"` // base folder; default the first root
	IncludeIgnored bool   `json:"includeIgnored,omitempty"`
	IncludeDirs    bool   `json:"includeDirs,omitempty"`
	SortBy         string `json:"sortBy,omitempty"` // "name" (default) or "mtime" (newest first)
	Limit          int    `json:"limit,omitempty"`  // 0: the host's cap
	// Packed asks for the entries packed in the response's body, as
	// ListRequest.Packed does.
	Packed bool `json:"packed,omitempty"`
}

// GlobResult holds the matches. Total counts every match, Truncated says
// Entries stopped at Limit. Hidden counts the matches the policy withheld
// (secrets, denied paths, juju's own state, links to them or out of the
// roots; a withheld folder counts once, and what it holds is not walked),
// HiddenSecrets those of them that are secrets, so a tool can say why a
// pattern matched nothing it may touch. Unnamed counts the matches, and
// the folders not walked, whose names are not UTF-8, which no argument
// can name.
type GlobResult struct {
	Status
	Entries       []Entry `json:"entries"`
	Total         int     `json:"total"`
	Truncated     bool    `json:"truncated,omitempty"`
	Hidden        int     `json:"hidden,omitempty"`
	HiddenSecrets int     `json:"hiddenSecrets,omitempty"`
	Unnamed       int     `json:"unnamed,omitempty"`
}
