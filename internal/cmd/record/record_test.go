package record_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/lib/testenv"
	"github.com/searchbench/searchbench/sim"
)

func sb(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	io, out, errOut := cmdutil.Test("")
	code := root.Main(context.Background(), args, io)
	return code, out.String(), errOut.String()
}

func TestRecordSamples(t *testing.T) {
	dir := t.TempDir()
	ds := filepath.Join(dir, "datasets")
	os.MkdirAll(ds, 0o755)
	os.WriteFile(filepath.Join(ds, "routing.yaml"), []byte("kind: routing\ncases:\n  - id: ubi\n    query: Which countries have run universal basic income pilots and what did the research conclude?\n    label: tavily_plus_exa\n"), 0o644)
	prompts := filepath.Join(dir, "prompts")
	os.MkdirAll(filepath.Join(prompts, "cold"), 0o755)
	os.WriteFile(filepath.Join(prompts, "cold", "variant.yaml"), []byte("temperature: 0\n"), 0o644)
	common := []string{"--datasets", ds, "--cassettes", filepath.Join(dir, "cassettes"), "--prompts", prompts}

	code, out, errOut := sb(t, append([]string{"record", "--samples", "3"}, common...)...)
	if code != 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), "recorded 1 cases × 3 samples = 3 cassettes under ") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, f := range []string{"ubi.yaml", "ubi.s2.yaml", "ubi.s3.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, "cassettes", "seed", "model", "routing", f)); err != nil {
			t.Error(err)
		}
	}
	if strings.Contains(errOut, "temperature 0") {
		t.Error("seed sets no temperature, yet a warning says 0")
	}

	// A variant at temperature 0 is warned about: its samples would not differ.
	_, _, errOut = sb(t, append([]string{"record", "--samples", "2", "--variant", "cold", "--sim-policy", "seed"}, common...)...)
	if !strings.Contains(errOut, "WARNING: variant cold sets temperature 0") {
		t.Errorf("no temperature warning:\n%s", errOut)
	}

	for _, bad := range []string{"-1", "101"} {
		code, _, errOut := sb(t, append([]string{"record", "--samples", bad}, common...)...)
		if code != cmdutil.ExitUsage || !strings.Contains(errOut, "--samples "+bad+": want 1 to 100") {
			t.Errorf("--samples %s: exit %d %s", bad, code, errOut)
		}
	}
}

// liveEnv points the clients at a simulator on loopback under base URLs
// of its own (the chat API under /v1, as a vLLM host serves it), with keys
// long enough for the recorder.
func liveEnv(t *testing.T) map[string]string {
	t.Helper()
	srv, u, err := sim.Start(sim.Options{Policy: "seed"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return map[string]string{
		"SEARCHBENCH_LLM_BASE_URL": u.String() + "/v1",
		"TAVILY_BASE_URL":          u.String() + "/tavily",
		"EXA_BASE_URL":             u.String() + "/exa",
		"CEREBRAS_API_KEY":         "local-vllm-key-0001",
		"TAVILY_API_KEY":           "tvly-local-key-0001",
		"EXA_API_KEY":              "exa-local-key-0001",
	}
}

func sbEnv(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	io, out, errOut := cmdutil.Test("")
	io.Getenv = func(k string) string { return env[k] }
	code := root.Main(context.Background(), args, io)
	return code, out.String(), errOut.String()
}

// TestLiveRecordingReplaysAnywhere: record --backend live against a custom
// SEARCHBENCH_LLM_BASE_URL (a loopback server, the API under /v1), then
// run with no base URL set: exit 0.
func TestLiveRecordingReplaysAnywhere(t *testing.T) {
	testenv.Slow(t)
	dir := t.TempDir()
	cassettes := filepath.Join(dir, "cassettes")
	common := []string{"--datasets", "../../../testdata/demo/datasets", "--cassettes", cassettes, "--filter", "id:t-iphone-year", "--filter", "id:yes-after-phase1"}
	code, out, errOut := sbEnv(t, liveEnv(t), append([]string{"record", "--backend", "live"}, common...)...)
	if code != 0 || !strings.Contains(out, "recorded 2 cassettes") {
		t.Fatalf("record --backend live: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = sbEnv(t, nil, append([]string{"run", "--quiet", "--out", "", "--runs", "", "--config", "../../../testdata/demo/config/executor.yaml"}, common...)...)
	if code != 0 {
		t.Fatalf("run with no base URL set: exit %d\n%s%s", code, out, errOut)
	}
}

// TestSimDoesNotReplaceLiveCassettes: record --backend sim refuses to
// replace cassettes recorded live, naming them and --force; --force does.
func TestSimDoesNotReplaceLiveCassettes(t *testing.T) {
	testenv.Slow(t)
	dir := t.TempDir()
	cassettes := filepath.Join(dir, "cassettes")
	common := []string{"--datasets", "../../../testdata/demo/datasets", "--cassettes", cassettes, "--filter", "id:t-iphone-year", "--filter", "id:yes-after-phase1"}
	if code, out, errOut := sbEnv(t, liveEnv(t), append([]string{"record", "--backend", "live"}, common...)...); code != 0 {
		t.Fatalf("record --backend live: exit %d\n%s%s", code, out, errOut)
	}
	path := filepath.Join(cassettes, "seed", "model", "routing", "t-iphone-year.yaml")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	code, _, errOut := sb(t, append([]string{"record", "--backend", "sim"}, common...)...)
	for _, want := range []string{"refusing to replace 2 cassette(s) recorded live", filepath.ToSlash(path) + " (case routing/t-iphone-year)", "flows/yes-after-phase1", "--force"} {
		if code != cmdutil.ExitUsage || !strings.Contains(errOut, want) {
			t.Errorf("record --backend sim over live cassettes: exit %d, stderr lacks %q:\n%s", code, want, errOut)
		}
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("the refused recording changed a live cassette")
	}
	// Cases recorded from the simulator are not in the way.
	if code, out, errOut := sb(t, "record", "--backend", "sim", "--datasets", "../../../testdata/demo/datasets", "--cassettes", cassettes, "--filter", "id:t-transformer-paper-date"); code != 0 {
		t.Errorf("recording another case: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := sb(t, append([]string{"record", "--backend", "sim", "--force"}, common...)...); code != 0 || !strings.Contains(out, "recorded 2 cassettes") {
		t.Fatalf("--force: exit %d\n%s%s", code, out, errOut)
	}
	m, _ := os.ReadFile(filepath.Join(cassettes, "seed", "model", "recorded.json"))
	if strings.Contains(string(m), `"live"`) {
		t.Errorf("after --force, recorded.json still lists live cassettes:\n%s", m)
	}
}

// TestGatewayRecordingWithFailedSearchReplaysAnywhere: a live recording
// through a loopback gateway where searches failed (Exa 402, Tavily 432,
// Exa 503 until the retries ran out) replays with no base URL set. The
// model was shown the failures' text, so that text is in the recorded
// requests: it names the service and path, never the gateway's URL.
func TestGatewayRecordingWithFailedSearchReplaysAnywhere(t *testing.T) {
	dir := t.TempDir()
	cassettes := filepath.Join(dir, "cassettes")
	env := liveEnv(t)
	common := []string{"--datasets", "../../../testdata/demo/datasets", "--cassettes", cassettes, "--filter", "id:exa-no-credits", "--filter", "id:tavily-plan-limit", "--filter", "id:exa-down-retries-exhausted"}
	code, out, errOut := sbEnv(t, env, append([]string{"record", "--backend", "live", "--no-pace"}, common...)...)
	if code != 0 {
		t.Fatalf("record --backend live: exit %d\n%s%s", code, out, errOut)
	}
	gateway := strings.TrimSuffix(env["TAVILY_BASE_URL"], "/tavily")
	filepath.WalkDir(cassettes, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".yaml") {
			b, _ := os.ReadFile(p)
			for _, l := range strings.Split(string(b), "\n") {
				if strings.Contains(l, "body:") && strings.Contains(l, gateway) {
					t.Errorf("%s: a recorded body names the gateway %s", p, gateway)
				}
			}
		}
		return err
	})
	code, out, errOut = sbEnv(t, nil, append([]string{"run", "--quiet", "--out", "", "--runs", "", "--config", "../../../testdata/demo/config/executor.yaml"}, common...)...)
	if code != 0 {
		t.Fatalf("run with no base URL set: exit %d\n%s%s", code, out, errOut)
	}
}

// flakyGateway is a loopback gateway in front of a simulator that answers
// the first request to each path in fail with that path's failure, and
// passes everything else on.
func flakyGateway(t *testing.T, fail map[string]func(w http.ResponseWriter)) map[string]string {
	t.Helper()
	env := liveEnv(t)
	target, err := url.Parse(strings.TrimSuffix(env["TAVILY_BASE_URL"], "/tavily"))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	var mu sync.Mutex
	seen := map[string]bool{}
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		f, ok := fail[r.URL.Path]
		first := ok && !seen[r.URL.Path]
		seen[r.URL.Path] = true
		mu.Unlock()
		if first {
			f(w)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(gw.Close)
	for _, k := range []string{"SEARCHBENCH_LLM_BASE_URL", "TAVILY_BASE_URL", "EXA_BASE_URL"} {
		env[k] = strings.Replace(env[k], target.String(), gw.URL, 1)
	}
	return env
}

// TestRetriedFailureIsNotRecorded: a live recording where the provider
// answered 503 once and the client's retry succeeded replays with no
// retries: the case's "retries: 0" holds, where the 503 used to stay in the
// cassette and fail the replay until the case was re-recorded.
func TestRetriedFailureIsNotRecorded(t *testing.T) {
	env := flakyGateway(t, map[string]func(http.ResponseWriter){
		"/tavily/search": func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"detail":{"error":"upstream timeout"}}`)
		},
	})
	dir := t.TempDir()
	common := []string{"--datasets", "../../../testdata/demo/datasets", "--cassettes", filepath.Join(dir, "cassettes"), "--filter", "id:yes-after-phase1"}
	code, out, errOut := sbEnv(t, env, append([]string{"record", "--backend", "live", "--no-pace"}, common...)...)
	if code != 0 {
		t.Fatalf("record: exit %d\n%s%s", code, out, errOut)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "cassettes", "seed", "model", "flows", "yes-after-phase1.yaml"))
	if strings.Contains(string(b), "upstream timeout") {
		t.Error("the retried 503 is in the cassette")
	}
	code, out, errOut = sbEnv(t, nil, append([]string{"run", "--quiet", "--out", "", "--runs", "", "--config", "../../../testdata/demo/config/executor.yaml"}, common...)...)
	if code != 0 {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errOut)
	}
}

// TestPathKeyNeverWritten: a gateway that takes its key in the base URL's
// path (/<key>/v1): the key reaches no cassette, no recorded.json and no
// report, and the recording replays with no base URL set.
func TestPathKeyNeverWritten(t *testing.T) {
	const pathKey = "gw0Key1a2B3c4D5e6F7"
	env := liveEnv(t)
	target, _ := url.Parse(strings.TrimSuffix(env["TAVILY_BASE_URL"], "/tavily"))
	proxy := httputil.NewSingleHostReverseProxy(target)
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := strings.CutPrefix(r.URL.Path, "/"+pathKey)
		if !ok {
			http.Error(w, "no key", http.StatusUnauthorized)
			return
		}
		r.URL.Path = p
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(gw.Close)
	for _, k := range []string{"SEARCHBENCH_LLM_BASE_URL", "TAVILY_BASE_URL", "EXA_BASE_URL"} {
		env[k] = strings.Replace(env[k], target.String(), gw.URL+"/"+pathKey, 1)
	}
	dir := t.TempDir()
	common := []string{"--datasets", "../../../testdata/demo/datasets", "--cassettes", filepath.Join(dir, "cassettes"), "--filter", "id:t-iphone-year", "--filter", "id:tavily-plan-limit"}
	code, out, errOut := sbEnv(t, env, append([]string{"record", "--backend", "live", "--no-pace"}, common...)...)
	if code != 0 || strings.Contains(out+errOut, pathKey) {
		t.Fatalf("record: exit %d (or the key printed)\n%s%s", code, out, errOut)
	}
	reports := filepath.Join(dir, "out")
	code, out, errOut = sbEnv(t, nil, append([]string{"run", "--quiet", "--out", reports, "--runs", "", "--config", "../../../testdata/demo/config/executor.yaml"}, common...)...)
	if code != 0 {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errOut)
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			if strings.Contains(string(b), pathKey) || strings.Contains(string(b), pathKey[:12]) {
				t.Errorf("%s holds the key in the base URL's path", p)
			}
		}
		return err
	})
	m, _ := os.ReadFile(filepath.Join(dir, "cassettes", "seed", "model", "recorded.json"))
	if !strings.Contains(string(m), "/REDACTED/v1") {
		t.Errorf("recorded.json does not show where the recording went:\n%s", m)
	}
}

// TestMissNamesTheEnvironment (issue 35): a replay that misses only
// because of the environment says so in its first line, with the variable
// and its value, and suggests no re-recording: a vLLM recording replayed
// without SEARCHBENCH_LLM_MODEL, and a recording through a gateway whose
// base URL recorded.json does not name.
func TestMissNamesTheEnvironment(t *testing.T) {
	env := liveEnv(t)
	env["SEARCHBENCH_LLM_MODEL"] = "openai/gpt-oss-120b"
	dir := t.TempDir()
	common := []string{"--datasets", "../../../testdata/demo/datasets", "--cassettes", filepath.Join(dir, "cassettes"), "--filter", "id:t-iphone-year"}
	if code, out, errOut := sbEnv(t, env, append([]string{"record", "--backend", "live", "--no-pace"}, common...)...); code != 0 {
		t.Fatalf("record: exit %d\n%s%s", code, out, errOut)
	}
	runArgs := append([]string{"run", "--quiet", "--out", "", "--runs", "", "--config", "../../../testdata/demo/config/executor.yaml"}, common...)
	firstLine := func(out string) string {
		_, rest, _ := strings.Cut(out, "Error: routing/t-iphone-year\n")
		l, _, _ := strings.Cut(rest, "\n")
		return l
	}

	code, out, errOut := sbEnv(t, nil, runArgs...)
	l := firstLine(out + errOut)
	if code != cmdutil.ExitInfra || !strings.Contains(l, "set SEARCHBENCH_LLM_MODEL=openai/gpt-oss-120b; nothing needs re-recording") ||
		strings.Contains(out+errOut, "re-record with") {
		t.Errorf("replay without the model: exit %d, first line %q\n%s%s", code, l, out, errOut)
	}
	if code, out, errOut := sbEnv(t, map[string]string{"SEARCHBENCH_LLM_MODEL": "openai/gpt-oss-120b"}, runArgs...); code != 0 {
		t.Errorf("replay with the model set: exit %d\n%s%s", code, out, errOut)
	}

	// A recording that noted no base URLs (made before recorded.json kept
	// them): the gateway's Tavily base is named.
	m := filepath.Join(dir, "cassettes", "seed", "model", "recorded.json")
	b, _ := os.ReadFile(m)
	var doc map[string]any
	json.Unmarshal(b, &doc)
	for _, e := range doc["cases"].(map[string]any) {
		delete(e.(map[string]any), "base_urls")
	}
	b, _ = json.Marshal(doc)
	os.WriteFile(m, b, 0o644)
	noModel := map[string]string{"SEARCHBENCH_LLM_MODEL": "openai/gpt-oss-120b"}
	code, out, errOut = sbEnv(t, noModel, runArgs...)
	l = firstLine(out + errOut)
	if want := "set TAVILY_BASE_URL=" + env["TAVILY_BASE_URL"] + "; nothing needs re-recording"; code != cmdutil.ExitInfra || !strings.Contains(l, want) {
		t.Errorf("replay of a gateway recording: exit %d, first line %q, want %q\n%s%s", code, l, want, out, errOut)
	}
	noModel["TAVILY_BASE_URL"] = env["TAVILY_BASE_URL"]
	if code, out, errOut := sbEnv(t, noModel, runArgs...); code != 0 {
		t.Errorf("replay with the gateway's base set: exit %d\n%s%s", code, out, errOut)
	}
}

// TestFailedSearchesWarnedStrictRefuses: Tavily answers every search with
// a 200 whose body is an error. That is a failed search, not "No results
// found."; record saves the case but ends with a warning naming it and the
// failure, and --strict refuses to save it, keeping the previous cassette.
func TestFailedSearchesWarnedStrictRefuses(t *testing.T) {
	env := liveEnv(t)
	target, _ := url.Parse(strings.TrimSuffix(env["TAVILY_BASE_URL"], "/tavily"))
	proxy := httputil.NewSingleHostReverseProxy(target)
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/tavily/search" {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"detail":{"error":"Your account is suspended."}}`)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(gw.Close)
	for _, k := range []string{"SEARCHBENCH_LLM_BASE_URL", "TAVILY_BASE_URL", "EXA_BASE_URL"} {
		env[k] = strings.Replace(env[k], target.String(), gw.URL, 1)
	}
	dir := t.TempDir()
	common := []string{"--datasets", "../../../testdata/demo/datasets", "--cassettes", filepath.Join(dir, "cassettes"), "--filter", "id:t-iphone-year", "--filter", "id:t-microsoft-ceo"}
	code, out, errOut := sbEnv(t, env, append([]string{"record", "--backend", "live", "--no-pace"}, common...)...)
	flat := strings.Join(strings.Fields(errOut), " ")
	if code != 0 || !strings.Contains(flat, "WARNING: 2 case(s) were recorded with a failed search") ||
		!strings.Contains(flat, `routing/t-iphone-year: turn 1: tavily search "`) || !strings.Contains(flat, "tavily /search: HTTP 200 OK with an error body: Your account is suspended.") {
		t.Fatalf("record: exit %d, want 0 and the warning\n%s%s", code, out, errOut)
	}
	path := filepath.Join(dir, "cassettes", "seed", "model", "routing", "t-iphone-year.yaml")
	before, _ := os.ReadFile(path)
	if !strings.Contains(string(before), "Search failed: tavily search") {
		t.Error("the cassette does not hold the failure the model saw")
	}
	code, out, errOut = sbEnv(t, env, append([]string{"record", "--backend", "live", "--no-pace", "--strict"}, common...)...)
	if code != cmdutil.ExitInfra || !strings.Contains(errOut, "case routing/t-iphone-year: not saved (--strict): 1 search(es) failed during the recording") {
		t.Fatalf("record --strict: exit %d\n%s%s", code, out, errOut)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("--strict replaced the cassette")
	}
}

// TestStaleRecordsEveryMode: record --stale without --mode re-records the
// stale cassettes of every mode the variant has a shelf of (the gate
// replays both); with a budget, which covers one mode's spending, it
// records model and names the command for structured.
func TestStaleRecordsEveryMode(t *testing.T) {
	dir := t.TempDir()
	ds := filepath.Join(dir, "datasets")
	os.MkdirAll(ds, 0o755)
	os.WriteFile(filepath.Join(ds, "routing.yaml"), []byte("kind: routing\ncases:\n  - id: iphone\n    query: What year was the first iPhone released?\n    label: tavily_only\n"), 0o644)
	prompts := filepath.Join(dir, "prompts")
	if err := os.MkdirAll(filepath.Join(prompts, "seed"), 0o755); err != nil {
		t.Fatal(err)
	}
	phase2 := filepath.Join(prompts, "seed", "phase2.md")
	seed, err := os.ReadFile("../../../testdata/demo/prompts/seed/phase2.md")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(phase2, seed, 0o644)
	common := []string{"--datasets", ds, "--cassettes", filepath.Join(dir, "cassettes"), "--prompts", prompts}
	for _, mode := range []string{"model", "structured"} {
		if code, out, errOut := sb(t, append([]string{"record", "--mode", mode}, common...)...); code != 0 {
			t.Fatalf("record --mode %s: exit %d\n%s%s", mode, code, out, errOut)
		}
	}
	edit := func(line string) {
		t.Helper()
		b, _ := os.ReadFile(phase2)
		if err := os.WriteFile(phase2, append(b, line...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit("\nCite the primary source.\n")
	code, out, errOut := sb(t, append([]string{"record", "--stale"}, common...)...)
	flat := strings.Join(strings.Fields(out), " ")
	if code != 0 || !strings.Contains(flat, "recorded 1 cassettes under "+filepath.Join(dir, "cassettes", "seed", "model")) ||
		!strings.Contains(flat, "recorded 1 cassettes under "+filepath.Join(dir, "cassettes", "seed", "structured")) {
		t.Fatalf("record --stale: exit %d, want both modes recorded\n%s%s", code, out, errOut)
	}
	// --mode names one.
	edit("Quote it.\n")
	code, out, errOut = sb(t, append([]string{"record", "--stale", "--mode", "structured"}, common...)...)
	if code != 0 || strings.Contains(out, "seed/model") || !strings.Contains(out, "seed/structured") {
		t.Fatalf("record --stale --mode structured: exit %d\n%s%s", code, out, errOut)
	}
	// A budget covers one mode: model, and the command for the other.
	code, out, errOut = sb(t, append([]string{"record", "--stale", "--max-usd", "5"}, common...)...)
	if code != 0 || !strings.Contains(out, "seed/model") || strings.Contains(out, "seed/structured") ||
		!strings.Contains(errOut, "note: --stale recorded mode model only (a budget or --estimate covers one mode); the gate also replays mode structured: searchbench record --backend sim --variant seed --mode structured --datasets "+ds) {
		t.Fatalf("record --stale --max-usd: exit %d\n%s%s", code, out, errOut)
	}
}
