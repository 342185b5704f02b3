package score

import (
	"slices"
	"testing"

	"github.com/searchbench/searchbench/eval/stats"
	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// groundedResults is what the test turn's search returned for testSources.
var groundedResults = []trace.Retrieved{
	{URL: "https://go.dev/doc/devel/release", Title: "Go release history", Snippet: "Go 1.0 was released in March 2012. A new minor release ships about every six months."},
	{URL: "https://en.wikipedia.org/wiki/Go_(programming_language)", Title: "Go (programming language) - Wikipedia", Published: "2024-05-01T10:00:00Z",
		Snippet: "Go is a programming language designed at Google. Go 1.0 was released in March 2012; generics arrived in Go 1.18 in March 2022."},
	{URL: "https://go.dev/blog/go1.18", Title: "Go 1.18 is released", Published: "2022-03-15T23:30:00-04:00", Snippet: "Go 1.18 is released, bringing generics, in March 2022."},
	{URL: "https://example.com/go-history", Title: "A short history of Go", Snippet: "Robert Griesemer, Rob Pike and Ken Thompson started Go in 2007."},
}

func groundedTurn(env answer.Envelope) trace.Turn {
	c := call(0, trace.ToolTavily, trace.CallOK)
	c.Retrieved = groundedResults
	return p2(answer.FormatPhase2(answer.VerificationSkipped, env), c)
}

func groundingCase(env answer.Envelope) *Input {
	return &Input{Case: routingCase("tavily_only"), Session: session(groundedTurn(env))}
}

// envWith returns okEnv's bullets and sources changed by f.
func envWith(f func(bs []answer.Bullet, ss []answer.Source)) answer.Envelope {
	bs := slices.Clone(testBullets)
	for i := range bs {
		bs[i].SourceIDs = slices.Clone(bs[i].SourceIDs)
	}
	ss := slices.Clone(testSources)
	f(bs, ss)
	return answer.Success(bs, ss)
}

func TestGrounding(t *testing.T) {
	all := func(sources, titles, claims bool) map[string]bool {
		return map[string]bool{"sources retrieved": sources, "source titles": titles, "claims": claims}
	}
	withPublished := func(m map[string]bool, pass bool) map[string]bool {
		m["published dates"] = pass
		return m
	}
	failed := groundedTurn(okEnv)
	failed.Error = "cassette miss"
	violation := p2(answer.FormatPhase2(answer.VerificationSkipped, answer.SchemaViolation("x")))

	runScorerCases(t, Grounding{}, []scorerCase{
		{name: "clean answer", applies: true, in: groundingCase(okEnv), checks: all(true, true, true),
			values: map[string]float64{"answers": 1, "bullets": 3, "independent": 2, "tokens": 4, "supported": 4}},
		{name: "hallucinated URL", applies: true,
			in: groundingCase(envWith(func(_ []answer.Bullet, ss []answer.Source) { ss[2].URL = "https://go.dev/blog/made-up" })),
			// Bullet 2 now cites only s2 for its text, which s2 supports.
			checks:  all(false, true, true),
			explain: []string{"source s3 https://go.dev/blog/made-up was never retrieved", "closest retrieved URL: https://go.dev/blog/go1.18", "cited by bullet 2"}},
		{name: "tracking parameters are canonicalised", applies: true,
			in:     groundingCase(envWith(func(_ []answer.Bullet, ss []answer.Source) { ss[0].URL += "?utm_source=feed" })),
			checks: all(true, true, true)},
		{name: "swapped citations", applies: true,
			in: groundingCase(envWith(func(bs []answer.Bullet, _ []answer.Source) {
				bs[0].SourceIDs, bs[1].SourceIDs = []string{"s3"}, []string{"s1"}
			})),
			checks:  all(true, true, false),
			explain: []string{`bullet 1: number "1.0" is not in its cited sources but is in uncited`, `bullet 2: number "1.18" is not in its cited sources`, "retrieved text:  Go 1.18 is released"}},
		{name: "wrong year", applies: true,
			in: groundingCase(envWith(func(bs []answer.Bullet, _ []answer.Source) {
				bs[0].Text = "Go 1.0 was released in March 2013."
			})),
			checks: all(true, true, false), explain: []string{`bullet 1: year "2013" appears in no cited source`, "unsupported: \"2013\" (year)"}},
		{name: "an unsupported name is measured, not failed", applies: true,
			in: groundingCase(envWith(func(bs []answer.Bullet, _ []answer.Source) {
				bs[2].Text = "Russ Cox ships a new minor release about every six months."
			})),
			checks: all(true, true, true), values: map[string]float64{"tokens": 5, "supported": 4}},
		{name: "a name found only in an uncited result fails", applies: true,
			in: groundingCase(envWith(func(bs []answer.Bullet, _ []answer.Source) {
				bs[2].Text = "Rob Pike ships a new minor release about every six months."
			})),
			checks: all(true, true, false), explain: []string{`name "Rob Pike" is not in its cited sources but is in uncited https://example.com/go-history`}},
		{name: "borrowed title", applies: true,
			in:      groundingCase(envWith(func(_ []answer.Bullet, ss []answer.Source) { ss[0].Title = "Go 1.18 is released" })),
			checks:  all(true, false, true),
			explain: []string{`source s1 title "Go 1.18 is released" is not the retrieved title "Go release history"`, "another result: https://go.dev/blog/go1.18", "-Go release history", "+Go 1.18 is released"}},
		{name: "an unrelated title", applies: true,
			in:     groundingCase(envWith(func(_ []answer.Bullet, ss []answer.Source) { ss[0].Title = "Release notes" })),
			checks: all(true, false, true), explain: []string{"not the retrieved title"}},
		{name: "a title without its site suffix passes", applies: true,
			// okEnv's s2 is "Go (programming language)"; retrieved with " - Wikipedia".
			in: groundingCase(okEnv), checks: all(true, true, true)},
		{name: "published date agrees across time zones", applies: true,
			in:     groundingCase(envWith(func(_ []answer.Bullet, ss []answer.Source) { ss[2].Published = "2022-03-16T03:30:00Z" })),
			checks: withPublished(all(true, true, true), true)},
		{name: "wrong published date", applies: true,
			in:      groundingCase(envWith(func(_ []answer.Bullet, ss []answer.Source) { ss[2].Published = "2021-03-15T00:00:00Z" })),
			checks:  withPublished(all(true, true, true), false),
			explain: []string{"source s3 published 2021-03-15T00:00:00Z, but the provider dated https://go.dev/blog/go1.18 2022-03-15T23:30:00-04:00"}},
		{name: "a date the provider did not give is not compared", applies: true,
			in:     groundingCase(envWith(func(_ []answer.Bullet, ss []answer.Source) { ss[0].Published = "2012-03-28T00:00:00Z" })),
			checks: all(true, true, true)},
		{name: "nothing retrieved", applies: true,
			in:      &Input{Case: routingCase("tavily_only"), Session: session(p2(okMsg(answer.VerificationSkipped), call(0, trace.ToolTavily, trace.CallError)))},
			checks:  all(false, true, false),
			explain: []string{"0 of 3 sources retrieved", "not retrieved in this turn"}},
		{name: "a search that found nothing leaves every source unretrieved", applies: true,
			in: &Input{Case: routingCase("tavily_only"), Session: session(p2(okMsg(answer.VerificationSkipped), func() trace.ToolCall {
				c := call(0, trace.ToolTavily, trace.CallOK)
				c.Results = 0
				return c
			}()))},
			checks: all(false, true, false), explain: []string{"0 of 3 sources retrieved"}},
		{name: "a trace that does not record its results is not judged", applies: false,
			in: &Input{Case: routingCase("tavily_only"), Session: session(p2(okMsg(answer.VerificationSkipped), call(0, trace.ToolTavily, trace.CallOK)))}},
		{name: "a turn that did not finish is not judged", applies: false, in: &Input{Case: routingCase("tavily_only"), Session: session(failed)}},
		{name: "a failure form is not judged", applies: false, in: &Input{Case: routingCase("tavily_only"), Session: session(violation)}},
		{name: "consent cases do not apply", applies: false, in: &Input{Case: consentCase("YES", "yes"), Session: session(groundedTurn(okEnv))}},
	})
}

func TestClaimTokens(t *testing.T) {
	tests := []struct {
		text string
		want []claimToken
	}{
		{"Go 1.0 was released in March 2012.", []claimToken{{"1.0", tokNumber}, {"2012", tokYear}}},
		{"UK inflation fell to 2.5% in December 2024 from 2.6 per cent.", []claimToken{{"2.5%", tokPercent}, {"2.6 per cent", tokPercent}, {"2024", tokYear}}},
		{"The James Webb Space Telescope launched on 25 December 2021.", []claimToken{{"25", tokNumber}, {"2021", tokYear}, {"James Webb Space Telescope", tokName}}},
		{"About 384,400 km; Isar, Emsland and Neckarwestheim closed.", []claimToken{{"384,400", tokNumber}}},
		{"Satya Nadella succeeded Steve Ballmer in 2014.", []claimToken{{"2014", tokYear}, {"Satya Nadella", tokName}, {"Steve Ballmer", tokName}}},
		{"In The Hague, 7 judges sit.", nil}, // "The" is no part of a name; one digit is no claim
	}
	for _, tc := range tests {
		got := claimTokens(tc.text)
		if !slices.Equal(got, tc.want) {
			t.Errorf("claimTokens(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
	if contains("released in 20120", claimToken{"2012", tokYear}) {
		t.Error("a year matched inside a longer number")
	}
	if !contains("It’s   “Go”", claimToken{"it's \"go\"", tokName}) {
		t.Error("typographic quotes and spaces are not folded")
	}
}

func TestGroundingAggregate(t *testing.T) {
	s := Grounding{}
	agg := s.NewAggregator()
	clean, _ := s.Score(groundingCase(okEnv))
	bad, _ := s.Score(groundingCase(envWith(func(_ []answer.Bullet, ss []answer.Source) { ss[2].URL = "https://go.dev/blog/made-up" })))
	agg.Add(CaseInfo{Key: "routing/a"}, clean)
	agg.Add(CaseInfo{Key: "routing/b"}, clean)
	agg.Add(CaseInfo{Key: "flows/c", Tags: []string{KnownFailureTag}}, bad)
	ms := map[string]Metric{}
	for _, m := range agg.Summary().Metrics {
		ms[m.Name] = m
	}
	for name, want := range map[string][2]int{
		MetricGroundingSources:      {2, 3},
		MetricGroundingSourcesClean: {2, 2},
		MetricGroundingTitles:       {3, 3},
		MetricGroundingClaims:       {3, 3},
		MetricGroundingIndependence: {5, 9}, // bullet 2 of the bad answer lost its retrieved go.dev source
		MetricGroundingClaimTokens:  {12, 12},
	} {
		m, ok := ms[name]
		if !ok {
			t.Errorf("no metric %s", name)
			continue
		}
		lo, hi := stats.Wilson(want[0], want[1])
		if m.Num != want[0] || m.Den != want[1] || m.Lo != lo || m.Hi != hi || m.Unit != UnitRate {
			t.Errorf("%s = %d/%d [%v, %v], want %d/%d [%v, %v]", name, m.Num, m.Den, m.Lo, m.Hi, want[0], want[1], lo, hi)
		}
		if !slices.Contains(GroundingMetrics, name) {
			t.Errorf("%s is not declared in GroundingMetrics", name)
		}
	}
	if ms[MetricGroundingSources].Paired != true || ms[MetricGroundingSourcesClean].Paired {
		t.Error("only per-case outcome metrics are paired")
	}
}

// FuzzGrounding scores answers whose bullet, title and published date and
// whose retrieved snippet are arbitrary: no panic, every failing check says
// why, and every claim token is found in the bullet it came from.
func FuzzGrounding(f *testing.F) {
	f.Add("Go 1.0 was released in March 2012.", "Go release history", "2012-03-28T00:00:00Z", "Go 1.0 was released in March 2012.")
	f.Add("UK inflation fell to 2.5% in December 2024, per The Office For National Statistics.", "x", "", "2.5 per cent")
	f.Add("Ünïcode Ñame 1,200 kronor ’quoted’ 19.5 %", "", "garbage", "\u00a0")
	f.Fuzz(func(t *testing.T, bullet, title, published, snippet string) {
		for _, tok := range claimTokens(bullet) {
			if !contains(bullet, tok) {
				t.Fatalf("token %q (%s) is not found in its own bullet %q", tok.Text, tok.Kind, bullet)
			}
		}
		env := envWith(func(bs []answer.Bullet, ss []answer.Source) {
			bs[0].Text = bullet
			ss[0].Title, ss[0].Published = title, published
		})
		c := call(0, trace.ToolTavily, trace.CallOK)
		c.Retrieved = slices.Clone(groundedResults)
		c.Retrieved[0].Snippet = snippet
		turn := p2(answer.FormatPhase2(answer.VerificationSkipped, env), c)
		r, ok := Grounding{}.Score(&Input{Case: routingCase("tavily_only"), Session: session(turn)})
		if !ok {
			return // the envelope did not survive the fuzzed text
		}
		for _, ch := range r.Checks {
			if !ch.Pass && ch.Reason == "" {
				t.Fatalf("check %q fails without a reason", ch.Name)
			}
		}
	})
}
