package answer

import "testing"

// Cases from RFC 3339 §5.8 and the JSON-Schema test suite's date-time
// format tests (tests/draft2020-12/optional/format/date-time.json).
func TestValidRFC3339(t *testing.T) {
	for s, want := range map[string]bool{
		// RFC 3339 §5.8, every example.
		"1985-04-12T23:20:50.52Z":      true,
		"1996-12-19T16:39:57-08:00":    true,
		"1990-12-31T23:59:60Z":         true,
		"1990-12-31T15:59:60-08:00":    true,
		"1937-01-01T12:00:27.87+00:20": true,
		// JSON-Schema test suite.
		"1963-06-19T08:30:06.283185Z":      true,
		"1963-06-19t08:30:06.283185z":      true, // case-insensitive T and Z
		"1998-12-31T23:59:60Z":             true,
		"1998-12-31T15:59:60.123-08:00":    true,
		"1998-12-31T23:59:61Z":             false,
		"1998-12-31T23:58:60Z":             false,
		"1998-12-31T22:59:60Z":             false,
		"1998-12-31T15:59:60.123-07:00":    false,
		"1990-02-31T15:59:59.123-08:00":    false,
		"1990-12-31T15:59:59-24:00":        false,
		"1963-06-19T08:30:06.28123+01:00Z": false,
		"06/19/1963 08:30:06 PST":          false,
		"2013-350T01:01:01":                false,
		"1963-6-19T08:30:06.283185Z":       false,
		"1963-06-1T08:30:06.283185Z":       false,
		"1963-06-1৪T00:00:00Z":             false,
		"1963-06-11T0৪:00:00Z":             false,
		"":                                 false,
		"2022-03-21":                       false,
		"2022-03-21 10:12:00Z":             false,
		// Round 3: ISO 8601's comma before fractional seconds is not RFC
		// 3339's time-secfrac ("." 1*DIGIT, RFC 3339 §5.6).
		"2020-12-08T11:23:45,250Z":      false,
		"2020-12-08T11:23:45,250+01:00": false,
		"2020-12-08T11:23:45.250Z":      true,
	} {
		if got := ValidRFC3339(s); got != want {
			t.Errorf("ValidRFC3339(%q) = %v, want %v", s, got, want)
		}
	}
}
