package judge

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		content, label, err string
	}{
		{`{"label":"correct","reason":"Names the gold."}`, "correct", ""},
		{` {"reason":"No answer.","label":"not_attempted"} `, "not_attempted", ""},
		{`correct`, "", "not the verdict JSON"},
		{`{"label":"right","reason":"x"}`, "", `label "right" is not one of`},
		{`{"label":"correct"}`, "", "no reason"},
		{`{"label":"correct","reason":"  "}`, "", "no reason"},
		{`{"reason":"x"}`, "", "no label"},
		{`{"label":"correct","reason":"x","confidence":1}`, "", `unknown field "confidence"`},
		{`{"label":"correct","reason":"x"} ok`, "", "text after the verdict"},
		{``, "", "answered nothing"},
	}
	for _, tt := range tests {
		v, err := Parse(tt.content)
		switch {
		case tt.err == "" && (err != nil || v.Label != tt.label):
			t.Errorf("Parse(%q) = %v, %v; want label %s", tt.content, v, err, tt.label)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("Parse(%q) = %v, %v; want an error with %q", tt.content, v, err, tt.err)
		}
	}
}

func TestUserMessageRoundTrip(t *testing.T) {
	r := Request{Question: "Q <&>", Gold: []string{"a", "b"}, Reject: []string{"c"}, AsOf: "2024-01-01", Answer: "x\ny"}
	got, err := ParseUserMessage(r.UserMessage())
	if err != nil || got.Question != r.Question || got.Answer != r.Answer || len(got.Gold) != 2 || got.AsOf != r.AsOf {
		t.Errorf("round trip: %+v, %v", got, err)
	}
	if !strings.Contains(r.UserMessage(), "<&>") {
		t.Errorf("HTML characters escaped: %s", r.UserMessage())
	}
}

func TestStandIn(t *testing.T) {
	tests := []struct {
		answer, label string
	}{
		{"It was Art Carney.", "correct"},
		{"Carney won it.", "correct"}, // half the words of a two-word gold answer
		{"I don't know.", "not_attempted"},
		{"Jack Nicholson", "incorrect"},
	}
	for _, tt := range tests {
		v := StandIn(Request{Question: "Who?", Gold: []string{"Art Carney"}, Reject: []string{"Jack Nicholson"}, Answer: tt.answer})
		if v.Label != tt.label || !strings.HasPrefix(v.Reason, StandInPrefix) {
			t.Errorf("StandIn(%q) = %+v, want %s and the stand-in prefix", tt.answer, v, tt.label)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"label":"correct","reason":"x"}`, `{}`, `[]`, `"x"`, `{"label":null}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Parse(s)
		if err == nil && (!contains(Labels, v.Label) || strings.TrimSpace(v.Reason) == "") {
			t.Fatalf("Parse(%q) accepted %+v", s, v)
		}
	})
}
