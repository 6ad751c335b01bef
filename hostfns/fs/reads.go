package fs

import (
	"context"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// readsAtOnce bounds the reads of one juju_fs_reads call that run at the
// same time.
const readsAtOnce = 4

// reads serves juju_fs_reads: each read as read serves it alone, several
// at once, their frames in the order asked. The reads share the cap of one
// read, so that a call holds no more than one read's bytes.
func (s *server) reads(ctx context.Context, req *abi.ReadsRequest, _ []byte) (*abi.ReadsResult, []byte, *abi.Error) {
	n := len(req.Reads)
	switch {
	case n == 0:
		return nil, nil, abi.Errorf(abi.InvalidArgument, "reads is empty; ask for at least one read")
	case n > abi.MaxReads:
		return nil, nil, abi.Errorf(abi.InvalidArgument, "%d reads in one call is more than %d; split them", n, abi.MaxReads)
	}
	share := max(s.opts.MaxReadBytes/int64(n), 1)
	type answer struct{ header, body []byte }
	answers := make([]answer, n)
	one := func(i int) {
		r := req.Reads[i]
		if r.MaxBytes == 0 || r.MaxBytes > share { // a negative one stays an error
			r.MaxBytes = share
		}
		res, body, e := s.read(ctx, &r, nil)
		answers[i].header, answers[i].body = hostfns.AnswerCodec(abi.AppendReadResult, res, body, e)
	}
	workers := min(n, readsAtOnce, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := range n {
			one(i)
		}
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for j := int(next.Add(1) - 1); j < n; j = int(next.Add(1) - 1) {
					one(j)
				}
			})
		}
		wg.Wait()
	}
	size := 0
	for _, a := range answers {
		size += 8 + len(a.header) + len(a.body)
	}
	out := make([]byte, 0, size)
	for _, a := range answers {
		out = abi.AppendFramed(out, a.header, a.body)
	}
	return &abi.ReadsResult{Reads: n}, out, nil
}

// readCodec and readsCodec spare fs.read and fs.reads encoding/json's
// reflection on the host: the request decoded, the answer written, field
// by field (sdk/abi's DecodeReadRequest and AppendReadResult).
var (
	readCodec  = hostfns.Codec[abi.ReadRequest, abi.ReadResult]{Decode: abi.DecodeReadRequest, Append: abi.AppendReadResult}
	readsCodec = hostfns.Codec[abi.ReadsRequest, abi.ReadsResult]{Decode: abi.DecodeReadsRequest, Append: appendReadsResult}
)

// appendReadsResult is json.Marshal's {"reads":n}.
func appendReadsResult(b []byte, r *abi.ReadsResult) ([]byte, bool) {
	if r.Error != nil {
		return b, false
	}
	return append(strconv.AppendInt(append(b, `{"reads":`...), int64(r.Reads), 10), '}'), true
}
