package consent

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestParseVerdict: the model's verdict is read strictly; every other
// answer is an error naming what is wrong, never a default.
func TestParseVerdict(t *testing.T) {
	tests := []struct {
		content string
		want    ModelVerdict
		err     string
	}{
		{content: `{"intent":"YES","scope":"only .gov","reason":"assent"}`, want: ModelVerdict{Yes, "only .gov", "assent"}},
		{content: ` {"intent":"NO","scope":"","reason":"declines"} `, want: ModelVerdict{No, "", "declines"}},
		{content: `{"intent":"SEARCH_NOW","scope":"the date","reason":"check"}`, want: ModelVerdict{SearchNow, "the date", "check"}},
		{content: ``, err: "empty"},
		{content: `yes`, err: "not the schema's JSON"},
		{content: `{"intent":"NO","scope":"","reason":"x"} and more`, err: "text after its JSON object"},
		{content: `{"intent":"NO","reason":"x"}`, err: "lacks scope"},
		{content: `{"intent":"NO","scope":"","reason":"x","confidence":1}`, err: "not the schema's JSON"},
		{content: `{"intent":"MAYBE","scope":"","reason":"x"}`, err: `"MAYBE" is not YES, SEARCH_NOW, NO or NEW_QUERY`},
		{content: `{"intent":"NO","scope":"gov only","reason":"x"}`, err: "only a YES or SEARCH_NOW limits a search"},
	}
	for _, tt := range tests {
		got, err := ParseVerdict(tt.content)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ParseVerdict(%q) error %v, want one containing %q", tt.content, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("ParseVerdict(%q) = %+v, %v; want %+v", tt.content, got, err, tt.want)
		}
	}
}

// TestModelMessage: the request's user message carries the previous query
// and the reply, and reads back.
func TestModelMessage(t *testing.T) {
	for _, tt := range []struct{ previous, reply string }{
		{"Who is the CEO of Microsoft", "tak"},
		{"", "yes\nReply: no"},
	} {
		msg := ModelMessage(tt.previous, tt.reply)
		p, r, ok := ParseModelMessage(msg)
		if !ok || p != tt.previous || r != tt.reply {
			t.Errorf("ParseModelMessage(ModelMessage(%q, %q)) = %q, %q, %v", tt.previous, tt.reply, p, r, ok)
		}
	}
	if _, _, ok := ParseModelMessage("Maleey"); ok {
		t.Error("a bare reply read as a classification message")
	}
}

// TestStandInVerdict: the simulator's stand-in answers with the clause
// rules' reading, scope included, and a new query where they place nothing.
func TestStandInVerdict(t *testing.T) {
	for _, tt := range []struct {
		reply  string
		intent Intent
		scope  string
	}{
		{"no, go ahead", Yes, ""},
		{"Maleey", NewQuery, ""},
		{"Yes. I said no", No, ""},
		{"no problem, go ahead, only official sources", Yes, "only official sources"},
	} {
		v := StandInVerdict(tt.reply)
		if v.Intent != tt.intent || v.Scope != tt.scope || v.Reason == "" {
			t.Errorf("StandInVerdict(%q) = %+v, want %s scope %q", tt.reply, v, tt.intent, tt.scope)
		}
		if _, err := ParseVerdict(mustJSON(t, v)); err != nil {
			t.Errorf("StandInVerdict(%q) breaks the schema: %v", tt.reply, err)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
