package run

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/sim"
)

// liveAt records items live against the simulator on loopback at base URLs
// of its own, as a vLLM host or a proxy would be: prefix + "/v1" for the
// chat API, prefix + "/tavily" and "/exa" for the searches.
func liveAt(t *testing.T, dir string, items []Item) (base string) {
	t.Helper()
	srv, u, err := sim.Start(sim.Options{Policy: "seed"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	base = u.String()
	env := map[string]string{
		"SEARCHBENCH_LLM_BASE_URL": base + "/v1",
		"TAVILY_BASE_URL":          base + "/tavily",
		"EXA_BASE_URL":             base + "/exa",
		"CEREBRAS_API_KEY":         "local-vllm-key-0001",
		"TAVILY_API_KEY":           "tvly-local-key-0001",
		"EXA_API_KEY":              "exa-local-key-0001",
	}
	err = Record(context.Background(), items, RecordOptions{Variant: shippedVariant(t, "seed"), Cassettes: dir, Backend: BackendLive,
		Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	return base
}

// TestRecordingAtAnyBaseURLReplaysWithoutIt: a live recording made against
// base URLs of one's own (a loopback host, the chat API under /v1) replays
// with no base URL set, and with other ones set: replay matches on the
// service and the path below its base, never the host.
func TestRecordingAtAnyBaseURLReplaysWithoutIt(t *testing.T) {
	dir := t.TempDir()
	items := plan(t, shipped(t), "id:t-iphone-year", "id:e-transformer-attention", "dataset:flows")[:6]
	base := liveAt(t, dir, items)
	shelf := Shelf{Root: dir, Variant: "seed", Mode: "model"}

	// The cassettes hold the loopback URLs, and recorded.json where they
	// went: without both this test would prove nothing.
	b, err := os.ReadFile(shelf.Path(items[0].Case))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "url: "+base+"/v1/chat/completions") {
		t.Fatalf("the cassette was not recorded at %s/v1:\n%.600s", base, b)
	}
	m, err := shelf.LoadManifest()
	if err != nil {
		t.Fatal(err)
	}
	e := m.Cases[items[0].Case.Key()]
	if e.Backend != BackendLive || e.Model != "gpt-oss-120b" || e.BaseURLs["chat"] != base+"/v1" || e.BaseURLs["tavily"] != base+"/tavily" {
		t.Fatalf("recorded.json entry %+v", e)
	}

	replay := func(env map[string]string) report.Summary {
		t.Helper()
		var errs []string
		sum, err := Replay(context.Background(), Slice(items), Options{Cassettes: dir, Scorers: score.All(), Getenv: func(k string) string { return env[k] },
			Done: func(r *report.CaseRecord) {
				if r.Error != "" {
					errs = append(errs, r.Key+": "+r.Error)
				}
			}}, report.Meta{}, report.Multi())
		if err != nil {
			t.Fatal(err)
		}
		if len(errs) > 0 {
			t.Errorf("replay with %v: %d errors; first: %.800s", env, len(errs), errs[0])
		}
		return sum
	}
	sum := replay(nil)
	if sum.Cases != len(items) || sum.Passed == 0 {
		t.Errorf("replay without base URLs: %+v", sum)
	}
	replay(map[string]string{"SEARCHBENCH_LLM_BASE_URL": "https://vllm.example.org:8443/openai/v1", "TAVILY_BASE_URL": "http://127.0.0.1:1"})

	// A manifest from before base URLs were noted still replays the chat
	// API (any /chat/completions is the chat service), but a search sent to
	// a host of one's own can then only match at that host: the entry's
	// base URLs are what makes it replay anywhere.
	for k, e := range m.Cases {
		e.BaseURLs = nil
		m.Cases[k] = e
	}
	if err := shelf.Save(m); err != nil {
		t.Fatal(err)
	}
	var first string
	Replay(context.Background(), Slice(items[:1]), Options{Cassettes: dir, Scorers: score.All(),
		Done: func(r *report.CaseRecord) { first = r.Error }}, report.Meta{}, report.Multi())
	if !strings.Contains(first, "no recorded interaction matches POST https://api.") {
		t.Errorf("without the recorded base URLs, a search at a host of one's own replayed: %q", first)
	}
}

// TestShortKeyIsNamed: a key the recorder would refuse as too short to
// scrub is refused before any request, naming its variable; a key too
// short to be a secret at all (vLLM's "EMPTY") passes.
func TestShortKeyIsNamed(t *testing.T) {
	items := plan(t, shipped(t), "id:t-iphone-year")
	env := map[string]string{
		"CEREBRAS_API_KEY":         "sim-key", // what searchbench sim used to print
		"TAVILY_API_KEY":           "tvly-long-enough-key",
		"EXA_API_KEY":              "exa-long-enough-key",
		"SEARCHBENCH_LLM_BASE_URL": "http://u:pass12@127.0.0.1:1/v1",
	}
	err := Record(context.Background(), items, RecordOptions{Variant: shippedVariant(t, "seed"), Cassettes: t.TempDir(), Backend: BackendLive,
		Getenv: func(k string) string { return env[k] }})
	for _, want := range []string{"CEREBRAS_API_KEY is 7 bytes long", "shorter than 8 bytes", "SEARCHBENCH_LLM_BASE_URL carries a credential"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("record with a 7-byte key: %v; want it to say %q", err, want)
		}
	}
	if err != nil && strings.Contains(err.Error(), "sim-key") {
		t.Errorf("the error prints the key: %v", err)
	}
	env["CEREBRAS_API_KEY"] = "EMPTY"
	delete(env, "SEARCHBENCH_LLM_BASE_URL")
	if err := shortSecrets(func(k string) string { return env[k] }); err != nil {
		t.Errorf("a 5-byte key, no secret at all: %v", err)
	}
}
