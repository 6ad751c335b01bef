package main

import (
	"slices"
	"time"
)

// sample is a set of timings of one piece of work.
type sample []time.Duration

// stat summarises a sample in the unit of its row.
type stat struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	P90    float64 `json:"p90"`
	N      int     `json:"n"`
}

// summary returns the sample's median, minimum and 90th percentile in
// milliseconds.
func (s sample) summary() *stat {
	if len(s) == 0 {
		return nil
	}
	sorted := slices.Clone(s)
	slices.Sort(sorted)
	return &stat{
		Median: ms(median(sorted)),
		Min:    ms(sorted[0]),
		P90:    ms(sorted[(9*len(sorted)+9)/10-1]), // nearest rank
		N:      len(sorted),
	}
}

// median of a sorted, non-empty sample.
func median(sorted []time.Duration) time.Duration {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// single is a stat of one measurement that has no spread (a peak, a count).
func single(v float64) *stat { return &stat{Median: v, Min: v, P90: v, N: 1} }
