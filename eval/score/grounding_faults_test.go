package score

import (
	"strings"
	"testing"

	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Planted grounding faults (issue 27): each fault is an answer a person
// would call ungrounded, next to its grounded twin. The faults must fail
// the named check with a reason naming the number, date, URL or name; the
// twins must pass every check. The snippets are written in the providers'
// style; the EUR-Lex host in capitals is how a provider returned it.

// faultResults is what the planted turn's search returned.
var faultResults = []trace.Retrieved{
	{URL: "https://www.senate.gov/legislative/votes.htm", Title: "Roll Call Votes | U.S. Senate",
		Snippet: "The bill passed the House by 523 votes to 196 on 1 August 2024."},
	{URL: "https://en.wikipedia.org/wiki/GPT-3", Title: "GPT-3 - Wikipedia",
		Snippet: "GPT-3 has 175 billion parameters and was released on June 11, 2020. Its training data is 45 TB; roughly 20% of it is Common Crawl, about 1,200,000 documents."},
	{URL: "https://EUR-Lex.europa.eu/eli/reg/2024/1689/oj", Title: "Regulation (EU) 2024/1689 :: EUR-Lex",
		Snippet: "Regulation of the European Union laying down harmonised rules on artificial intelligence (AI Act), published on 12 July 2024."},
	{URL: "https://www.reuters.com/technology/eu-ai-act", Title: "EU AI Act enters into force - Reuters",
		Snippet: "The EU AI Act entered into force on 1 August 2024, the Commission said."},
}

func faultCase(bullets []answer.Bullet, sources []answer.Source) *Input {
	c := call(0, trace.ToolTavily, trace.CallOK)
	c.Results = len(faultResults)
	c.Retrieved = faultResults
	env := answer.Success(bullets, sources)
	return &Input{Case: routingCase("tavily_only"), Session: session(p2(answer.FormatPhase2(answer.VerificationSkipped, env), c))}
}

var (
	srcSenate = answer.Source{ID: "s1", Domain: "senate.gov", Title: "Roll Call Votes | U.S. Senate", URL: "https://www.senate.gov/legislative/votes.htm"}
	srcGPT3   = answer.Source{ID: "s2", Domain: "wikipedia.org", Title: "GPT-3 - Wikipedia", URL: "https://en.wikipedia.org/wiki/GPT-3"}
	srcEURLex = answer.Source{ID: "s3", Domain: "europa.eu", Title: "Regulation (EU) 2024/1689 :: EUR-Lex", URL: "https://eur-lex.europa.eu/eli/reg/2024/1689/oj"}
	srcCited  = []answer.Source{srcSenate, srcGPT3, srcEURLex}
)

func TestGroundingPlantedFaults(t *testing.T) {
	with := func(s answer.Source, f func(*answer.Source)) answer.Source { f(&s); return s }
	filler := []answer.Bullet{
		{Text: "GPT-3 has 175 billion parameters.", SourceIDs: []string{"s2"}},
		{Text: "The AI Act was published on 12 July 2024.", SourceIDs: []string{"s3"}},
	}
	bullets := func(b answer.Bullet) []answer.Bullet { return append([]answer.Bullet{b}, filler...) }
	tests := []struct {
		name    string
		bullets []answer.Bullet
		sources []answer.Source
		failing string   // the check that must fail; "" for a grounded twin
		explain []string // what its reason must name
		also    string   // another check the fault fails as a consequence
	}{
		{name: "number off", bullets: bullets(answer.Bullet{Text: "The bill passed the House with 527 votes.", SourceIDs: []string{"s1"}}),
			sources: srcCited, failing: "claims", explain: []string{`number "527" is not in its cited sources`, `closest cited: "523"`, "The bill passed the House by 523 votes"}},
		{name: "number grounded", bullets: bullets(answer.Bullet{Text: "The bill passed the House with 523 votes.", SourceIDs: []string{"s1"}}), sources: srcCited},
		{name: "scale word off", bullets: bullets(answer.Bullet{Text: "GPT-3 has 540B parameters.", SourceIDs: []string{"s2"}}),
			sources: srcCited, failing: "claims", explain: []string{`number "540B" is not in its cited sources`, `"175 billion"`}},
		{name: "scale word grounded", bullets: bullets(answer.Bullet{Text: "GPT-3 has 175B parameters.", SourceIDs: []string{"s2"}}), sources: srcCited},
		{name: "scale word rounded within the claim's precision", bullets: bullets(answer.Bullet{Text: "Its training set holds about 1.2 million documents.", SourceIDs: []string{"s2"}}), sources: srcCited},
		{name: "scale word rounded beyond the claim's precision", bullets: bullets(answer.Bullet{Text: "Its training set holds about 1.3 million documents.", SourceIDs: []string{"s2"}}),
			sources: srcCited, failing: "claims", explain: []string{`number "1.3 million"`, `"1,200,000"`}},
		{name: "percent written out", bullets: bullets(answer.Bullet{Text: "About 20 percent of the data is Common Crawl.", SourceIDs: []string{"s2"}}), sources: srcCited},
		{name: "percentage off", bullets: bullets(answer.Bullet{Text: "About 25 percent of the data is Common Crawl.", SourceIDs: []string{"s2"}}),
			sources: srcCited, failing: "claims", explain: []string{`percentage "25 percent" is not in its cited sources`, `"20%"`}},
		{name: "date off by one day", bullets: bullets(answer.Bullet{Text: "The bill passed on 2 August 2024.", SourceIDs: []string{"s1"}}),
			sources: srcCited, failing: "claims", explain: []string{`date "2 August 2024" (2024-08-02) is not the date of its cited sources`, `says "1 August 2024"`}},
		{name: "date grounded, other order", bullets: bullets(answer.Bullet{Text: "The bill passed on August 1, 2024.", SourceIDs: []string{"s1"}}), sources: srcCited},
		{name: "date grounded, French month", bullets: bullets(answer.Bullet{Text: "Le texte a été adopté le 1er août 2024.", SourceIDs: []string{"s1"}}), sources: srcCited},
		{name: "date grounded, ISO", bullets: bullets(answer.Bullet{Text: "GPT-3 was released on 2020-06-11.", SourceIDs: []string{"s2"}}), sources: srcCited},
		{name: "capitalised host grounded", bullets: bullets(answer.Bullet{Text: "The AI Act is Regulation 2024/1689.", SourceIDs: []string{"s3"}}), sources: srcCited},
		{name: "capitalised host written by the answer", bullets: bullets(answer.Bullet{Text: "The AI Act is Regulation 2024/1689.", SourceIDs: []string{"s3"}}),
			sources: []answer.Source{srcSenate, srcGPT3, with(srcEURLex, func(s *answer.Source) { s.URL = "https://EUR-LEX.Europa.EU:443/eli/reg/2024/./1689/oj#art5" })}},
		{name: "another path is another source", bullets: bullets(answer.Bullet{Text: "The AI Act is Regulation 2024/1689.", SourceIDs: []string{"s3"}}),
			sources: []answer.Source{srcSenate, srcGPT3, with(srcEURLex, func(s *answer.Source) { s.URL = "https://eur-lex.europa.eu/eli/reg/2024/1689/oj/" })},
			failing: "sources retrieved", explain: []string{"https://eur-lex.europa.eu/eli/reg/2024/1689/oj/ was never retrieved"}, also: "claims"},
		{name: "http is not https", bullets: bullets(answer.Bullet{Text: "The AI Act is Regulation 2024/1689.", SourceIDs: []string{"s3"}}),
			sources: []answer.Source{srcSenate, srcGPT3, with(srcEURLex, func(s *answer.Source) { s.URL = "http://eur-lex.europa.eu/eli/reg/2024/1689/oj" })},
			failing: "sources retrieved", explain: []string{"was never retrieved"}, also: "claims"},
		{name: "title without its site suffix", bullets: bullets(answer.Bullet{Text: "The bill passed the House with 523 votes.", SourceIDs: []string{"s1"}}),
			sources: []answer.Source{with(srcSenate, func(s *answer.Source) { s.Title = "Roll Call Votes" }), srcGPT3, with(srcEURLex, func(s *answer.Source) { s.Title = "Regulation (EU) 2024/1689" })}},
		{name: "title of another result", bullets: bullets(answer.Bullet{Text: "The bill passed the House with 523 votes.", SourceIDs: []string{"s1"}}),
			sources: []answer.Source{with(srcSenate, func(s *answer.Source) { s.Title = "GPT-3" }), srcGPT3, srcEURLex},
			failing: "source titles", explain: []string{`source s1 title "GPT-3" is not the retrieved title "Roll Call Votes | U.S. Senate"`}},
		{name: "acronym spelled out in the cited snippet", bullets: bullets(answer.Bullet{Text: "The EU AI Act lays down harmonised rules on artificial intelligence.", SourceIDs: []string{"s3"}}), sources: srcCited},
		{name: "acronym found only in an uncited result", bullets: bullets(answer.Bullet{Text: "The EU AI Act lays down harmonised rules on artificial intelligence.", SourceIDs: []string{"s1"}}),
			sources: srcCited, failing: "claims", explain: []string{`name "EU AI Act" is not in its cited sources but is in uncited https://www.reuters.com/technology/eu-ai-act`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := Grounding{}.Score(faultCase(tt.bullets, tt.sources))
			if !ok {
				t.Fatal("grounding does not apply")
			}
			for _, c := range r.Checks {
				want := !strings.HasSuffix(c.Name, tt.failing) || tt.failing == ""
				if tt.also != "" && strings.HasSuffix(c.Name, tt.also) {
					want = false // a citation of an unretrieved source supports nothing
				}
				if c.Pass != want {
					t.Errorf("check %s: pass = %v, want %v (%s)\n%s", c.Name, c.Pass, want, c.Reason, c.Diff)
				}
			}
			if tt.failing == "" {
				return
			}
			c := checkByName(r, tt.failing)
			if c == nil {
				t.Fatalf("no %s check", tt.failing)
			}
			for _, e := range tt.explain {
				if !strings.Contains(c.Reason, e) {
					t.Errorf("reason does not name %q:\n%s", e, c.Reason)
				}
			}
		})
	}
}
