package text

import (
	"cmp"
	"slices"
)

// The closest-candidate search behind NO_MATCH. oldString's lines are
// compared with every window of as many lines of the file, by similarity:
// each line is reduced to its letters without white space and case, cut
// into byte trigrams (padded at both ends, so a short line has one), and
// two lines are as alike as the Dice coefficient of their trigrams (1 when
// they are equal once reduced). A window's score is the mean of its lines'
// similarities, weighted by each old line's length.
//
// The search is one pass over the file: an index maps each trigram of
// oldString to the old lines holding it, and each file line j that shares
// trigrams with old line i adds to the window starting at j-i. Its cost
// grows with the file's size times how many old lines share a trigram, so
// only the most telling lines of a long oldString are scored and the
// visits are bounded.

const (
	// maxScoredLines is how many of oldString's lines are scored: the
	// longest ones, whose trigrams say the most.
	maxScoredLines = 16
	// maxCandidateWork bounds the index visits; the scan stops there and
	// keeps what it found.
	maxCandidateWork = 8_000_000
	// minResemblance is the score under which nothing resembles oldString.
	minResemblance = 0.3
	// maxCandidates is how many windows are reported: the best and others
	// nearly as good that do not overlap it.
	maxCandidates = 3
)

// candidate is a window of the file's lines like oldString's.
type candidate struct {
	start int // the window's first line, 0-based
}

// shiftedWeight is what an old line counts for when it is found one line above
// or below its place in a window: a line too many or too few on one side
// does not lose the rest of the window.
const shiftedWeight = 0.9

// closest returns the windows of len(ol) lines of fl most like ol, best
// first (none when nothing resembles ol).
func closest(fl, ol []string) []candidate {
	last := max(len(fl)-len(ol), 0)
	idx, total := newGramIndex(ol)
	if total == 0 {
		return nil
	}
	k := len(idx.lines)
	shift := float32(shiftedWeight)
	if k == 1 {
		shift = 0 // one line: each window is its own place
	}
	win := make([]float32, last+1)
	// The similarities of the last three file lines to each old line, and
	// which old lines each touched: file line c's contribution to a window
	// is settled once line c+1 is scanned.
	var sims [3][]float32
	var touched [3][]int32
	for r := range sims {
		sims[r] = make([]float32, k)
	}
	stamp := make([]int32, k)
	cnt := make([]int32, k)
	settle := func(c int) { // c's contributions, line c+1 scanned
		for _, t := range [3]int{c - 1, c, c + 1} {
			if t < 0 {
				continue
			}
			for _, o := range touched[t%3] {
				if stamp[o] == int32(c+1) {
					continue
				}
				stamp[o] = int32(c + 1)
				v := sims[c%3][o]
				if c > 0 {
					v = max(v, shift*sims[(c-1)%3][o])
				}
				v = max(v, shift*sims[(c+1)%3][o])
				if s := c - idx.lines[o].at; s >= 0 && s <= last {
					win[s] += v * idx.lines[o].weight
				}
			}
		}
	}
	work := 0
	n := len(fl)
	for j, line := range fl {
		if work > maxCandidateWork {
			n = j
			break
		}
		r := j % 3
		for _, o := range touched[r] { // line j-3's, settled
			sims[r][o] = 0
		}
		touched[r] = touched[r][:0]
		// The loop of lineScan.next, inlined: this is the hot path.
		roll, have, grams, size, sum := uint32(0), 1, 0, 0, uint64(fnvOffset)
		for i := 0; i <= len(line); i++ {
			var c byte
			if i < len(line) {
				c = reduced[line[i]]
				if c == blank {
					continue
				}
				size++
				sum = (sum ^ uint64(c)) * fnvPrime
			}
			roll = (roll<<8 | uint32(c)) & 0xffffff
			if have++; have < 3 {
				continue
			}
			grams++
			slot := idx.find(roll)
			if slot < 0 || idx.seen[slot] == int32(j+1) {
				continue
			}
			idx.seen[slot] = int32(j + 1)
			for _, o := range idx.post[idx.from[slot]:idx.from[slot+1]] {
				if cnt[o] == 0 {
					touched[r] = append(touched[r], o)
				}
				cnt[o]++
				work++
			}
		}
		for _, o := range touched[r] {
			ln := &idx.lines[o]
			sim := float32(1)
			if sum != ln.hash || size != ln.size {
				sim = min(2*float32(cnt[o])/float32(grams+ln.grams), 0.99)
			}
			sims[r][o] = sim
			cnt[o] = 0
		}
		if j > 0 {
			settle(j - 1)
		}
	}
	if n > 0 { // the last line, with nothing after it
		r := n % 3
		for _, o := range touched[r] {
			sims[r][o] = 0
		}
		touched[r] = touched[r][:0]
		settle(n - 1)
	}
	return best(win, len(ol), total)
}

// best picks the highest windows: the best one and up to
// maxCandidates-1 others scoring at least 90% of it, none overlapping a
// window picked before.
func best(win []float32, span int, total float32) []candidate {
	top := 0
	for s, v := range win {
		if v > win[top] {
			top = s
		}
	}
	if win[top]/total < minResemblance {
		return nil
	}
	out := []candidate{{top}}
	var near []int
	for s, v := range win {
		if v >= 0.9*win[top] && s != top {
			near = append(near, s)
		}
	}
	slices.SortStableFunc(near, func(a, b int) int { return cmp.Compare(win[b], win[a]) })
	for _, s := range near {
		if len(out) == maxCandidates {
			break
		}
		if !slices.ContainsFunc(out, func(c candidate) bool { return s < c.start+span && c.start < s+span }) {
			out = append(out, candidate{s})
		}
	}
	return out
}

// oldLine is one scored line of oldString.
type oldLine struct {
	at     int     // its index in oldString's lines
	grams  int     // its trigram count
	size   int     // its reduced length
	hash   uint64  // its reduced text's hash
	weight float32 // its share of the score (its length)
}

// gramIndex maps the trigrams of oldString's scored lines to those lines:
// an open-addressing table of trigrams, each slot owning post[from[slot]:
// from[slot+1]], and seen, the last file line that visited the slot (a
// file line counts each trigram once).
type gramIndex struct {
	lines []oldLine
	mask  uint32
	bits  [1024]uint64 // a filter: bit (g's hash)>>16 set for every trigram g held
	keys  []uint32     // trigram+1; 0 is an empty slot
	from  []int32
	post  []int32
	seen  []int32
}

// newGramIndex indexes ol's most telling lines and returns the index and
// the sum of their weights (0 when no line has a letter).
func newGramIndex(ol []string) (*gramIndex, float32) {
	var sc lineScan
	var lines []oldLine
	grams := map[uint32][]int32{}
	for i, s := range ol {
		sc.reset(s)
		n := 0
		for _, ok := sc.next(); ok; _, ok = sc.next() {
			n++
		}
		if sc.size > 0 {
			lines = append(lines, oldLine{at: i, grams: n, size: sc.size, hash: sc.sum, weight: float32(n)})
		}
	}
	if len(lines) > maxScoredLines {
		slices.SortStableFunc(lines, func(a, b oldLine) int { return cmp.Compare(b.grams, a.grams) })
		lines = lines[:maxScoredLines]
		slices.SortFunc(lines, func(a, b oldLine) int { return cmp.Compare(a.at, b.at) })
	}
	var total float32
	for k, ln := range lines {
		total += ln.weight
		sc.reset(ol[ln.at])
		for g, ok := sc.next(); ok; g, ok = sc.next() {
			if p := grams[g]; len(p) == 0 || p[len(p)-1] != int32(k) {
				grams[g] = append(p, int32(k))
			}
		}
	}
	size := 1
	for size < 2*len(grams) {
		size <<= 1
	}
	x := &gramIndex{lines: lines, mask: uint32(size - 1), keys: make([]uint32, size), from: make([]int32, size+1), seen: make([]int32, size)}
	for g := range grams {
		x.keys[x.slot(g)] = g + 1
		h := g * 0x9e3779b1 >> 16
		x.bits[h>>6] |= 1 << (h & 63)
	}
	for s, key := range x.keys {
		x.from[s] = int32(len(x.post))
		if key != 0 {
			x.post = append(x.post, grams[key-1]...)
		}
	}
	x.from[size] = int32(len(x.post))
	return x, total
}

// slot is where g is or would go.
func (x *gramIndex) slot(g uint32) int {
	s := (g * 0x9e3779b1) >> 7 & x.mask
	for x.keys[s] != 0 && x.keys[s] != g+1 {
		s = (s + 1) & x.mask
	}
	return int(s)
}

// find returns g's slot, or -1.
func (x *gramIndex) find(g uint32) int {
	if h := g * 0x9e3779b1 >> 16; x.bits[h>>6]&(1<<(h&63)) == 0 {
		return -1 // most of a file's trigrams: one load, no probe
	}
	s := x.slot(g)
	if x.keys[s] == 0 {
		return -1
	}
	return s
}

// lineScan cuts a line into the trigrams of its reduced form (white space
// dropped, ASCII letters lowered, a zero byte before and after), and
// hashes that form (FNV-1a) along the way. closest inlines the same loop.
type lineScan struct {
	line string
	i    int    // next byte of line
	roll uint32 // the last bytes pushed
	have int    // how many bytes were pushed
	done bool   // the closing zero byte was pushed
	size int    // reduced bytes so far
	sum  uint64 // their hash
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
	blank     = 0xff // in reduced: a byte the reduced form drops
)

// reduced maps a byte to its reduced form: ASCII letters lowered, white
// space dropped (blank). No byte of UTF-8 text is 0xff, so blank is free.
var reduced = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = byte(c) + 'a' - 'A'
	}
	for _, c := range []byte(" \t\r\v\f\xff") {
		t[c] = blank
	}
	return t
}()

func (sc *lineScan) reset(line string) {
	*sc = lineScan{line: line, have: 1, sum: fnvOffset}
}

// next returns the next trigram, or false at the end of the line.
func (sc *lineScan) next() (uint32, bool) {
	for !sc.done {
		var c byte
		if sc.i < len(sc.line) {
			c = reduced[sc.line[sc.i]]
			sc.i++
			if c == blank {
				continue
			}
			sc.size++
			sc.sum = (sc.sum ^ uint64(c)) * fnvPrime
		} else {
			sc.done = true
		}
		sc.roll = (sc.roll<<8 | uint32(c)) & 0xffffff
		sc.have++
		if sc.have >= 3 {
			return sc.roll, true
		}
	}
	return 0, false
}
