package report

import (
	"fmt"
	"math"
	"strconv"

	"github.com/searchbench/searchbench/eval/score"
)

// FormatValue formats a metric's value for people: rates as percentages,
// scores with three decimals, means with their unit.
func FormatValue(m score.Metric) string { return FormatNumber(m.Unit, m.Value) }

// FormatNumber formats v in unit.
func FormatNumber(unit string, v float64) string {
	switch unit {
	case score.UnitRate:
		return fmt.Sprintf("%.1f%%", 100*v)
	case score.UnitScore:
		return fmt.Sprintf("%.3f", v)
	case score.UnitTokens:
		return fmt.Sprintf("%.1f", v)
	case score.UnitMS:
		return fmt.Sprintf("%.0f ms", v)
	case score.UnitUSD:
		return FormatUSD(v)
	}
	return fmt.Sprintf("%.2f", v)
}

// FormatUSD shows dollars: four decimals under $1 (a case costs fractions
// of a cent), two above.
func FormatUSD(v float64) string {
	if math.Abs(v) < 1 {
		return fmt.Sprintf("$%.4f", v)
	}
	return fmt.Sprintf("$%.2f", v)
}

// FormatCI formats a rate's Wilson 95% interval, or "" when it has none.
func FormatCI(m score.Metric) string {
	if m.Unit == score.UnitUSD && m.Den > 1 && m.Hi > 0 {
		if m.Hi >= 1 { // both ends to the cent
			return fmt.Sprintf("$%.2f–$%.2f", m.Lo, m.Hi)
		}
		return FormatUSD(m.Lo) + "–" + FormatUSD(m.Hi)
	}
	if m.Unit != score.UnitRate || m.Den == 0 || (m.Lo == 0 && m.Hi == 0) {
		return ""
	}
	return fmt.Sprintf("%.1f–%.1f%%", 100*m.Lo, 100*m.Hi)
}

// FormatN says what a metric was computed over: "34/40" for a rate, the
// number of cases for a mean; for a rate of a sampled run, whose interval
// counts cases, the cases with the samples in brackets: "68 (265/340)".
func FormatN(m score.Metric) string {
	switch {
	case m.Cases > 0 && m.Unit == score.UnitRate:
		return fmt.Sprintf("%d (%d/%d)", m.Cases, m.Num, m.Den)
	case m.Cases > 0:
		return strconv.Itoa(m.Cases)
	case m.Unit == score.UnitRate:
		return fmt.Sprintf("%d/%d", m.Num, m.Den)
	case m.Den > 0:
		return strconv.Itoa(m.Den)
	}
	return ""
}

// DescribeN is FormatN in words, for a sentence: "265/340 samples of 68
// cases" for a sampled rate, else FormatN.
func DescribeN(m score.Metric) string {
	if m.Cases > 0 && m.Unit == score.UnitRate {
		return fmt.Sprintf("%d/%d samples of %d cases", m.Num, m.Den, m.Cases)
	}
	return FormatN(m)
}
