package record_test

import (
	"fmt"
	"strconv"
)

func fmtSscan(s string, f *float64) (int, error) { return fmt.Sscan(s, f) }

func itoa(n int) string { return strconv.Itoa(n) }
