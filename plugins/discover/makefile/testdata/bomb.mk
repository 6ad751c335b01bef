A0 = xxxxxxxxxx xxxxxxxxxx xxxxxxxxxx xxxxxxxxxx xxxxxxxxxx xxxxxxxxxx xxxxxxxxxx xxxxxxxxxx xxxxxxxxxx xxxxxxxxxx
A1 = $(A0)$(A0)$(A0)$(A0)$(A0)$(A0)$(A0)$(A0)$(A0)$(A0)
A2 = $(A1)$(A1)$(A1)$(A1)$(A1)$(A1)$(A1)$(A1)$(A1)$(A1)
A3 = $(A2)$(A2)$(A2)$(A2)$(A2)$(A2)$(A2)$(A2)$(A2)$(A2)
A4 = $(A3)$(A3)$(A3)$(A3)$(A3)$(A3)$(A3)$(A3)$(A3)$(A3)
A5 = $(A4)$(A4)$(A4)$(A4)$(A4)$(A4)$(A4)$(A4)$(A4)$(A4)
A6 = $(A5)$(A5)$(A5)$(A5)$(A5)$(A5)$(A5)$(A5)$(A5)$(A5)
A7 = $(A6)$(A6)$(A6)$(A6)$(A6)$(A6)$(A6)$(A6)$(A6)$(A6)
A8 = $(A7)$(A7)$(A7)$(A7)$(A7)$(A7)$(A7)$(A7)$(A7)$(A7)
A9 = $(A8)$(A8)$(A8)$(A8)$(A8)$(A8)$(A8)$(A8)$(A8)$(A8)
include $(A9)
.PHONY: build
build:
	echo hi
