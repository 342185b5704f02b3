package score

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// valuePair is one pair of the equal-values set (groundgen): a search
// result and a bullet writing one of its values in another notation.
type valuePair struct {
	ID       string `yaml:"id"`
	Notation string `yaml:"notation"`
	Same     string `yaml:"same"`
	URL      string `yaml:"url"`
	Title    string `yaml:"title"`
	Snippet  string `yaml:"snippet"`
	Language string `yaml:"language"`
	Bullet   string `yaml:"bullet"`
}

func loadValuePairs(t *testing.T) []valuePair {
	t.Helper()
	data, err := os.ReadFile("testdata/grounding-values.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Pairs []valuePair `yaml:"pairs"`
	}
	if err := yaml.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f.Pairs
}

// groundOne scores an answer of one bullet citing one retrieved result.
func groundOne(t *testing.T, r trace.Retrieved, bullet string) Result {
	t.Helper()
	dom, err := answer.RegistrableDomain(r.URL)
	if err != nil {
		t.Fatalf("%s: %v", r.URL, err)
	}
	c := call(0, trace.ToolTavily, trace.CallOK)
	c.Results, c.Retrieved = 1, []trace.Retrieved{r}
	env := answer.Success([]answer.Bullet{{Text: bullet, SourceIDs: []string{"s1"}}},
		[]answer.Source{{ID: "s1", Domain: dom, Title: r.Title, URL: r.URL}})
	res, ok := Grounding{}.Score(&Input{Case: routingCase("tavily_only"), Session: session(p2(answer.FormatPhase2(answer.VerificationSkipped, env), c))})
	if !ok {
		t.Fatalf("grounding does not apply to %q", bullet)
	}
	return res
}

// TestGroundingEqualValues: every bullet of the equal-values set writes a
// value of its cited snippet in another notation, so grounding.claims
// raises no finding on any of them (issue 39: 0 false alarms).
func TestGroundingEqualValues(t *testing.T) {
	pairs := loadValuePairs(t)
	if len(pairs) < 60 {
		t.Fatalf("%d pairs, want at least 60", len(pairs))
	}
	alarms := map[string]int{}
	total := map[string]int{}
	for _, p := range pairs {
		total[p.Notation]++
		res := groundOne(t, trace.Retrieved{URL: p.URL, Title: p.Title, Snippet: p.Snippet}, p.Bullet)
		c := checkByName(res, "claims")
		if c == nil {
			t.Fatalf("%s: no claims check", p.ID)
		}
		if !c.Pass {
			alarms[p.Notation]++
			t.Errorf("%s (%s: %s): false alarm: %s", p.ID, p.Notation, p.Same, c.Reason)
		}
	}
	var rows []string
	n := 0
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range total {
			if !yield(k) {
				return
			}
		}
	}) {
		rows = append(rows, fmt.Sprintf("%s %d/%d", k, alarms[k], total[k]))
		n += alarms[k]
	}
	t.Logf("false alarms: %d of %d pairs (%s)", n, len(pairs), strings.Join(rows, ", "))
}

// TestGroundingValueFaults plants each deterministic value fault of issue
// 39 in a bullet: a unit, a rate's period, a scale or a currency changed
// without converting, a rounding that crosses the threshold the bullet
// says was met or missed, a day misread in the source's locale. Each must
// fail grounding.claims with a finding that names the bullet, both values,
// the cited source and the claim's words; its grounded twin must pass.
func TestGroundingValueFaults(t *testing.T) {
	tests := []struct {
		name, url, snippet string
		bullet, twin       string
		want               []string
	}{
		{name: "unit swapped (mass)", url: "https://www.bostondynamics.com/atlas",
			snippet: "The electric Atlas weighs 118 kg and stands 1.5 m tall; it can lift 25 kg with each arm.",
			bullet:  "The electric Atlas weighs 118 lb.", twin: "The electric Atlas weighs about 260 lb.",
			want: []string{"the snippet says 118 kg; the bullet says 118 lb (a unit changed, not converted", `claim: "The electric Atlas weighs 118 lb."`}},
		{name: "unit swapped (length)", url: "https://www.bbc.co.uk/news/uk-england-12345",
			snippet: "The new cycle route runs for 118 km between Bristol and Bath.",
			bullet:  "The cycle route is 118 miles long.", twin: "The cycle route is about 73 miles long.",
			want: []string{"the snippet says 118 km; the bullet says 118 miles (a unit changed, not converted"}},
		{name: "per month written as per week", url: "https://www.theverge.com/2024/streaming-prices",
			snippet: "Subscribers now pay $12 per month for the ad-free tier, up from $10.",
			bullet:  "The ad-free tier costs $12 per week.", twin: "The ad-free tier costs $12 a month.",
			want: []string{"the snippet says $12 per month; the bullet says $12 per week (a rate per month written as per week"}},
		{name: "/yr written as a month", url: "https://www.example-saas.com/pricing",
			snippet: "The Pro plan costs €99/yr and includes unlimited projects.",
			bullet:  "The Pro plan costs €99 a month.", twin: "The Pro plan costs €99 per year.",
			want: []string{"the snippet says €99/yr; the bullet says €99 a month (a rate per year written as per month"}},
		{name: "scale changed (NOK bn to m)", url: "https://www.reuters.com/business/energy/equinor-contract",
			snippet: "Equinor awarded Aker Solutions a contract worth NOK 30bn for the Johan Castberg field.",
			bullet:  "Equinor's contract with Aker Solutions is worth NOK 30m.", twin: "Equinor's contract with Aker Solutions is worth NOK 30 billion.",
			want: []string{"the snippet says NOK 30bn; the bullet says NOK 30m (a scale changed"}},
		{name: "scale changed (billion to million)", url: "https://www.microsoft.com/en-us/investor/earnings",
			snippet: "Revenue was $61.9 billion and increased 17%.",
			bullet:  "Revenue was $61.9 million, up 17%.", twin: "Revenue was $61.9bn, up 17%.",
			want: []string{"the snippet says $61.9 billion; the bullet says $61.9 million (a scale changed"}},
		{name: "currency changed", url: "https://www.ft.com/content/fine",
			snippet: "The regulator fined the bank €1.2bn on Monday.",
			bullet:  "The bank was fined $1.2bn.", twin: "The bank was fined €1.2 billion.",
			want: []string{"the snippet says €1.2bn; the bullet says $1.2bn (a currency changed, not converted"}},
		{name: "rounding across a target said to be met", url: "https://www.electoralcommission.org.uk/referendum",
			snippet: "Turnout was 49.6%, just short of the 50% quorum, so the result is not binding.",
			bullet:  "The 50% turnout target was met.", twin: "Turnout was about 50%, just short of the quorum.",
			want: []string{"the snippet says 49.6%, below the 50% the bullet says was met"}},
		{name: "rounding across a threshold said to be crossed", url: "https://www.iea.org/reports/renewables",
			snippet: "Renewables supplied 29.7% of global electricity in 2023.",
			bullet:  "Renewables crossed 30% of global electricity in 2023.", twin: "Renewables supplied nearly 30% of global electricity in 2023.",
			want: []string{"the snippet says 29.7%, below the 30% the bullet says was crossed"}},
		{name: "rounding across a ceiling said to be kept", url: "https://www.ons.gov.uk/inflation",
			snippet: "The CPI rose by 2.04% in the 12 months to June 2024.",
			bullet:  "Inflation stayed below 2% in June 2024.", twin: "Inflation was 2.0% in June 2024.",
			want: []string{"the snippet says 2.04%, above the 2% the bullet says it is below"}},
		{name: "a UK date read month first", url: "https://www.gov.uk/government/news/childcare",
			snippet: "Published 03/09/2024. Working parents can now claim 15 hours of free childcare a week.",
			bullet:  "The scheme was announced on March 9, 2024.", twin: "The scheme was announced on 3 September 2024.",
			want: []string{`date "March 9, 2024" (2024-03-09) is not the date of its cited sources`, `says "03/09/2024" (2024-09-03)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := trace.Retrieved{URL: tt.url, Title: "Page", Snippet: tt.snippet}
			c := checkByName(groundOne(t, r, tt.bullet), "claims")
			if c == nil || c.Pass {
				t.Fatalf("the fault passes grounding.claims: %+v", c)
			}
			for _, w := range append([]string{"bullet 1: ", tt.url, " — claim: "}, tt.want...) {
				if !strings.Contains(c.Reason, w) {
					t.Errorf("reason does not name %q:\n%s", w, c.Reason)
				}
			}
			if tw := checkByName(groundOne(t, r, tt.twin), "claims"); tw == nil || !tw.Pass {
				t.Errorf("the grounded twin %q fails: %+v", tt.twin, tw)
			}
		})
	}
}
