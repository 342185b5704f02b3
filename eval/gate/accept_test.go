package gate

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
)

// acceptFile is an accept file written against baseline "b1".
func acceptFile(t *testing.T, entries string) *Acceptances {
	t.Helper()
	a, err := LoadAcceptances("gates.accept.yaml", []byte("baseline: b1\naccept:\n"+entries))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

const acceptA = `  - case: routing/a
    scorer: routing
    from: 5/5
    to: 0/5
    reason: the new procedure wins elsewhere, and a goes to Exa
`

// A reviewed trade-off: the violation it names moves to Accepted and the
// verdict line quotes it; anything that does not match exactly is an
// error, never a silent pass.
func TestAcceptances(t *testing.T) {
	y, n := true, false
	five := func(b bool) []bool { return []bool{b, b, b, b, b} }
	base := sampled("seed", five(y), five(y))
	broken := sampled("seed", five(n), five(y))
	gates := "regressions: {flips: true}\n"
	tests := []struct {
		name    string
		cur     report.Source
		entries string
		id      string
		line    string // the verdict line's start
		err     string
	}{
		{"accepted", broken, acceptA, "b1", "with 1 accepted regression (routing/a: the new procedure wins elsewhere, and a goes to Exa)", ""},
		{"stale: the case no longer regresses", base, acceptA, "b1", "", "gates.accept.yaml:3: routing/a (routing, 5/5 → 0/5): matches no violation of this run (a stale acceptance"},
		{"another change than the one accepted", broken, strings.ReplaceAll(acceptA, "to: 0/5", "to: 1/5"), "b1", "", "the run shows 5/5 → 0/5, not the change accepted"},
		{"an unknown case", broken, strings.ReplaceAll(acceptA, "routing/a", "routing/zz"), "b1", "", "routing/zz (routing, 5/5 → 0/5): no such case in this run or its baseline"},
		{"another baseline: accepts nothing, said so", broken, acceptA, "b2", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Evaluate(mustLoad(t, gates), tt.cur, base, Options{Accept: acceptFile(t, tt.entries), BaselineID: tt.id})
			if tt.err != "" {
				var ae *AcceptError
				if !errors.As(err, &ae) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want an AcceptError containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := Line(v); !strings.Contains(got, tt.line) {
				t.Errorf("verdict line\n%s\nwant it to say\n%s", got, tt.line)
			}
			dropped := slices.ContainsFunc(v.Violations, func(x Violation) bool { return x.Kind == KindRateDrop && x.Case == "routing/a" })
			if accepted := tt.id == "b1"; dropped == accepted || len(v.Accepted) == 1 != accepted {
				t.Errorf("rate_drop of routing/a still a violation: %v, accepted %v", dropped, v.Accepted)
			}
			if tt.id == "b2" && !strings.Contains(strings.Join(v.Notes, "\n"), "they accept nothing here") {
				t.Errorf("no note says the acceptances do not apply: %q", v.Notes)
			}
		})
	}
}

// A shard or a filtered run judges the entries whose case it holds and
// leaves the others to the run that selects them, with a note: a shard
// of an accepted change is not an error.
func TestAcceptancesInAShard(t *testing.T) {
	y := true
	five := func(b bool) []bool { return []bool{b, b, b, b, b} }
	base := sampled("seed", five(y), five(y))
	meta := reporttest.Meta("seed")
	meta.Shard = "1/2"
	shard := report.Bytes("shard.json", reporttest.JSON(meta, []*report.CaseRecord{reporttest.RoutingSamples(1, "b", five(y)...)}))
	v, err := Evaluate(mustLoad(t, "regressions: {flips: true}\n"), shard, base, Options{Accept: acceptFile(t, acceptA), BaselineID: "b1"})
	if err != nil {
		t.Fatalf("a shard without the accepted case: %v", err)
	}
	if !v.Pass() || !strings.Contains(strings.Join(v.Notes, "\n"), "routing/a (routing, 5/5 → 0/5): not judged here") {
		t.Errorf("pass %v %v, notes %q", v.Pass(), v.Violations, v.Notes)
	}
}

// The accept file's problems are all reported, each with its line.
func TestLoadAcceptancesErrors(t *testing.T) {
	_, err := LoadAcceptances("gates.accept.yaml", []byte(`baseline: b1
accept:
  - case: a
    scorer: routing
    from: 5/5
    to: 0/5
    reason: because
  - case: routing/b
    scorer: routing
    from: 5/5
    reason: it is worth it overall
    color: red
`))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`gates.accept.yaml:3:5: case "a": want the case key dataset/id`,
		`gates.accept.yaml:8:5: acceptance is missing to`,
		`gates.accept.yaml:12:5: unknown key "color"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}
