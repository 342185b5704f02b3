package parsing

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/searchbench/searchbench/internal/demo"
	"github.com/searchbench/searchbench/lib/testenv"
	"github.com/searchbench/searchbench/orchestrator/executor"
)

// shippedAnswers reads every Phase 1 and Phase 2 answer in the demo's
// cassettes (internal/demo): the chat completion messages whose content is
// one.
func shippedAnswers(t *testing.T) map[string]executor.Message {
	t.Helper()
	out := map[string]executor.Message{}
	err := filepath.WalkDir(filepath.Join(demo.Tree(t), "cassettes"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var cas struct {
			Interactions []struct {
				Response struct {
					Body string `yaml:"body"`
				} `yaml:"response"`
			} `yaml:"interactions"`
		}
		if err := yaml.Unmarshal(data, &cas); err != nil {
			return err
		}
		for _, in := range cas.Interactions {
			var resp struct {
				Choices []struct {
					Message struct {
						Content   *string `json:"content"`
						Reasoning *string `json:"reasoning"`
					} `json:"message"`
				} `json:"choices"`
			}
			if json.Unmarshal([]byte(in.Response.Body), &resp) != nil {
				continue // a search response, or an SSE stream
			}
			for _, ch := range resp.Choices {
				var m executor.Message
				if ch.Message.Content != nil {
					m.Content = *ch.Message.Content
				}
				if ch.Message.Reasoning != nil {
					m.Reasoning = *ch.Message.Reasoning
				}
				if strings.Contains(m.Content, "Phase 1 – Immediate Answer") || strings.Contains(m.Content, "Phase 2 – Search-Backed Answer") {
					out[m.Reasoning+"\x00"+m.Content] = m
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestNoCallCorpus: no strategy and no chain extracts a call from any Phase
// 1 or Phase 2 answer the project ships (issue 27: react→fuzzy turned the
// verification line "confirmed by search results" into a search for
// "results"). The other projects' final answers are the dataset's
// form:final-answer cases, measured in the no_call rows.
func TestNoCallCorpus(t *testing.T) {
	testenv.Slow(t)
	answers := shippedAnswers(t)
	// The shipped cassettes hold several hundred distinct answers; a
	// corpus this small would mean the reader above broke.
	if len(answers) < 100 {
		t.Fatalf("only %d distinct Phase 1/2 answers found in cassettes/", len(answers))
	}
	specs, err := Specs()
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, sp := range specs {
		if sp.Kind != KindStrategy && sp.Kind != KindChain && sp.Kind != KindSeedFieldRule {
			continue
		}
		rows++
		false_ := 0
		for _, m := range answers {
			if res := sp.parser.Extract(m); len(res.Calls) > 0 {
				false_++
				if false_ <= 3 {
					t.Errorf("%s: extracted %v from %.120q", sp.Name, res.Calls, m.Content)
				}
			}
		}
		if false_ > 0 {
			t.Errorf("%s: %d false extractions on %d answers", sp.Name, false_, len(answers))
		}
	}
	t.Logf("%d strategies and chains, %d distinct shipped Phase 1/2 answers: 0 false extractions required", rows, len(answers))
}
