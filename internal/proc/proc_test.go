package proc

import "testing"

func TestCapped(t *testing.T) {
	c := NewCapped(5)
	c.Write([]byte("abc"))
	c.Write([]byte("defg"))
	if c.String() != "abcde" || !c.Cut {
		t.Errorf("%q %v", c.String(), c.Cut)
	}
}
