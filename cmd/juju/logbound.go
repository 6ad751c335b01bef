package main

import (
	"fmt"
	"log/slog"
	"strconv"
	"unicode/utf8"
)

// maxLogValue bounds each value of a log line, in bytes: a path, an
// argument or an error as long as a real one is logged whole (PATH_MAX is
// 4,096, and most are far shorter), while a 10 MB path from a call, logged
// in the path and again in the error, made a 20 MB line.
const maxLogValue = 2000

// boundValue is the loggers' ReplaceAttr: a string value, or an error's or
// any other value's text, longer than maxLogValue keeps its start and end
// (an error's cause, ENAMETOOLONG say, is at its end) around the number
// of bytes left out.
func boundValue(_ []string, a slog.Attr) slog.Attr {
	switch v := a.Value; v.Kind() {
	case slog.KindString:
		if s := v.String(); len(s) > maxLogValue {
			a.Value = slog.StringValue(cutMiddle(s, maxLogValue))
		}
	case slog.KindAny:
		var s string
		switch x := v.Any().(type) {
		case error:
			s = x.Error()
		case fmt.Stringer:
			s = x.String()
		case []string:
			s = fmt.Sprint(x)
		default:
			return a
		}
		if len(s) > maxLogValue {
			a.Value = slog.StringValue(cutMiddle(s, maxLogValue))
		}
	}
	return a
}

// cutMiddle keeps about n bytes of s, its first and last halves, cut at
// characters.
func cutMiddle(s string, n int) string {
	head, tail := n/2, len(s)-n/2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + "…(" + strconv.Itoa(tail-head) + " bytes left out)…" + s[tail:]
}
