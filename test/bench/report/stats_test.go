package main

import (
	"testing"
	"time"
)

func TestSummary(t *testing.T) {
	for _, c := range []struct {
		in            []int // milliseconds
		med, min, p90 float64
	}{
		{[]int{5}, 5, 5, 5},
		{[]int{3, 1, 2}, 2, 1, 3},
		{[]int{4, 1, 3, 2}, 2.5, 1, 4},
		{[]int{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 5.5, 1, 9},
	} {
		var s sample
		for _, v := range c.in {
			s = append(s, time.Duration(v)*time.Millisecond)
		}
		got := s.summary()
		if got.Median != c.med || got.Min != c.min || got.P90 != c.p90 || got.N != len(c.in) {
			t.Errorf("%v: got %+v, want median %v min %v p90 %v", c.in, got, c.med, c.min, c.p90)
		}
	}
	if (sample{}).summary() != nil {
		t.Error("an empty sample has no summary")
	}
}

func TestJudge(t *testing.T) {
	for _, c := range []struct {
		r    row
		ok   bool
		want float64
	}{
		{row{Juju: single(20), Baseline: single(10), Target: target{Limit: 30}}, true, 2},
		{row{Juju: single(40), Baseline: single(10), Target: target{Limit: 30}}, false, 4},
		{row{Juju: single(3), Baseline: single(2), Target: target{Limit: 2, OnRatio: true}}, true, 1.5},
		{row{Juju: single(5), Baseline: single(2), Target: target{Limit: 2, OnRatio: true}}, false, 2.5},
		{row{Juju: single(300), Baseline: single(600), Target: target{Limit: 200, AtLeast: true}}, true, 0.5},
		{row{Juju: single(150), Baseline: single(600), Target: target{Limit: 200, AtLeast: true}}, false, 0.25},
		{row{Juju: single(1), Baseline: single(2), Target: target{Limit: 3, MaxRatio: 0.67}}, true, 0.5},
		{row{Juju: single(2), Baseline: single(2), Target: target{Limit: 3, MaxRatio: 0.67}}, false, 1},
	} {
		c.r.judge()
		if c.r.OK != c.ok || c.r.Ratio != c.want {
			t.Errorf("%+v: ok %v ratio %v, want %v %v", c.r.Target, c.r.OK, c.r.Ratio, c.ok, c.want)
		}
	}
}

func TestFigure(t *testing.T) {
	for _, c := range []struct {
		v    float64
		unit string
		want string
	}{
		{0.0042, "ms", "4.2 µs"},
		{0.123, "ms", "0.123 ms"},
		{1.5, "ms", "1.50 ms"},
		{12.34, "ms", "12.3 ms"},
		{1234, "ms", "1234 ms"},
		{45.67, "MB", "45.7 MB"},
		{1234.4, "MB/s", "1234 MB/s"},
	} {
		if got := figure(single(c.v), c.unit); got != c.want {
			t.Errorf("figure(%v %s) = %q, want %q", c.v, c.unit, got, c.want)
		}
	}
	for tg, want := range map[target]string{
		{Limit: 1500}:                 "< 1.5 s",
		{Limit: 200, AtLeast: true}:   ">= 200 MB/s",
		{Limit: 3, MaxRatio: 1 / 1.5}: "< 3 ms, ratio <= 0.67x",
	} {
		unit := "ms"
		if tg.AtLeast {
			unit = "MB/s"
		}
		if got := tg.String(unit); got != want {
			t.Errorf("target %q, want %q", got, want)
		}
	}
}
