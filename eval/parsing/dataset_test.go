package parsing

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/orchestrator/executor"
)

func TestDecodeReportsEveryProblem(t *testing.T) {
	_, err := Load("testdata/bad.yaml")
	var de *DatasetError
	if !errors.As(err, &de) {
		t.Fatalf("err = %v; want *DatasetError", err)
	}
	want := []string{
		`testdata/bad.yaml:1:7: kind is "parsers", want parser`,
		`testdata/bad.yaml:3:9: id "Bad_ID": want [a-z0-9][a-z0-9-]*`,
		`testdata/bad.yaml:4:13: prompt: unknown strategy "regex"`,
		`testdata/bad.yaml:6:20: expect: arguments: want a mapping`,
		`testdata/bad.yaml:6:9: expect: missing name`,
		`testdata/bad.yaml:10:5: unknown key "colour"`,
		`testdata/bad.yaml:11:5: ok-one: missing expect (use [] for no call)`,
		`testdata/bad.yaml:11:5: duplicate id "ok-one" (first at line 7)`,
		`testdata/bad.yaml:15:13: expect: want a list of calls`,
		`testdata/bad.yaml:16:1: unknown key "extra"`,
	}
	got := strings.Join(de.Problems, "\n")
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("problems lack %q", w)
		}
	}
	if len(de.Problems) != len(want) {
		t.Errorf("%d problems; want %d:\n%s", len(de.Problems), len(want), got)
	}
}

func TestDecode(t *testing.T) {
	cases, err := Decode([]byte(`kind: parser
cases:
  - id: a
    prompt: react
    reasoning: |
      Action: done
    expect:
      - name: web_search
        arguments: {query: "q", n: 3}
    tags: [clean]
`), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c := cases[0]
	if c.ID != "a" || c.Prompt != "react" || c.Reasoning != "Action: done\n" || c.Line != 3 || !c.HasTag("clean") || c.HasTag("messy") {
		t.Errorf("case %+v", c)
	}
	if len(c.Expect) != 1 || c.Expect[0].Name != "web_search" || c.Expect[0].Arguments["n"] != 3 {
		t.Errorf("expect %+v", c.Expect)
	}
	for _, bad := range []string{"", "- a", "kind: parser\n", "kind: parser\ncases: {}\n", "kind: [\n"} {
		if _, err := Decode([]byte(bad), "x.yaml"); err == nil {
			t.Errorf("Decode(%q) succeeded", bad)
		}
	}
}

// TestShippedDatasetCoverage keeps datasets/parser.yaml as broad as the
// measurement needs: enough cases, and for every prompt clean and messy
// outputs, outputs with no call, and the awkward shapes real output takes.
func TestShippedDatasetCoverage(t *testing.T) {
	cases, err := Load(shipped)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 60 {
		t.Errorf("%d cases; want at least 60", len(cases))
	}
	count := map[string]int{}
	for _, c := range cases {
		count[c.Prompt+"/"+"any"]++
		for _, tag := range c.Tags {
			count[c.Prompt+"/"+tag]++
			count[tag]++
		}
		if (len(c.Expect) == 0) != c.HasTag("no-call") {
			t.Errorf("%s: tagged no-call iff expect is empty", c.ID)
		}
		if c.HasTag("empty-reasoning") && strings.TrimSpace(c.Reasoning) != "" {
			t.Errorf("%s: tagged empty-reasoning but has reasoning", c.ID)
		}
		for _, call := range c.Expect {
			if f := executor.Check(call); c.HasTag("unknown-tool") == (len(f) == 0) && call.Name != executor.ToolWrite {
				t.Errorf("%s: expected call %s: findings %v", c.ID, call, f)
			}
		}
	}
	for _, s := range executor.Strategies {
		for _, tag := range []string{"clean", "messy", "no-call"} {
			if count[s+"/"+tag] == 0 {
				t.Errorf("no %s case under the %s prompt", tag, s)
			}
		}
	}
	for _, tag := range []string{"multi", "empty-reasoning", "prose-mention", "wrong-case", "fenced", "multiline", "split-fields", "done"} {
		if count[tag] == 0 {
			t.Errorf("no case tagged %s", tag)
		}
	}
}

func TestWilson(t *testing.T) {
	tests := []struct {
		k, n      int
		low, high float64
	}{
		{0, 0, 0, 0},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{5, 10, 0.2366, 0.7634},
		{81, 263, 0.2553, 0.3662},
	}
	for _, tt := range tests {
		p := Wilson(tt.k, tt.n)
		if math.Abs(p.Low-tt.low) > 5e-4 || math.Abs(p.High-tt.high) > 5e-4 {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f]; want [%.4f, %.4f]", tt.k, tt.n, p.Low, p.High, tt.low, tt.high)
		}
	}
}

func TestClaimed(t *testing.T) {
	want := map[string]string{"guided_json": "Very High", "react": "High", "markers": "Low-Medium", "fuzzy": "Medium", "x": ""}
	for s, w := range want {
		if got := Claimed(s); got != w {
			t.Errorf("Claimed(%s) = %q; want %q", s, got, w)
		}
	}
}

func TestMeasureCounts(t *testing.T) {
	cases := []Case{
		// Exact.
		{ID: "a", Prompt: "react", Content: "Action: web_search\nAction Input: {\"query\": \"q\"}", Expect: []executor.Call{{Name: "web_search", Arguments: map[string]any{"query": "q"}}}},
		// One of two expected calls, plus a wrong one.
		{ID: "b", Prompt: "react", Content: "Action: read\nAction Input: {\"path\": \"a\"}\nAction: read\nAction Input: {\"path\": \"x\"}",
			Expect: []executor.Call{{Name: "read", Arguments: map[string]any{"path": "a"}}, {Name: "read", Arguments: map[string]any{"path": "b"}}}},
		// No call expected; react finds none, fuzzy does.
		{ID: "c", Prompt: "react", Content: "No need to search for it.", Expect: []executor.Call{}},
		// Another prompt: outside the react rows.
		{ID: "d", Prompt: "fuzzy", Content: "x", Expect: []executor.Call{}},
	}
	rep, err := Measure(cases)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 20 || rep.Cases != 4 {
		t.Fatalf("%d rows, %d cases", len(rep.Rows), rep.Cases)
	}
	row := func(name, kind string) Row {
		for _, r := range rep.Rows {
			if r.Name == name && r.Kind == kind {
				return r
			}
		}
		t.Fatalf("no row %s/%s", name, kind)
		return Row{}
	}
	r := row("react", KindStrategy)
	if r.Cases != 3 || r.Exact.K != 2 || r.Precision != Wilson(2, 3) || r.Recall != Wilson(2, 3) || r.FalseExtractions != Wilson(0, 1) {
		t.Errorf("react row %+v", r)
	}
	if len(r.Failures) != 1 || r.Failures[0].Case != "b" || !strings.Contains(r.Failures[0].Reason, `want read(path="a"), read(path="b"); got read(path="a"), read(path="x")`) {
		t.Errorf("react failures %+v", r.Failures)
	}
	c := row("react→fuzzy", KindChain)
	if !c.Recommended || c.Exact.K != 1 || c.FalseExtractions != Wilson(1, 1) || c.Fields != "reasoning, else content" {
		t.Errorf("react→fuzzy row %+v", c)
	}
	n := row("fuzzy", KindNoCall)
	if n.Cases != 2 || n.FalseExtractions.K != 1 || n.Scope != "expect=[] (all prompts)" {
		t.Errorf("fuzzy no-call row %+v", n)
	}
	if g := row("guided_json", KindStrategy); g.Fields != "content" || g.Cases != 0 || g.Exact.N != 0 {
		t.Errorf("guided row %+v", g)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte("kind: parser\ncases:\n  - id: a\n    prompt: react\n    expect: []\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cases, err := Decode(data, "fuzz.yaml")
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, c := range cases {
			if !idRe.MatchString(c.ID) || seen[c.ID] || c.Expect == nil {
				t.Fatalf("accepted case %+v", c)
			}
			seen[c.ID] = true
		}
	})
}
