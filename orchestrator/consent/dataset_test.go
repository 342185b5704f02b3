package consent

import (
	"bytes"
	"os"
	"regexp"
	"testing"

	"go.yaml.in/yaml/v3"
)

// datasetFile is the shipped consent dataset. This test keeps it and the
// classifier from drifting apart.
const datasetFile = "../../datasets/consent.yaml"

type datasetCase struct {
	ID    string   `yaml:"id"`
	Reply string   `yaml:"reply"`
	Label Intent   `yaml:"label"`
	Tags  []string `yaml:"tags"`
	Note  string   `yaml:"note"`
}

var caseID = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

func TestDataset(t *testing.T) {
	data, err := os.ReadFile(datasetFile)
	if err != nil {
		t.Fatal(err)
	}
	var ds struct {
		Kind  string        `yaml:"kind"`
		Cases []datasetCase `yaml:"cases"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&ds); err != nil {
		t.Fatalf("%s: %v", datasetFile, err)
	}
	if ds.Kind != "consent" {
		t.Errorf("%s: kind = %q, want consent", datasetFile, ds.Kind)
	}
	if len(ds.Cases) < 80 {
		t.Errorf("%s: %d cases, want at least 80", datasetFile, len(ds.Cases))
	}
	seen := map[string]bool{}
	labels := map[Intent]int{}
	for _, c := range ds.Cases {
		if !caseID.MatchString(c.ID) || seen[c.ID] {
			t.Errorf("%s: case id %q is malformed or repeated", datasetFile, c.ID)
		}
		seen[c.ID] = true
		labels[c.Label]++
		t.Run(c.ID, func(t *testing.T) {
			switch c.Label {
			case Yes, No, SearchNow, NewQuery:
			default:
				t.Fatalf("label %q is not YES, NO, SEARCH_NOW or NEW_QUERY", c.Label)
			}
			got, rule := Classify(c.Reply)
			if got != c.Label {
				t.Errorf("Classify(%q) = %s by rule %s (normalized %q), want %s", c.Reply, got, rule, Normalize(c.Reply), c.Label)
			}
		})
	}
	for _, l := range []Intent{Yes, No, SearchNow, NewQuery} {
		if labels[l] < 5 {
			t.Errorf("%s: only %d %s cases", datasetFile, labels[l], l)
		}
	}
}
