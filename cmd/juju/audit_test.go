package main

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 1, 2, 15, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
		bad  bool
	}{
		{"", time.Time{}, false},
		{"90m", now.Add(-90 * time.Minute), false},
		{"2h", now.Add(-2 * time.Hour), false},
		{"3d", now.Add(-72 * time.Hour), false},
		{"2026-01-01T10:00:00Z", time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC), false},
		{"-2h", time.Time{}, true},
		{"yesterday", time.Time{}, true},
	}
	for _, tt := range tests {
		got, err := parseSince(tt.in, now)
		if tt.bad {
			var u usageError
			if !errors.As(err, &u) {
				t.Errorf("parseSince(%q) = %v, %v; want a usage error", tt.in, got, err)
			}
			continue
		}
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestApprovalsEmpty(t *testing.T) {
	jujuHome(t)
	var out bytes.Buffer
	if err := runApprovalsList(&out, &approvalsOptions{}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if out.String() != "Nothing waits for your approval.\n" {
		t.Errorf("empty list: %q", out.String())
	}
	out.Reset()
	if err := runApprovalsList(&out, &approvalsOptions{json: true}, time.Now()); err != nil || out.String() != "[]\n" {
		t.Errorf("empty JSON: %q %v", out.String(), err)
	}
	if err := runApprovalDecide(&out, "abcdefgh", true); err == nil {
		t.Error("approving an unknown id succeeded")
	}
}
