package grade

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/searchbench/searchbench/lib/problem"
)

// Item is one line of a JSONL file `searchbench grade --file` reads, and
// of the calibration set.
type Item struct {
	// ID names the item in the output (optional; the line number names it
	// otherwise).
	ID       string `json:"id,omitempty"`
	Question string `json:"question,omitempty"`
	// Gold is a list of accepted answers, or an object {"answers": […],
	// "reject": […], "as_of": "YYYY-MM-DD"}.
	Gold   Gold   `json:"gold"`
	Answer string `json:"answer"`
	// Human is a person's label, in the calibration set: correct or
	// incorrect (or not_attempted).
	Human string `json:"human,omitempty"`
	// Model and LabelFrom describe a calibration item's source.
	Model     string `json:"model,omitempty"`
	LabelFrom string `json:"label_from,omitempty"`

	// Line is the item's line in its file.
	Line int `json:"-"`
}

// UnmarshalJSON reads gold answers as a list of strings, one string, or
// the object form.
func (g *Gold) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '[':
		return json.Unmarshal(b, &g.Answers)
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		g.Answers = []string{s}
		return nil
	}
	type plain Gold
	var p plain
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return err
	}
	*g = Gold(p)
	return nil
}

var asOfRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// Problems lists what is wrong with g: no answer, an empty one, an as_of
// that is not a date, an answer also rejected.
func (g Gold) Problems() []string {
	var out []string
	if len(g.Answers) == 0 {
		out = append(out, "no gold answer: give at least one")
	}
	for i, a := range g.Answers {
		if strings.TrimSpace(a) == "" {
			out = append(out, fmt.Sprintf("gold answer %d is empty", i+1))
		}
	}
	for i, r := range g.Reject {
		switch {
		case strings.TrimSpace(r) == "":
			out = append(out, fmt.Sprintf("reject answer %d is empty", i+1))
		case slices.ContainsFunc(g.Answers, func(a string) bool { return fold(a) == fold(r) }):
			out = append(out, fmt.Sprintf("%q is both a gold and a rejected answer", r))
		}
	}
	if g.AsOf != "" && !asOfRE.MatchString(g.AsOf) {
		out = append(out, fmt.Sprintf("as_of %q is not a date (YYYY-MM-DD)", g.AsOf))
	}
	return out
}

// ReadItems reads a JSONL file of items, one JSON object a line (blank
// lines skipped). Every problem — a line that is not JSON, an unknown
// field, no gold answer, no answer, an unknown human label — is reported
// at once with file:line.
func ReadItems(r io.Reader, file string) ([]Item, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var items []Item
	probs := &problem.List{What: file, Hint: "fix them and run again"}
	add := func(line int, format string, args ...any) {
		probs.Problems = append(probs.Problems, problem.Problem{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var it Item
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&it); err != nil {
			add(line, "not a grade item: %v (want {\"question\", \"gold\", \"answer\"})", err)
			continue
		}
		if dec.More() {
			add(line, "more than one JSON value on the line")
			continue
		}
		it.Line = line
		for _, p := range it.Gold.Problems() {
			add(line, "%s", p)
		}
		if strings.TrimSpace(it.Answer) == "" && !bytes.Contains(b, []byte(`"answer"`)) {
			add(line, "no \"answer\" field")
		}
		if it.Human != "" && !slices.Contains(Labels, it.Human) {
			add(line, "human label %q is not one of %s", it.Human, strings.Join(Labels, ", "))
		}
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		add(line+1, "%v", err)
	}
	if len(probs.Problems) > 0 {
		return nil, probs
	}
	return items, nil
}
