package grade

import (
	"strings"
	"testing"
)

func TestRules(t *testing.T) {
	g := func(answers ...string) Gold { return Gold{Answers: answers} }
	tests := []struct {
		name     string
		question string
		gold     Gold
		answer   string
		code     string
		label    string // "" for deferred
		rule     string
	}{
		// Aliases, case, punctuation, articles, diacritics.
		{"alias", "Who is the CEO of Microsoft?", g("Satya Nadella"), "Satya Nadella has led Microsoft since 2014.", "", Correct, RuleAlias},
		{"case and punctuation", "Who won?", g("Dáin Ironfoot"), "DAIN, ironfoot!", "", Correct, RuleAlias},
		{"second alias", "Capital?", g("Canberra", "Canberra, ACT"), "It is canberra.", "", Correct, RuleAlias},
		{"articles", "Who?", g("The Beatles"), "beatles", "", Correct, RuleAlias},
		{"parenthetical", "Which metal?", g("copper (Cu)"), "Copper", "", Correct, RuleAlias},
		{"leading preposition", "Where?", g("in the s-block"), "the s-block of the table", "", Correct, RuleAlias},
		{"name variant", "Who played her?", g("Carolyn Sue Jones"), "Carolyn Jones", "", Correct, RuleNameVariant},
		{"initials", "Who?", g("Bhimrao Ramji Ambedkar"), "Dr. B. R. Ambedkar", "", Correct, RuleNameVariant},
		// Numbers with scale, unit, decimal comma, words.
		{"scale", "How many users?", g("1,200,000"), "About 1.2 million users.", "", Correct, RuleValue},
		{"money", "How much?", g("3 billion euros"), "€3bn", "", Correct, RuleValue},
		{"decimal comma", "Rate?", g("3.5%"), "3,5 %", "", Correct, RuleValue},
		{"number words", "How many seasons?", g("8"), "There were eight seasons.", "", Correct, RuleValue},
		{"units", "How far?", g("384,400 km"), "about 384400000 m", "", Correct, RuleValue},
		{"wrong number", "How many qubits?", g("1,121"), "Condor has 433 qubits.", "", Incorrect, RuleWrongValue},
		{"percent is not a count", "Rate?", g("20%"), "It is 20 times higher.", "", "", RuleNoMatch},
		{"range", "Lifespan?", g("10–12 years"), "about 11.3 years", "", Correct, RuleValue},
		{"approximate gold", "Angle?", g("about 3.99 degrees"), "3.97 degrees", "", Correct, RuleValue},
		// Dates in formats and languages.
		{"date formats", "When?", g("2 August 2024"), "On August 2nd, 2024.", "", Correct, RuleValue},
		{"date in German", "When?", g("2024-08-02"), "am 2. August 2024", "", Correct, RuleValue},
		{"date in Spanish", "When?", g("2 August 2024"), "el 2 de agosto de 2024", "", Correct, RuleValue},
		{"finer date", "When?", g("1972"), "14 December 1972", "", Correct, RuleValue},
		{"coarser date", "When was it released?", g("1 August 1965"), "1965", "", Correct, RuleCoarserDate},
		{"day asked", "On what day was it released?", g("1 August 1965"), "1965", "", "", RuleCoarserValue},
		{"wrong year", "When did it come out?", g("1984"), "March 30, 1990", "", Incorrect, RuleWrongValue},
		{"stale gold", "When does the new season come out?", g("April 21, 2017"), "September 17, 2017", "", "", RuleStaleGold},
		{"as_of vouches", "What is the latest release?", Gold{Answers: []string{"1.33"}, AsOf: "2025-06-01"}, "1.32", "", Incorrect, RuleWrongValue},
		{"two values", "When?", g("1984"), "1984 or 1990", "", "", RuleConflictingValues},
		{"other values in a longer answer", "When?", g("1984"), "The comic came first. The film came out in 1990.", "", "", RuleOtherValues},
		{"a bound", "How many?", g("230 million"), "more than 220 million people", "", "", RuleCoarserValue},
		// Known wrong answers.
		{"reject", "How many qubits?", Gold{Answers: []string{"1,121 qubits"}, Reject: []string{"Osprey"}}, "That is the Osprey chip.", "", Incorrect, RuleReject},
		{"gold and reject", "How many?", Gold{Answers: []string{"Condor"}, Reject: []string{"Osprey"}}, "Condor, not Osprey.", "", "", RuleBoth},
		// Hedges and refusals.
		{"unknown", "Who?", g("Art Carney"), "Unknown.", "", NotAttempted, RuleRefusal},
		{"i don't know", "Who?", g("Art Carney"), "I don't know.", "", NotAttempted, RuleRefusal},
		{"no information", "Who?", g("Art Carney"), "I don't have reliable details on this from memory; it may be a niche or very recent topic.", "", NotAttempted, RuleRefusal},
		{"hedged answer", "Who?", g("Art Carney"), "I'm not sure, but I believe it was Art Carney in Harry and Tonto.", "", "", RuleHedgedAnswer},
		{"insufficient evidence", "Who?", g("Art Carney"), "", "INSUFFICIENT_EVIDENCE", NotAttempted, RuleInsufficientEvidence},
		{"schema violation", "Who?", g("Art Carney"), "", "SCHEMA_VIOLATION", NotAttempted, RuleSchemaViolation},
		{"empty", "Who?", g("Art Carney"), "  ", "", NotAttempted, RuleEmpty},
		// What the rules leave to the judge.
		{"another name", "Who?", g("Art Carney"), "Jack Nicholson", "", "", RuleNoMatch},
		{"part of gold", "Where?", g("Madison, Wisconsin"), "Madison", "", "", RulePartOfGold},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Rules(tt.question, tt.gold, Answer{Text: tt.answer, Code: tt.code})
			if v.Label != tt.label || v.Rule != tt.rule {
				t.Errorf("Rules(%q) = %s [%s], want %q by %s", tt.answer, v, v.Rule, tt.label, tt.rule)
			}
			wantBy := ByRule
			if tt.label == "" {
				wantBy = ByNone
			}
			if v.DecidedBy != wantBy || v.Reason == "" {
				t.Errorf("Rules(%q): decided_by %q, reason %q; want %q and a reason", tt.answer, v.DecidedBy, v.Reason, wantBy)
			}
		})
	}
}

func TestNaive(t *testing.T) {
	gold := Gold{Answers: []string{"Art Carney"}}
	if v := Naive(gold, Answer{Text: "It was Art Carney."}); v.Label != Correct {
		t.Errorf("Naive: %v", v)
	}
	if v := Naive(gold, Answer{Text: "Art Carneys"}); v.Label != Incorrect {
		t.Errorf("Naive matched inside a word: %v", v)
	}
}

func TestReadItemsProblems(t *testing.T) {
	in := strings.Join([]string{
		`{"question": "q", "gold": ["a"], "answer": "a"}`,
		`not json`,
		`{"question": "q", "gold": [], "answer": "a"}`,
		`{"question": "q", "gold": {"answers": ["a"], "reject": ["A"], "as_of": "June"}, "answer": "a"}`,
		`{"question": "q", "gold": ["a"], "answer": "a", "human": "maybe"}`,
		`{"question": "q", "gold": ["a"], "answr": "a"}`,
	}, "\n")
	_, err := ReadItems(strings.NewReader(in), "x.jsonl")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"x.jsonl:2: not a grade item", "x.jsonl:3: no gold answer", `x.jsonl:4: "A" is both a gold and a rejected answer`,
		`x.jsonl:4: as_of "June" is not a date`, `x.jsonl:5: human label "maybe"`, `x.jsonl:6: not a grade item: json: unknown field "answr"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	items, err := ReadItems(strings.NewReader(`{"gold": "Canberra", "answer": "Canberra"}`+"\n"), "y.jsonl")
	if err != nil || len(items) != 1 || items[0].Gold.Answers[0] != "Canberra" || items[0].Line != 1 {
		t.Errorf("one-string gold: %v, %v", items, err)
	}
}
