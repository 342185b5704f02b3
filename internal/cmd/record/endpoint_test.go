package record_test

import (
	"context"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/searchbench/searchbench/internal/cmd/record"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/sim"
)

// envWith is liveKeys with more variables.
func envWith(more map[string]string) func(string) string {
	return func(k string) string {
		if v, ok := more[k]; ok {
			return v
		}
		return liveKeys[k]
	}
}

// simAt points every service at a host with no published limits, as
// `searchbench sim` prints it.
var simAt = map[string]string{
	"SEARCHBENCH_LLM_BASE_URL": "http://127.0.0.1:8089/v1",
	"TAVILY_BASE_URL":          "http://127.0.0.1:8089/tavily",
	"EXA_BASE_URL":             "http://127.0.0.1:8089/exa",
}

// TestPacingFitsTheEndpoint: the published limits (Cerebras' free tier, 5
// requests a minute) hold at the provider's own host, never at another.
// Recording the 23 t-* routing cases from the simulator at the base URL it
// prints takes no time beyond the simulator's own (the lanes are bounded
// by the requests in flight only, and by the token rate its headers
// state); the same recording at the default hosts is paced at 5 requests a
// minute. Each summary says where its pace came from, and a recording in a
// pipe prints its progress.
func TestPacingFitsTheEndpoint(t *testing.T) {
	for _, tc := range []struct {
		name           string
		env            map[string]string
		atLeast, under time.Duration
		chat           string // in the chat lane's summary
	}{
		{"simulator's base URL", simAt, 0, 10 * time.Second,
			"not rate-paced (127.0.0.1:8089 has no published limits): bounded by"},
		{"provider's own host", nil, 5 * time.Minute, time.Hour,
			"paced at 0.0833/s by the published limits of api.cerebras.ai (providers file); tokens 1,000,000/min from its headers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv, err := sim.New(sim.Options{Policy: "seed"})
				if err != nil {
					t.Fatal(err)
				}
				dir := t.TempDir()
				opts, out, errOut := liveOptions(t, dir, memTransport{srv})
				opts.Filter = []string{"id:t-*"}
				opts.IO.Getenv = envWith(tc.env)
				start := time.Now()
				if err := record.Run(context.Background(), opts); err != nil {
					t.Fatalf("%v\n%s%s", err, out, errOut)
				}
				elapsed := time.Since(start)
				t.Logf("23 cases in %s (fake time)\n%s%s", elapsed, out, errOut)
				if elapsed < tc.atLeast || elapsed >= tc.under {
					t.Errorf("recording took %s, want at least %s and under %s", elapsed, tc.atLeast, tc.under)
				}
				stderr := strings.Join(strings.Fields(errOut.String()), " ")
				if !strings.Contains(stderr, "pacing chat: ") || !strings.Contains(stderr, tc.chat) {
					t.Errorf("the chat lane's summary does not say %q:\n%s", tc.chat, errOut)
				}
				// Progress in a pipe: a line every tenth of the cases.
				for _, want := range []string{"recording seed/model: 2/23 cases", "recording seed/model: 22/23 cases"} {
					if !strings.Contains(errOut.String(), want) {
						t.Errorf("stderr lacks the progress line %q:\n%s", want, errOut)
					}
				}
				files, _ := filepath.Glob(filepath.Join(dir, "seed", "model", "routing", "*.yaml"))
				files = slices.DeleteFunc(files, func(f string) bool { return strings.HasSuffix(f, ".judge.yaml") }) // the judge's own
				if len(files) != 23 {
					t.Errorf("%d cassettes, want 23", len(files))
				}
			})
		})
	}
}

// TestProgressInAPipeEveryTenSeconds: a live recording in a pipe whose
// cases are slow prints a line at least every 10 seconds, with the time
// since the start, though no tenth of the cases finished in between.
func TestProgressInAPipeEveryTenSeconds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, err := sim.New(sim.Options{Policy: "seed"})
		if err != nil {
			t.Fatal(err)
		}
		slow := memTransport{h: slowHandler{srv, 7 * time.Second}}
		dir := t.TempDir()
		opts, out, errOut := liveOptions(t, dir, slow)
		opts.Filter = []string{"routing/t-iphone-year", "routing/t-microsoft-ceo"}
		opts.Parallel = 1
		opts.IO.Getenv = envWith(simAt)
		if err := record.Run(context.Background(), opts); err != nil {
			t.Fatalf("%v\n%s%s", err, out, errOut)
		}
		lines := regexp.MustCompile(`recording seed/model: (\d)/2 cases · \d+ req · 0×429 absorbed · \$[0-9.]+ · (\d+)s`).FindAllStringSubmatch(errOut.String(), -1)
		var at []string
		for _, l := range lines {
			at = append(at, l[1]+"@"+l[2]+"s")
		}
		t.Logf("progress lines: %v\n%s", at, errOut)
		// Each case makes two model requests and one search, 7 s each;
		// the first case ends at 21 s: lines at 10 s and 20 s, then every
		// 10 s after the step line at 21 s.
		want := "0@10s 0@20s 1@21s 1@31s 1@41s"
		if got := strings.Join(at, " "); got != want {
			t.Errorf("progress lines %q, want %q", got, want)
		}
	})
}

// slowHandler answers after a delay (fake time inside a synctest bubble).
type slowHandler struct {
	next  http.Handler
	delay time.Duration
}

func (h slowHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	time.Sleep(h.delay)
	h.next.ServeHTTP(w, r)
}

// TestModelPrices: a model named with a provider prefix, as vLLM names it
// (openai/gpt-oss-120b), prices as the model it names; a model the price
// table does not know is reported unpriced with the line that prices it,
// never as $0.0000, and a dollar budget for it is refused.
func TestModelPrices(t *testing.T) {
	estimate := func(model string, args ...string) (int, string, string) {
		opts, out, errOut := liveOptions(t, t.TempDir(), nil)
		opts.Cassettes = filepath.Join("..", "..", "..", "cassettes")
		opts.Estimate = true
		opts.IO.Getenv = envWith(map[string]string{"SEARCHBENCH_LLM_MODEL": model})
		if len(args) == 2 && args[0] == "--max-usd" {
			opts.MaxUSD = mustFloat(t, args[1])
		}
		err := record.Run(context.Background(), opts)
		return cmdutil.ExitCode(err), out.String(), errOut.String() + errString(err)
	}
	dollars := regexp.MustCompile(`dollars   (\$[0-9.]+)`)
	code, plain, stderr := estimate("gpt-oss-120b")
	if code != 0 || dollars.FindStringSubmatch(plain) == nil {
		t.Fatalf("estimate of gpt-oss-120b: exit %d\n%s%s", code, plain, stderr)
	}
	code, prefixed, stderr := estimate("openai/gpt-oss-120b")
	if code != 0 || !strings.Contains(prefixed, "model openai/gpt-oss-120b (priced as gpt-oss-120b)") ||
		dollars.FindStringSubmatch(prefixed) == nil || dollars.FindStringSubmatch(prefixed)[1] != dollars.FindStringSubmatch(plain)[1] {
		t.Errorf("estimate of openai/gpt-oss-120b: exit %d, want the dollars of gpt-oss-120b (%s)\n%s%s", code, dollars.FindString(plain), prefixed, stderr)
	}
	code, unpriced, stderr := estimate("acme/llama-9000")
	for _, want := range []string{`dollars   unpriced: model "acme/llama-9000" has no price (the searches alone: $`,
		`fix       add "acme/llama-9000" under prices.models in config/providers.yaml`} {
		if code != 0 || !strings.Contains(unpriced, want) {
			t.Errorf("estimate of an unpriced model: exit %d, want %q\n%s%s", code, want, unpriced, stderr)
		}
	}
	code, out, stderr := estimate("acme/llama-9000", "--max-usd", "1")
	if code != cmdutil.ExitUsage || !strings.Contains(stderr, `--max-usd $1.00 needs a price for the model: model "acme/llama-9000" has no price; add "acme/llama-9000" under prices.models`) {
		t.Errorf("--max-usd with an unpriced model: exit %d\n%s%s", code, out, stderr)
	}

	// Recorded: the summary and the progress say "unpriced".
	synctest.Test(t, func(t *testing.T) {
		srv, err := sim.New(sim.Options{Policy: "seed"})
		if err != nil {
			t.Fatal(err)
		}
		opts, out, errOut := liveOptions(t, t.TempDir(), memTransport{srv})
		opts.Filter = []string{"id:t-*"}
		env := map[string]string{"SEARCHBENCH_LLM_MODEL": "acme/llama-9000"}
		for k, v := range simAt {
			env[k] = v
		}
		opts.IO.Getenv = envWith(env)
		if err := record.Run(context.Background(), opts); err != nil {
			t.Fatalf("%v\n%s%s", err, out, errOut)
		}
		all := out.String() + errOut.String()
		flat := strings.Join(strings.Fields(out.String()), " ")
		if !strings.Contains(flat, "; spent an unpriced amount (searches $") || !strings.Contains(flat, `model "acme/llama-9000" has no price; add "acme/llama-9000" under prices.models`) {
			t.Errorf("the summary of an unpriced recording does not say so:\n%s", out)
		}
		if strings.Contains(all, "$0.0000") || !strings.Contains(errOut.String(), "absorbed · unpriced · ") {
			t.Errorf("an unpriced recording printed $0.0000, or its progress no \"unpriced\":\n%s", all)
		}
	})
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
