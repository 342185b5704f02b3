package problem

import "testing"

func TestList(t *testing.T) {
	l := &List{What: "datasets", Hint: "fix them before running", Problems: []Problem{
		{File: "a.yaml", Line: 3, Col: 5, Case: "x", Msg: "unknown key \"lable\""},
		{File: "b.yaml", Line: 2, Msg: "no cases"},
		{File: "c.yaml", Msg: "no such file"},
	}}
	want := "3 problems in datasets (fix them before running):\n" +
		"  a.yaml:3:5: case \"x\": unknown key \"lable\"\n" +
		"  b.yaml:2: no cases\n" +
		"  c.yaml: no such file"
	if got := l.Error(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	one := &List{What: "the gates file", Problems: l.Problems[1:2]}
	if got := one.Error(); got != "1 problem in the gates file:\n  b.yaml:2: no cases" {
		t.Fatalf("got %q", got)
	}
}
