package text

// The alignment behind a NO_MATCH explanation: oldString's lines against
// the file's lines around the closest window, matched as the longest
// common subsequence of their reduced forms (white space and case
// ignored). What lies between two matched lines is a changed line when
// both sides have one, or a line only one side has.

const (
	// alignPad is how many file lines around the window the alignment may
	// take in, for lines oldString lacks.
	alignPad = 2
	// maxAligned bounds oldString's lines aligned (a table of that many
	// times as many lines plus 2*alignPad); longer ones are compared line
	// by line in place.
	maxAligned = 400
)

// lineEvent is one difference between oldString and the file.
type lineEvent struct {
	kind int // changed, oldOnly or fileOnly
	old  int // oldString's line (changed, oldOnly), 0-based
	file int // the file's line (changed, fileOnly), or the one an oldOnly line would precede
}

const (
	changed  = iota // the lines differ
	oldOnly         // oldString has a line the file does not
	fileOnly        // the file has a line oldString does not
)

// alignment is oldString's place in the file and how they differ.
type alignment struct {
	first, last int // the file's lines it spans, 0-based, inclusive
	events      []lineEvent
}

// align compares ol with the file around the window starting at start.
func align(fl, ol []string, start int) alignment {
	lines := realLines(fl)
	if len(ol) > maxAligned {
		return inPlace(fl, ol, start, lines)
	}
	a, b := max(start-alignPad, 0), min(start+len(ol)+alignPad, lines)
	ro := make([]string, len(ol))
	for i, s := range ol {
		ro[i] = reduce(s)
	}
	rf := make([]string, b-a)
	for j := range rf {
		rf[j] = reduce(fl[a+j])
	}
	// lcs[i][j]: the longest common subsequence of ro[i:] and rf[j:].
	w := len(rf) + 1
	lcs := make([]int32, (len(ro)+1)*w)
	for i := len(ro) - 1; i >= 0; i-- {
		for j := len(rf) - 1; j >= 0; j-- {
			switch {
			case ro[i] == rf[j] && ro[i] != "":
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			default:
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	var pairs [][2]int // matched (old, file) lines
	for i, j := 0, 0; i < len(ro) && j < len(rf); {
		switch {
		case ro[i] == rf[j] && ro[i] != "" && lcs[i*w+j] == lcs[(i+1)*w+j+1]+1:
			pairs = append(pairs, [2]int{i, a + j})
			i, j = i+1, j+1
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	if len(pairs) == 0 {
		return inPlace(fl, ol, start, lines)
	}
	var al alignment
	al.first, al.last = pairs[0][1], pairs[len(pairs)-1][1]
	// Before the first match: pair from the match backwards; file lines
	// left over lie outside the window.
	i0, j0 := pairs[0][0], pairs[0][1]
	n := min(i0, j0-a)
	for t := 0; t < i0-n; t++ {
		al.events = append(al.events, lineEvent{kind: oldOnly, old: t, file: j0 - n})
	}
	for t := 0; t < n; t++ {
		al.pair(fl, ol, i0-n+t, j0-n+t)
	}
	for p, m := range pairs {
		al.pair(fl, ol, m[0], m[1])
		i1, j1 := len(ol), b // after the last match
		if p+1 < len(pairs) {
			i1, j1 = pairs[p+1][0], pairs[p+1][1]
		}
		oi, fj := m[0]+1, m[1]+1
		for oi < i1 && fj < j1 { // changed lines
			al.pair(fl, ol, oi, fj)
			oi, fj = oi+1, fj+1
		}
		for ; oi < i1; oi++ {
			al.events = append(al.events, lineEvent{kind: oldOnly, old: oi, file: fj})
		}
		for ; fj < j1 && p+1 < len(pairs); fj++ { // after the last match: outside
			al.events = append(al.events, lineEvent{kind: fileOnly, file: fj})
			al.last = max(al.last, fj)
		}
	}
	return al
}

// realLines is how many lines fl holds: what follows the last line end,
// when it is empty, is no line.
func realLines(fl []string) int {
	if n := len(fl); n > 1 && fl[n-1] == "" {
		return n - 1
	}
	return len(fl)
}

// pair records old's line i against the file's line j: a change when they
// differ, and j as part of the window either way.
func (al *alignment) pair(fl, ol []string, i, j int) {
	al.first, al.last = min(al.first, j), max(al.last, j)
	if fl[j] != ol[i] {
		al.events = append(al.events, lineEvent{kind: changed, old: i, file: j})
	}
}

// inPlace compares ol with the window line by line.
func inPlace(fl, ol []string, start, lines int) alignment {
	al := alignment{first: start, last: start}
	for i := range ol {
		j := start + i
		if j >= lines && (j >= len(fl) || fl[j] != ol[i]) {
			al.events = append(al.events, lineEvent{kind: oldOnly, old: i, file: lines})
			continue
		}
		al.pair(fl, ol, i, j)
	}
	return al
}
