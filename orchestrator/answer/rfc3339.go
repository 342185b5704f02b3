package answer

import (
	"errors"
	"strings"
	"time"
)

// ValidRFC3339 reports whether s is an RFC 3339 date-time (§5.6), as the
// JSON-Schema "date-time" format reads it:
//   - "T" and "Z" may be lower case (§5.6, NOTE);
//   - a leap second (seconds 60) is valid when it falls on 23:59:60 UTC,
//     the only minute a leap second can be inserted in (§5.7), so
//     1990-12-31T15:59:60-08:00 is valid and 1990-12-31T22:59:60Z is not;
//   - the offset is Z or ±hh:mm; a space in place of T is not accepted;
//   - a fractional second follows a full stop (time-secfrac = "." 1*DIGIT):
//     "11:23:45,250Z" is ISO 8601 but not RFC 3339.
//
// Go's time.RFC3339 layout takes only upper case and no leap second, and Go's
// parser accepts a comma before fractional seconds.
func ValidRFC3339(s string) bool {
	_, err := parseRFC3339(s)
	return err == nil
}

func parseRFC3339(s string) (time.Time, error) {
	// Only T and Z are letters in a date-time, so upper-casing changes
	// nothing else. Go's parser would accept a few non-RFC forms (a
	// one-digit hour); the fixed positions are checked first.
	u := strings.ToUpper(s)
	if len(u) < len("2006-01-02T15:04:05Z") || u[4] != '-' || u[7] != '-' || u[10] != 'T' || u[13] != ':' || u[16] != ':' {
		return time.Time{}, errors.New("not an RFC 3339 date-time")
	}
	if u[19] == ',' {
		return time.Time{}, errors.New("fractional seconds follow a comma, not a full stop")
	}
	if off := u[len(u)-1]; off != 'Z' {
		// ±hh:mm with hh ≤ 23 and mm ≤ 59 (time-numoffset); Go takes 24.
		o := u[len(u)-6:]
		if (o[0] != '+' && o[0] != '-') || o[3] != ':' || o[1] > '2' || (o[1] == '2' && o[2] > '3') || o[4] > '5' {
			return time.Time{}, errors.New("bad offset")
		}
	}
	leap := u[17:19] == "60"
	if leap {
		u = u[:17] + "59" + u[19:]
	}
	t, err := time.Parse(time.RFC3339Nano, u)
	if err != nil {
		return time.Time{}, err
	}
	if leap {
		if utc := t.UTC(); utc.Hour() != 23 || utc.Minute() != 59 {
			return time.Time{}, errors.New("a leap second falls on 23:59:60 UTC only")
		}
	}
	return t, nil
}
