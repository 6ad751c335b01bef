package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// target is a SPEC §11 goal: juju's median (or its ratio to the baseline)
// must stay under Limit (or, with AtLeast, reach it); with MaxRatio the
// ratio to the baseline must also stay at or under MaxRatio.
type target struct {
	Limit    float64 `json:"limit"`
	OnRatio  bool    `json:"onRatio,omitempty"`  // the goal bounds the ratio, not the figure
	AtLeast  bool    `json:"atLeast,omitempty"`  // the figure must reach Limit (a throughput)
	MaxRatio float64 `json:"maxRatio,omitempty"` // and the ratio must stay at or under this
}

// row is one line of the report.
type row struct {
	ID       string  `json:"id"`
	Work     string  `json:"work"`
	Unit     string  `json:"unit"` // "ms" or "MB"
	Juju     *stat   `json:"juju"`
	Baseline *stat   `json:"baseline,omitempty"`
	Against  string  `json:"against"`         // what the baseline is
	Via      string  `json:"via"`             // how it was measured
	Ratio    float64 `json:"ratio,omitempty"` // juju median / baseline median
	Target   target  `json:"target"`
	OK       bool    `json:"ok"`
	Note     string  `json:"note,omitempty"`
	Err      string  `json:"error,omitempty"` // the measurement failed
}

// judge fills in the ratio and the verdict.
func (r *row) judge() {
	if r.Juju == nil {
		return
	}
	if r.Baseline != nil && r.Baseline.Median > 0 {
		r.Ratio = r.Juju.Median / r.Baseline.Median
	}
	v := r.Juju.Median
	if r.Target.OnRatio {
		v = r.Ratio
	}
	if r.Target.AtLeast {
		r.OK = v >= r.Target.Limit
	} else {
		r.OK = v > 0 && v < r.Target.Limit
	}
	if r.Target.MaxRatio > 0 && (r.Ratio == 0 || r.Ratio > r.Target.MaxRatio) {
		r.OK = false
	}
}

// report is everything printed.
type report struct {
	Meta  meta     `json:"meta"`
	Rows  []row    `json:"rows"`
	Notes []string `json:"notes,omitempty"`
}

// meta describes the run.
type meta struct {
	Juju     string `json:"juju"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
	CPUs     int    `json:"cpus"`
	Runs     int    `json:"runs"`
	Calls    int    `json:"calls"`
	MaxTime  string `json:"maxTime"`
	GoTree   string `json:"goTree,omitempty"`
	Elapsed  string `json:"elapsed"`
}

// writeJSON prints the report for machines.
func (rep *report) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// writeTable prints the report for people: one table, then how each figure
// was taken.
func (rep *report) writeTable(w io.Writer) error {
	m := rep.Meta
	fmt.Fprintf(w, "juju performance report (SPEC §11): %s, %s %s, %d CPUs; %d runs per spawn figure, up to %d calls (or %s) per steady-state figure; took %s\n\n",
		m.Juju, m.Go, m.Platform, m.CPUs, m.Runs, m.Calls, m.MaxTime, m.Elapsed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\twork\tjuju (median)\tnative baseline (median)\tratio\tSPEC target\tok?")
	for _, r := range rep.Rows {
		ok := "yes"
		if !r.OK {
			ok = "NO"
		}
		if r.Err != "" {
			ok = "FAILED"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Work, figure(r.Juju, r.Unit), figure(r.Baseline, r.Unit), ratio(r.Ratio), r.Target.String(r.Unit), ok)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nStdio figures use raw JSON-RPC lines over pipes, not mcp-go's client, whose own overhead would")
	fmt.Fprintln(w, "dominate sub-millisecond calls. Medians; juju and its baseline alternate within each figure.")
	fmt.Fprintln(w, "\nhow each line was measured (baseline = what juju is compared with):")
	for _, r := range rep.Rows {
		fmt.Fprintf(w, "  %-3s %s; baseline: %s", r.ID, r.Via, r.Against)
		if r.Juju != nil && r.Juju.N > 1 {
			fmt.Fprintf(w, "; juju min %s, p90 %s, n=%d", figure(&stat{Median: r.Juju.Min}, r.Unit), figure(&stat{Median: r.Juju.P90}, r.Unit), r.Juju.N)
		}
		fmt.Fprintln(w)
		if r.Note != "" {
			fmt.Fprintf(w, "      note: %s\n", r.Note)
		}
		if r.Err != "" {
			fmt.Fprintf(w, "      FAILED: %s\n", indent(r.Err, "      "))
		}
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	return nil
}

// figure formats a median in the row's unit with a precision that suits it.
func figure(s *stat, unit string) string {
	if s == nil {
		return "—"
	}
	v := s.Median
	switch {
	case unit == "MB":
		return fmt.Sprintf("%.1f MB", v)
	case unit == "MB/s":
		return fmt.Sprintf("%.0f MB/s", v)
	case v >= 100:
		return fmt.Sprintf("%.0f ms", v)
	case v >= 10:
		return fmt.Sprintf("%.1f ms", v)
	case v >= 1:
		return fmt.Sprintf("%.2f ms", v)
	case v >= 0.01:
		return fmt.Sprintf("%.3f ms", v)
	default:
		return fmt.Sprintf("%.1f µs", v*1000)
	}
}

func ratio(r float64) string {
	if r == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2fx", r)
}

// String formats the goal, e.g. "< 30 ms", "ratio < 2x", ">= 200 MB/s" or
// "< 3 ms, ratio <= 0.67x".
func (t target) String(unit string) string {
	var s string
	switch {
	case t.OnRatio:
		s = fmt.Sprintf("ratio < %gx", t.Limit)
	case t.AtLeast:
		s = fmt.Sprintf(">= %g %s", t.Limit, unit)
	case unit == "ms" && t.Limit >= 1000:
		s = fmt.Sprintf("< %g s", t.Limit/1000)
	default:
		s = fmt.Sprintf("< %g %s", t.Limit, unit)
	}
	if t.MaxRatio > 0 {
		s += fmt.Sprintf(", ratio <= %.2fx", t.MaxRatio)
	}
	return s
}

func indent(s, prefix string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n"+prefix)
}
