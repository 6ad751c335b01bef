package discover

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
)

// maxWarnings bounds the warnings kept from one discoverer: one or two a
// file it was offered is all a real one has to say.
const maxWarnings = 2 * DefaultMaxFiles

// decoded is a discoverer's output as decodeResult reads it: its result,
// holding at most DefaultMaxTasks tasks and maxWarnings warnings, and how
// many of each the output held.
type decoded struct {
	abi.DiscoverResult
	tasks, warnings int
}

// decodeResult decodes a discoverer's output as encoding/json would
// decode an abi.DiscoverResult, except that the tasks past DefaultMaxTasks
// and the warnings past maxWarnings are counted and skipped, never kept.
// Decoded whole, an output of tiny items ({"tasks":[{},{},…]}) became a
// 152-byte Task for each 3 bytes: 10 MB of them took the host 1.3 GB and
// 20 s, when the host keeps 5,000 tasks of a discoverer at most, and the
// output may be as large as the plugin's memory (or its channel's 80 MiB).
func decodeResult(out []byte) (*decoded, error) {
	d := json.NewDecoder(bytes.NewReader(out))
	var r decoded
	if err := delim(d, '{'); err != nil {
		return nil, err
	}
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		switch {
		case strings.EqualFold(key, "tasks"):
			r.Tasks, r.tasks, err = list[abi.Task](d, DefaultMaxTasks)
		case strings.EqualFold(key, "warnings"):
			r.Warnings, r.warnings, err = list[abi.Warning](d, maxWarnings)
		case strings.EqualFold(key, "error"):
			r.Error = nil
			err = d.Decode(&r.Error)
		default:
			var skip json.RawMessage
			err = d.Decode(&skip)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := delim(d, '}'); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errTrailing
	}
	return &r, nil
}

var errTrailing = errors.New("the output holds more than one JSON value")

// delim reads the token c.
func delim(d *json.Decoder, c json.Delim) error {
	tok, err := d.Token()
	if err != nil {
		return err
	}
	if tok != c {
		return errors.New("the output is not a JSON object of a result")
	}
	return nil
}

// list decodes a JSON array (or null) of T, keeping its first max items,
// and returns them and how many it held.
func list[T any](d *json.Decoder, max int) ([]T, int, error) {
	tok, err := d.Token()
	if err != nil || tok == nil {
		return nil, 0, err
	}
	if tok != json.Delim('[') {
		return nil, 0, errors.New("a list is not a JSON array")
	}
	var kept []T
	n := 0
	for ; d.More(); n++ {
		if n < max {
			var v T
			if err := d.Decode(&v); err != nil {
				return nil, 0, err
			}
			kept = append(kept, v)
			continue
		}
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			return nil, 0, err
		}
	}
	if kept == nil {
		kept = []T{}
	}
	return kept, n, delim(d, ']')
}

// maxOutput bounds the output of a discoverer juju reads: what a host
// function may answer (abi.MaxHeader), twice what the whole overview keeps
// of every discoverer's tasks. A discoverer's 5,000 tasks with every field
// at its bound are 9 MB; skipping the items of an output of tiny ones past
// the first 5,000 costs the host a second or two of time for each 16 MiB.
const maxOutput = abi.MaxHeader
