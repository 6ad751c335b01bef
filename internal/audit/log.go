package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/jujutools/juju/internal/filelock"
	"github.com/jujutools/juju/sdk/abi"
)

// FileName is the audit log's name inside a workspace's state folder; the
// previous log, once rotated, is FileName + ".1".
const FileName = "audit.jsonl"

// MaxSize is the size past which the log is rotated, when it is opened and
// as it grows: the current log becomes FileName.1 (replacing the older
// one).
const MaxSize = 32 << 20

// checkEvery is how many bytes a Log appends between two looks at the
// file's size: the log passes MaxSize by at most that much for each
// process appending to it.
const checkEvery = 1 << 20

// Path is the audit log of the workspace whose state folder is stateDir.
func Path(stateDir string) string { return filepath.Join(stateDir, FileName) }

// Log appends records to one workspace's audit log. It opens the file on
// the first record and keeps it open; it is safe for concurrent use.
// Several processes append to one log (servers, the owner's commands): a
// rotation is made under a lock file beside the log, by the first process
// that finds the file past MaxSize, and every other one opens the new file
// when it next looks.
type Log struct {
	path   string
	mu     sync.Mutex // f, closed, unchecked and torn
	f      *os.File   // nil until opened, or after an open failed (tried again at the next Append)
	closed bool

	unchecked int  // bytes appended since the size was last looked at
	torn      bool // the last write to f stopped partway (a full disk): its line has no end
}

// Open returns the log at path (see Path). Nothing is touched until the
// first Append.
func Open(path string) *Log { return &Log{path: path} }

// Path is the file the log appends to.
func (l *Log) Path() string { return l.path }

// DiskFull reports whether err is a write refused because the disk (or
// its quota) is full.
func DiskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, errQuota)
}

// open opens the file (rotating it when past MaxSize). l.mu is held.
func (l *Log) open() error {
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		return err
	}
	return l.rotate()
}

// rotate renames the log to FileName.1 when it is past MaxSize, and
// opens the file at the log's path (again, when another process rotated
// it meanwhile). l.mu is held, or l is not yet shared.
func (l *Log) rotate() error {
	unlock, err := filelock.Lock(l.path + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	cur, err := os.Stat(l.path)
	if err == nil && cur.Size() > MaxSize {
		if err := os.Rename(l.path, l.path+".1"); err != nil {
			return err
		}
	}
	if l.f != nil {
		if mine, err := l.f.Stat(); err == nil && cur != nil && os.SameFile(mine, cur) && cur.Size() <= MaxSize {
			return nil // still the log, and within its bound
		}
		l.f.Close()
	}
	l.torn = false
	l.f, err = os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	return err
}

// maxName bounds the names a record carries as the client sent them —
// the client's declared name, a tool juju does not have — in bytes: a
// client naming itself with megabytes would fill the log (and push the
// calls before it out of both files) in a few calls.
const maxName = 256

// Append writes one record as one line. A record is small (arguments are
// cut, and names; a call's fetches are at most MaxFetches, their URLs at
// most the 8 KiB the fetch function sends), so the single write is atomic
// with respect to other writers. A write a full disk stopped partway leaves
// a fragment without its newline: the next record this Log appends begins
// with one, so it is a line of its own (Read also finds a record written
// after a fragment by another process).
func (l *Log) Append(r *Record) error {
	if len(r.Client) > maxName || len(r.Tool) > maxName || len(r.Plugin) > maxName || len(r.Args) > 4*maxArgs {
		short := *r
		short.Client, short.Tool, short.Plugin, short.Args = abi.Cut(r.Client, maxName), abi.Cut(r.Tool, maxName), abi.Cut(r.Plugin, maxName), abi.Cut(r.Args, 4*maxArgs)
		r = &short
	}
	b, err := appendRecord(make([]byte, 0, 512), r)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return errClosed
	}
	if l.f == nil {
		// Not yet opened, or an open failed (a full disk refusing a new
		// file, at the first record or a rotation): tried at each record,
		// so none is dropped unsaid and the log resumes once it can.
		if err := l.open(); err != nil {
			return err
		}
	}
	if l.unchecked += len(b) + 1; l.unchecked > checkEvery {
		l.unchecked = 0
		if err := l.rotate(); err != nil {
			return err
		}
	}
	line := append(b, '\n')
	if l.torn {
		line = append([]byte{'\n'}, line...)
	}
	n, err := l.f.Write(line)
	if n > 0 {
		l.torn = err != nil
	}
	return err
}

var errClosed = errors.New("the audit log is closed")

// Close closes the file.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// Query selects records from a log.
type Query struct {
	Since time.Time // records at or after this time; zero: all
	Limit int       // the most recent Limit records; 0: all
}

// Read returns the records of the log at path (and its rotated
// predecessor) that match q, in the order the calls began. A missing log
// has no records; a line that does not decode (a torn write, a line of any
// length that is not a record) is skipped, and the lines after it read;
// a record appended after a fragment, on the fragment's line, is read.
func Read(path string, q Query) ([]Record, error) {
	var out []Record
	for _, p := range []string{path + ".1", path} {
		data, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for len(data) > 0 {
			line := data
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				line, data = data[:i], data[i+1:]
			} else {
				data = nil
			}
			var r Record
			if json.Unmarshal(line, &r) != nil {
				r = Record{}
				if !afterFragment(line, &r) {
					continue
				}
			}
			if !q.Since.IsZero() && r.Time.Before(q.Since) {
				continue
			}
			out = append(out, r)
		}
	}
	out = settle(out)
	// Records are appended as calls end; show them in the order they began.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[len(out)-q.Limit:]
	}
	return out, nil
}

// recordStart begins every record, whichever way it was encoded. Inside a
// JSON string a quote is escaped, so it appears nowhere else on a line.
var recordStart = []byte(`{"time":"`)

// afterFragment decodes into r the record that ends line after the
// fragment (or fragments) of records a full disk or a killed process cut
// short: a cut record has no newline, so the next record appended, by any
// process, lands on its line. Only the last record on a line can be whole.
func afterFragment(line []byte, r *Record) bool {
	i := bytes.LastIndex(line, recordStart)
	return i > 0 && json.Unmarshal(line[i:], r) == nil
}

// settle leaves out the started records of calls whose own record is
// there too.
func settle(recs []Record) []Record {
	ended := map[string]bool{}
	for _, r := range recs {
		if r.Outcome != OutcomeStarted && r.CallID != "" {
			ended[r.CallID] = true
		}
	}
	out := recs[:0]
	for _, r := range recs {
		if r.Outcome == OutcomeStarted && ended[r.CallID] {
			continue
		}
		out = append(out, r)
	}
	return out
}
