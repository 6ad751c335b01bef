package test

import (
	"io"
	"strings"
)

func jsonReader(s string) io.Reader { return strings.NewReader(s) }
