package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/searchbench/searchbench/sim/scenario"
)

// subject is one theme of the fixture corpus: a concept the corpus
// discusses, and concrete facts it states about it.
type subject struct {
	concept string   // "AI alignment": fills the concept templates
	orgs    string   // "labs": fills "which <orgs> lead it"
	facts   []string // fact questions the corpus answers, without "?"
}

// subjects follow the sections of fixtures/corpus, so the simulator's
// searches return real documents for every generated query.
var subjects = []subject{
	{"AI alignment", "labs", []string{"When was Anthropic founded", "Who leads OpenAI's alignment research", "When did OpenAI announce its superalignment team"}},
	{"evaluating large language models", "companies", []string{"When was GPT-4 released", "Which company makes the H100 GPU", "What is the market capitalization of Nvidia"}},
	{"retrieval-augmented generation", "companies", []string{"When was the retrieval-augmented generation paper published", "Who introduced retrieval-augmented generation"}},
	{"regulating AI", "governments", []string{"When did the EU AI Act enter into force", "When do the EU AI Act's general-purpose AI rules take effect"}},
	{"protein structure prediction", "labs", []string{"When was AlphaFold 2 released", "Who received the 2024 Nobel Prize in Chemistry"}},
	{"longtermism", "organizations", []string{"When was the Future of Humanity Institute closed", "Who founded the Future of Humanity Institute"}},
	{"universal basic income", "countries", []string{"When did Finland's basic income experiment start", "How many people took part in Finland's basic income trial"}},
	{"monetary policy", "institutions", []string{"What is the current ECB deposit facility rate", "Who is the current Governor of the Bank of England", "Who chairs the Federal Reserve"}},
	{"the 2008 financial crisis", "institutions", []string{"When did Lehman Brothers file for bankruptcy", "How large was the TARP bailout"}},
	{"remote work", "companies", []string{"What share of US workdays were remote in 2023", "When did the UK four-day week pilot start"}},
	{"nuclear power", "countries", []string{"When did Germany shut down its last nuclear power plants", "How many nuclear reactors does France operate"}},
	{"electric vehicle batteries", "companies", []string{"How many electric cars were sold worldwide in 2023", "Which company sells the most electric cars"}},
	{"carbon pricing", "countries", []string{"What is the price of carbon in the EU emissions trading system", "When did the EU emissions trading system start"}},
	{"space telescopes", "agencies", []string{"When did the James Webb Space Telescope launch", "How far from Earth does the James Webb Space Telescope orbit"}},
	{"public health emergencies", "organizations", []string{"When did the WHO end the COVID-19 emergency", "How many people died of COVID-19 worldwide"}},
	{"cloud-native software architecture", "companies", []string{"When was Kubernetes 1.0 released", "Who created Kubernetes"}},
	{"quantum computing", "companies", []string{"How many qubits does IBM's Condor processor have", "When did Google announce its Willow chip"}},
	{"cryptocurrencies", "countries", []string{"What is the maximum supply of Bitcoin", "When did El Salvador adopt Bitcoin as legal tender"}},
	{"the iPhone's design", "companies", []string{"What year was the first iPhone released", "When did Apple introduce the iPhone X"}},
	{"leadership succession at Microsoft", "executives", []string{"Who is the current CEO of Microsoft", "When did Satya Nadella become CEO of Microsoft"}},
	{"purpose-built capital cities", "countries", []string{"What is the capital of Australia", "What is the population of Nigeria", "What is the currency code of the Japanese yen"}},
}

// Templates by routing label; %s is the concept or the fact question.
var (
	conceptTemplates = []string{ // exa_only
		"What are the main approaches to %s",
		"Summarize the key arguments for and against %s",
		"What does the research literature say about %s",
		"Explain the main trade-offs in %s",
		"What are the main criticisms of %s",
		"What are the main categories of research on %s",
		"What are the latest approaches to %s", // time words mislead the seed prompt
	}
	mixedTemplates = []string{ // tavily_plus_exa: a concept and its %[2]s
		"What are the main approaches to %[1]s and which %[2]s lead them",
		"Explain the debate over %[1]s and which %[2]s are involved",
		"What are the main methods in %[1]s and when were they introduced",
		"Summarize the theories of %[1]s and which %[2]s back each",
		"How has %[1]s evolved since 2019 and which %[2]s lead it today", // often routed to Tavily alone
	}
	factFrames = []string{ // tavily_only: the fact question as written, or framed
		"%s",
		"%s",
		"Quick question: %s",
		"Do you know %s",
	}
)

// Consent replies and the intent they carry (each checked against
// consent.Decide by the tests).
var (
	yesReplies    = []string{"yes", "yes please", "sure", "go ahead", "ok", "yep, do it"}
	noReplies     = []string{"no thanks", "no", "no need", "not now"}
	searchReplies = []string{"can you confirm that?", "double-check that", "look it up", "check now"}
)

// consentReplies are the consent dataset's cases: reply and label.
var consentReplies = []struct{ reply, label string }{
	{"yes", "YES"}, {"sure thing", "YES"}, {"go ahead", "YES"}, {"no thanks", "NO"},
	{"not now", "NO"}, {"double-check that", "SEARCH_NOW"}, {"look it up", "SEARCH_NOW"},
	{"what is the capital of Australia", "NEW_QUERY"},
}

// golds are the answers the corpus gives to some of the fact questions
// (as datasets/routing.yaml grades them): a routing case asking one carries
// it, so a replay grades its answer (eval/grade) and, where the rules
// defer, replays the recorded judge, as a team's data with gold answers
// does; those that name a wrong answer too (reject) are the ones the rules
// leave to the judge. The other cases have none and pay nothing for
// correctness.
var golds = map[string]*gold{
	"When did the WHO end the COVID-19 emergency":              {Accept: []string{"5 May 2023"}},
	"When was Anthropic founded":                               {Accept: []string{"2021"}},
	"Which company makes the H100 GPU":                         {Accept: []string{"Nvidia"}},
	"When did the EU AI Act enter into force":                  {Accept: []string{"1 August 2024"}},
	"Who is the current Governor of the Bank of England":       {Accept: []string{"Andrew Bailey"}, Reject: []string{"Mark Carney"}, AsOf: "2025-06-30"},
	"When did Germany shut down its last nuclear power plants": {Accept: []string{"15 April 2023"}},
	"How many electric cars were sold worldwide in 2023":       {Accept: []string{"14 million"}},
	"When did the James Webb Space Telescope launch":           {Accept: []string{"25 December 2021"}},
	"When was Kubernetes 1.0 released":                         {Accept: []string{"July 2015"}},
	"How many qubits does IBM's Condor processor have":         {Accept: []string{"1,121 qubits"}},
	"What is the maximum supply of Bitcoin":                    {Accept: []string{"21 million coins"}},
	"What year was the first iPhone released":                  {Accept: []string{"2007"}},
	"Who is the current CEO of Microsoft":                      {Accept: []string{"Satya Nadella"}, Reject: []string{"Steve Ballmer"}, AsOf: "2025-06-30"},
	"What is the capital of Australia":                         {Accept: []string{"Canberra"}},
	"What is the population of Nigeria":                        {Accept: []string{"230 million"}},
	"What is the currency code of the Japanese yen":            {Accept: []string{"JPY"}},
}

// gold is a case's answer as the dataset files write one.
type gold struct {
	Accept []string `yaml:"accept,flow"`
	Reject []string `yaml:"reject,flow,omitempty"`
	AsOf   string   `yaml:"as_of,omitempty"`
}

// query is a generated routing query with its label, and the gold answer
// of a fact question that has one.
type query struct {
	text, label string
	gold        *gold
}

// routingQuery draws a query: a third of each label, like the shipped set.
func routingQuery(r *rand.Rand) query {
	s := subjects[r.IntN(len(subjects))]
	switch r.IntN(3) {
	case 0:
		f := s.facts[r.IntN(len(s.facts))]
		return query{fmt.Sprintf(factFrames[r.IntN(len(factFrames))], f) + "?", scenario.RouteTavilyOnly, golds[f]}
	case 1:
		return query{fmt.Sprintf(conceptTemplates[r.IntN(len(conceptTemplates))], s.concept) + "?", scenario.RouteExaOnly, nil}
	}
	return query{fmt.Sprintf(mixedTemplates[r.IntN(len(mixedTemplates))], s.concept, s.orgs) + "?", scenario.RouteTavilyPlusExa, nil}
}

// Wire forms of the dataset files, in the field order the shipped files use.
type (
	file struct {
		Kind        string `yaml:"kind"`
		Description string `yaml:"description"`
		Cases       []any  `yaml:"cases"`
	}
	routingCase struct {
		ID     string   `yaml:"id"`
		Query  string   `yaml:"query"`
		Label  string   `yaml:"label"`
		Answer *gold    `yaml:"answer,omitempty"`
		Tags   []string `yaml:"tags,flow"`
	}
	consentCase struct {
		ID    string   `yaml:"id"`
		Reply string   `yaml:"reply"`
		Label string   `yaml:"label"`
		Tags  []string `yaml:"tags,flow"`
	}
	flowCase struct {
		ID     string   `yaml:"id"`
		Tags   []string `yaml:"tags,flow"`
		Note   string   `yaml:"note,omitempty"`
		Answer *gold    `yaml:"answer,omitempty"`
		Turns  []turn   `yaml:"turns"`
	}
	turn struct {
		User   string `yaml:"user"`
		Expect expect `yaml:"expect"`
	}
	expect struct {
		Phase    string `yaml:"phase"`
		Intent   string `yaml:"intent,omitempty"`
		Override *bool  `yaml:"override,omitempty"`
		Route    string `yaml:"route,omitempty"`
	}
	parserCase struct {
		ID        string       `yaml:"id"`
		Prompt    string       `yaml:"prompt"`
		Reasoning string       `yaml:"reasoning"`
		Content   string       `yaml:"content"`
		Expect    []parserCall `yaml:"expect"`
		Tags      []string     `yaml:"tags,flow"`
	}
	parserCall struct {
		Name      string            `yaml:"name"`
		Arguments map[string]string `yaml:"arguments,flow"`
	}
)

func boolp(b bool) *bool { return &b }

func pick(r *rand.Rand, list []string) string { return list[r.IntN(len(list))] }

// phase1Query strips the override "?" so the question gets a Phase 1
// answer first.
func phase1Query(q string) string { return strings.TrimRight(q, "?") }

// flow draws one flows case. Most are consent conversations (Phase 1, then
// yes, search now, no, or a new question); some skip Phase 1 with an
// override "?"; some replay a script of the simulated model, which carries
// its failures (rate limits, broken answers, Exa errors) into the set.
func flow(r *rand.Rand, id string, scripts []*scenario.Script) flowCase {
	q := routingQuery(r)
	p1 := expect{Phase: "phase1", Override: boolp(false)}
	switch k := r.IntN(20); {
	case k < 7:
		return flowCase{ID: id, Tags: []string{"consent", "yes"}, Answer: q.gold, Turns: []turn{
			{phase1Query(q.text), p1},
			{pick(r, yesReplies), expect{Phase: "phase2", Intent: "YES", Override: boolp(false), Route: q.label}},
		}}
	case k < 10:
		return flowCase{ID: id, Tags: []string{"consent", "search-now"}, Answer: q.gold, Turns: []turn{
			{phase1Query(q.text), p1},
			{pick(r, searchReplies), expect{Phase: "phase2", Intent: "SEARCH_NOW", Route: q.label}},
		}}
	case k < 12:
		return flowCase{ID: id, Tags: []string{"consent", "no"}, Answer: q.gold, Turns: []turn{
			{phase1Query(q.text), p1},
			{pick(r, noReplies), expect{Phase: "decline", Intent: "NO"}},
		}}
	case k < 13:
		next := routingQuery(r)
		return flowCase{ID: id, Tags: []string{"consent", "new-query"}, Turns: []turn{
			{phase1Query(q.text), p1},
			{phase1Query(next.text), expect{Phase: "phase1", Intent: "NEW_QUERY", Override: boolp(false)}},
		}}
	case k < 16:
		return flowCase{ID: id, Tags: []string{"override"}, Answer: q.gold, Turns: []turn{
			{q.text, expect{Phase: "phase2", Override: boolp(true), Route: q.label}},
		}}
	}
	// A script of the simulated model: through Phase 1 and consent, or
	// straight to Phase 2, as the script's query is written.
	sc := scripts[r.IntN(len(scripts))]
	tags := []string{"script"}
	for _, f := range sc.Faults {
		tags = append(tags, string(f))
	}
	text := strings.TrimSpace(sc.Query)
	if strings.HasSuffix(text, "?") {
		return flowCase{ID: id, Tags: tags, Turns: []turn{{text, expect{Phase: "phase2", Override: boolp(true)}}}}
	}
	return flowCase{ID: id, Tags: tags, Turns: []turn{
		{text, p1},
		{"yes", expect{Phase: "phase2", Intent: "YES"}},
	}}
}

// parser draws one parser case: a ReAct output with one search call.
func parser(r *rand.Rand, id string) parserCase {
	q := strings.TrimSuffix(routingQuery(r).text, "?")
	return parserCase{
		ID:        id,
		Prompt:    "react",
		Reasoning: fmt.Sprintf("Thought: I need current sources before answering.\nAction: web_search\nAction Input: {\"query\": %q}\n", q),
		Expect:    []parserCall{{Name: "web_search", Arguments: map[string]string{"query": q}}},
		Tags:      []string{"clean"},
	}
}
