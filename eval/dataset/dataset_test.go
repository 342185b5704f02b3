package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseValid(t *testing.T) {
	src := `kind: flows
cases:
  - id: yes-after-phase1
    tags: [consent, seed]
    turns:
      - user: Who is the current CEO of Microsoft
        expect: {phase: phase1, override: false}
      - user: "yes"
        expect:
          phase: phase2
          intent: YES
          route: tavily_only
          verification: confirmed
          error: NONE
          retries: 0
`
	ds, err := Parse("flows.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if ds.Name != "flows" || ds.Kind != KindFlows || len(ds.Cases) != 1 {
		t.Fatalf("got %+v", ds)
	}
	c := ds.Cases[0]
	if c.Line != 3 || len(c.Turns) != 2 || c.Turns[1].Line != 8 {
		t.Fatalf("positions: case line %d, turns %+v", c.Line, c.Turns)
	}
	e := c.Turns[1].Expect
	if e.Phase != "phase2" || e.Intent != "YES" || e.Route != "tavily_only" || e.Verification != "confirmed" || e.Error != "NONE" || e.Retries == nil || *e.Retries != 0 {
		t.Fatalf("expect: %+v", e)
	}
	if o := c.Turns[0].Expect.Override; o == nil || *o {
		t.Fatalf("override: %v", o)
	}
	if c.Key() != "flows/yes-after-phase1" || !c.HasTag("seed") {
		t.Fatalf("key %q tags %v", c.Key(), c.Tags)
	}
}

func TestParseParser(t *testing.T) {
	src := `kind: parser
cases:
  - id: react-one
    prompt: react
    content: |
      Action: web_search
      Action Input: {"query": "x"}
    expect:
      - name: web_search
        arguments: {query: x}
  - id: prose
    prompt: fuzzy
    reasoning: "I could search, but I won't."
    expect: []
`
	ds, err := Parse("parser.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := ds.Cases[0].Expect; len(got) != 1 || got[0].Name != "web_search" || got[0].Arguments["query"] != "x" {
		t.Fatalf("expect = %+v", got)
	}
	if got := ds.Cases[1].Expect; got == nil || len(got) != 0 {
		t.Fatalf("empty expect should be a non-nil empty list, got %#v", got)
	}
}

// TestParseProblems checks that every kind of problem is reported, with its
// line, and that all of a file's problems come back together.
func TestParseProblems(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // substrings, one per expected problem, in order
	}{
		{"unknown kind", "kind: nope\ncases: []\n", []string{`x.yaml:1:7: unknown kind "nope"`, "x.yaml:2:8: no cases"}},
		{"missing kind", "cases:\n  - id: a\n", []string{`x.yaml:1:1: missing field "kind" in dataset`}},
		{"not yaml", "kind: [\n", []string{"invalid YAML"}},
		{"routing problems", `kind: routing
cases:
  - id: a
    query: "  "
    label: tavily
  - id: a
    query: q
    label: exa_only
    lable: typo
  - query: no id
    label: exa_only
  - id: Bad_Id
    query: q
`, []string{
			`x.yaml:4:12: case "a": query is empty`,
			`x.yaml:5:12: case "a": unknown label "tavily"`,
			`x.yaml:9:5: case "a": unknown key "lable"`,
			`x.yaml:6:5: case "a": duplicate id (first used at line 3)`,
			`x.yaml:10:5: missing field "id" in case`,
			`x.yaml:12:5: case "Bad_Id": missing field "label"`,
			`x.yaml:12:9: case "Bad_Id": id "Bad_Id" must match`,
		}},
		{"sample suffix", `kind: routing
cases:
  - id: t-year.s2
    query: q
    label: exa_only
`, []string{`x.yaml:3:9: case "t-year.s2": id "t-year.s2" ends in .s2, which names the cassette of sample 2 of case "t-year"`}},
		{"consent problems", `kind: consent
cases:
  - id: c1
    reply: yes
    label: MAYBE
  - id: c2
    label: "NO"
`, []string{`x.yaml:5:12: case "c1": unknown label "MAYBE"`, `x.yaml:6:5: case "c2": missing field "reply"`}},
		{"flow problems", `kind: flows
cases:
  - id: f
    mode: turbo
    turns:
      - user: hi
        expect: {phase: phase1, route: exa_only}
      - user: ""
        expect: {phase: phase3, retries: -1, colour: red}
      - expect: {phase: phase2}
`, []string{
			`x.yaml:4:11: case "f": unknown mode "turbo"`,
			`x.yaml:7:17: case "f": turn 1: route, verification, error, output and scope are Phase 2 expectations`,
			`x.yaml:8:15: case "f": turn 2: user is empty`,
			`x.yaml:9:46: case "f": unknown key "colour" in turn 2: expect`,
			`x.yaml:9:25: case "f": turn 2: expect.phase: unknown value "phase3"`,
			`x.yaml:9:42: case "f": turn 2: expect.retries must be a whole number`,
			`x.yaml:10:9: case "f": missing field "user" in turn 3`,
		}},
		{"parser problems", `kind: parser
cases:
  - id: p
    prompt: telepathy
    expect:
      - name: web_search
        arguments: query
  - id: q
    prompt: react
    expect: {}
`, []string{
			`x.yaml:4:13: case "p": unknown prompt "telepathy"`,
			`x.yaml:3:5: case "p": missing field: a parser case needs reasoning or content`,
			`x.yaml:7:20: case "p": expect[0].arguments must be a mapping`,
			`x.yaml:8:5: case "q": missing field: a parser case needs reasoning or content`,
			`x.yaml:10:13: case "q": expect must be a list`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("x.yaml", []byte(tt.src))
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("want *Error, got %v", err)
			}
			if len(de.Problems) != len(tt.want) {
				t.Fatalf("got %d problems, want %d:\n%v", len(de.Problems), len(tt.want), err)
			}
			for i, w := range tt.want {
				if got := de.Problems[i].String(); !strings.Contains(got, w) {
					t.Errorf("problem %d = %q, want it to contain %q", i, got, w)
				}
			}
		})
	}
}

func TestLoadFilesCollectsAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.yaml", "kind: routing\ncases:\n  - id: x\n    query: q\n    label: nope\n")
	b := write("b.yaml", "kind: consent\ncases:\n  - id: y\n    reply: r\n    label: MAYBE\n")
	_, err := LoadFiles(a, b, filepath.Join(dir, "missing.yaml"))
	var de *Error
	if !errors.As(err, &de) || len(de.Problems) != 3 {
		t.Fatalf("want 3 problems across files, got %v", err)
	}
	msg := err.Error()
	for _, w := range []string{"3 problems in datasets", "a.yaml:5:12", "b.yaml:5:12", "missing.yaml"} {
		if !strings.Contains(msg, w) {
			t.Errorf("error lacks %q:\n%s", w, msg)
		}
	}
}

func TestFilterAndShard(t *testing.T) {
	cases := []*Case{
		{ID: "first-iphone", Dataset: "routing", Label: "tavily_only", Tags: []string{"seed"}},
		{ID: "ubi-arguments", Dataset: "routing", Label: "exa_only"},
		{ID: "yes-y", Dataset: "consent", Label: "YES", Tags: []string{"seed"}},
	}
	ds := []*Dataset{{Name: "all", Cases: cases}}
	tests := []struct {
		filter []string
		want   []string
	}{
		{nil, []string{"first-iphone", "ubi-arguments", "yes-y"}},
		{[]string{"seed"}, []string{"first-iphone", "yes-y"}},
		{[]string{"label:exa_only"}, []string{"ubi-arguments"}},
		{[]string{"id:*-y"}, []string{"yes-y"}},
		{[]string{"routing/first-iphone"}, []string{"first-iphone"}},
		{[]string{"id:consent/*"}, []string{"yes-y"}},
		{[]string{"consent/first-iphone"}, nil},
		{[]string{"dataset:consent"}, []string{"yes-y"}},
		{[]string{"tag:nope", "first-*"}, []string{"first-iphone"}},
		{[]string{"label:YES,label:exa_only"}, []string{"ubi-arguments", "yes-y"}},
	}
	for _, tt := range tests {
		f, err := ParseFilter(tt.filter)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range Select(ds, f, Shard{1, 1}) {
			got = append(got, c.ID)
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("filter %v: got %v, want %v", tt.filter, got, tt.want)
		}
	}
	if _, err := ParseFilter([]string{"colour:red"}); err == nil {
		t.Error("unknown filter field accepted")
	}

	// Shards partition the set: every case in exactly one shard.
	var many []*Case
	for i := 0; i < 200; i++ {
		many = append(many, &Case{ID: "c" + string(rune('a'+i%26)) + string(rune('a'+i/26)), Dataset: "d"})
	}
	seen := map[string]int{}
	for k := 1; k <= 3; k++ {
		s, err := ParseShard(string(rune('0'+k)) + "/3")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, c := range Select([]*Dataset{{Cases: many}}, Filter{}, s) {
			seen[c.ID]++
			n++
		}
		if n < 40 {
			t.Errorf("shard %v has only %d of 200 cases", s, n)
		}
	}
	if len(seen) != 200 {
		t.Errorf("shards cover %d of 200 cases", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("case %s in %d shards", id, n)
		}
	}
	for _, bad := range []string{"0/3", "4/3", "a/b", "3"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
}
