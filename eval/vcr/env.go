package vcr

import (
	"encoding/json"
	"strings"
)

// Mismatch is what alone separates a request that missed from the recorded
// one closest to it, when it is the environment's doing rather than the
// code's: the model the request names, or the base URL one service was
// recorded under. Setting one variable fixes it; nothing needs recording.
type Mismatch struct {
	// Model is set when only the request's "model" differs: Recorded and
	// Live are the two names.
	Model bool
	// Service is set when only a base URL differs: that of the request
	// itself, or one the model was shown in a failure's text. Recorded is
	// the base URL the recording used, which the replay does not know.
	Service string
	// Recorded and Live are the recording's value and the replay's.
	Recorded, Live string
}

// environmental works out whether only the environment separates the live
// request (method and target URL, canonical body) from interaction i: a
// model name, or a base URL no service list of the replay holds. The
// caller holds r.mu.
func (r *Replayer) environmental(i int, method, target, live string) (Mismatch, bool) {
	in := &r.ints[i]
	rec := r.canonicalBody(i)
	liveLine := route(method, target, r.svcs)
	if r.lines[i] == liveLine {
		if recModel, liveModel, ok := modelOnly(rec, live, r.drop); ok {
			return Mismatch{Model: true, Recorded: recModel, Live: liveModel}, true
		}
	}
	// A base URL: try each URL the recording holds (the request's own, and
	// those in its body) under no known service as the base of each
	// service, cut at each of its path's slashes.
	raw := r.recordedBody(i)
	for _, u := range append([]string{in.URL}, urlsIn(raw)...) {
		if _, _, known := under(locator(u), r.svcs); known {
			continue
		}
		base := u
		if j := strings.IndexAny(base, "?#"); j >= 0 {
			base = base[:j]
		}
		for _, name := range r.serviceNames() {
			for b := base; ; {
				j := strings.LastIndexByte(b, '/')
				if j <= strings.Index(b, "://")+2 {
					break
				}
				b = b[:j]
				svcs := append(services([]Service{{Name: name, Base: b}}), r.svcs...)
				if route(in.Method, in.URL, svcs) == liveLine &&
					rebase(canonicalString(raw, r.drop), svcs) == live {
					return Mismatch{Service: name, Recorded: b, Live: r.liveBase(name)}, true
				}
			}
		}
	}
	return Mismatch{}, false
}

// serviceNames are the names of the replay's services, each once.
func (r *Replayer) serviceNames() []string {
	var out []string
	for _, s := range r.svcs {
		if !contains(out, s.name) {
			out = append(out, s.name)
		}
	}
	return out
}

// liveBase is the replay's own base URL of a service, as ReplayOptions
// gives it ("" when it gives none).
func (r *Replayer) liveBase(name string) string {
	return r.opts.Bases[name]
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// modelOnly reports whether two canonical JSON bodies differ only in their
// top-level "model", and returns the two.
func modelOnly(rec, live string, drop []string) (string, string, bool) {
	var a, b map[string]json.RawMessage
	if json.Unmarshal([]byte(rec), &a) != nil || json.Unmarshal([]byte(live), &b) != nil {
		return "", "", false
	}
	var ma, mb string
	if json.Unmarshal(a["model"], &ma) != nil || json.Unmarshal(b["model"], &mb) != nil || ma == mb {
		return "", "", false
	}
	a["model"] = b["model"]
	same, err := json.Marshal(a)
	if err != nil || canonicalString(string(same), drop) != live {
		return "", "", false
	}
	return ma, mb, true
}

// urlsIn lists the http(s) URLs in s.
func urlsIn(s string) []string {
	var out []string
	for from := 0; ; {
		i := strings.Index(s[from:], "://")
		if i < 0 {
			return out
		}
		i += from
		start := i
		for start > 0 && isSchemeByte(s[start-1]) {
			start--
		}
		end := i + 3
		for end < len(s) && isURLByte(s[end]) {
			end++
		}
		for end > i+3 && strings.IndexByte(":.,;", s[end-1]) >= 0 {
			end--
		}
		if sc := strings.ToLower(s[start:i]); sc == "http" || sc == "https" {
			if !contains(out, s[start:end]) {
				out = append(out, s[start:end])
			}
		}
		from = end
	}
}
