// Package vcr records the orchestrator's HTTP traffic into go-vcr v4
// cassettes and replays it, so the harness can run every case of a dataset
// exactly, fast and without the network.
//
// In the pipeline it sits under the orchestrator: the chat, Tavily and Exa
// clients all send through one http.RoundTripper, which is either a
// *Recording (live services, or the loopback simulator through Redirect) or a
// *Replayer (CI). Requests match on method, URL and the canonical JSON body
// (CanonicalBody); headers never take part, so SDK headers and scrubbed
// credentials do not break replay. Each recorded interaction replays once, in
// the order requests match it, and a request with no match fails with a
// *MissError that shows how it differs from the closest recorded one.
//
// Cassettes stay plain go-vcr `version: 2` files: one per case and prompt
// variant (Path), scrubbed of secrets before they are written, written
// atomically, and byte-identical across deterministic recordings.
package vcr

import (
	"path/filepath"
	"strings"
)

// Redacted replaces every secret in a cassette: credential headers, echoed
// key values and the like.
const Redacted = "REDACTED"

// Ext is the file extension of a cassette. go-vcr appends it to a cassette
// name, so cassette paths must end with it.
const Ext = ".yaml"

// DefaultVolatile lists the top-level JSON request fields that never take
// part in matching unless options say otherwise: they identify the caller,
// not the question.
var DefaultVolatile = []string{"user"}

// SecretFields are JSON body fields holding credentials. CanonicalBody drops
// them at any depth, so they are never written and never matched on.
var SecretFields = []string{"api_key"}

// secretHeaders are request and response headers whose values are always
// replaced with Redacted.
var secretHeaders = []string{
	"Authorization",
	"Proxy-Authorization",
	"X-Api-Key",
	"Api-Key",
	"Cookie",
	"Set-Cookie",
}

// Path returns a cassette file: root/<elem>/…/<last elem>.yaml, in
// searchbench's layout root/<variant>/<mode>/<dataset>/<caseID>.yaml. Each
// component is escaped so that
// it stays a single path element: bytes outside [A-Za-z0-9._-] and a leading
// dot become %XX, and an empty component becomes "%" (which escaping never
// produces). Distinct ids therefore give distinct files, and no id can climb
// out of root.
func Path(root string, elem ...string) string {
	parts := []string{root}
	for i, e := range elem {
		e = escapeElem(e)
		if i == len(elem)-1 {
			e += Ext
		}
		parts = append(parts, e)
	}
	return filepath.Join(parts...)
}

// Dir returns the folder root/<elem>/… with each component escaped as by
// Path.
func Dir(root string, elem ...string) string {
	parts := []string{root}
	for _, e := range elem {
		parts = append(parts, escapeElem(e))
	}
	return filepath.Join(parts...)
}

func escapeElem(s string) string {
	if s == "" {
		return "%"
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		safe := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '-' || c == '_' || c == '.' && i > 0
		if safe {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// cassetteName turns a cassette path into the name go-vcr expects (it adds
// Ext itself).
func cassetteName(path string) (string, bool) {
	name, ok := strings.CutSuffix(path, Ext)
	return name, ok && name != ""
}
