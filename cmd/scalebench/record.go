package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/searchbench/searchbench/internal/cmd/record"
	"github.com/searchbench/searchbench/internal/cmd/variant"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/sim"
	"github.com/searchbench/searchbench/sim/ratelimit"
)

// recResult is one recording of the routing dataset through the limiter.
type recResult struct {
	wall              time.Duration
	answered, refused int
	ideal             time.Duration // the busiest provider's requests at the allowed rate
	recorded, cases   int
	err               string // the command's error, first line
}

func (r recResult) share() float64 { return r.ideal.Seconds() / r.wall.Seconds() }

// benchRecording records the routing dataset live (`record --backend live
// --filter dataset:routing`) against the simulator behind a loopback
// limiter allowing rate requests per second per provider (and tpm tokens a
// minute, if set), with 429, Retry-After and Cerebras-style headers;
// paced, or with pacing off (only --parallel 4 bounds the requests, as
// before issue 28).
func benchRecording(ctx context.Context, rate, tpm int, paced bool, tmp string) (recResult, error) {
	srv, err := sim.New(sim.Options{Policy: "seed"})
	if err != nil {
		return recResult{}, err
	}
	provider := func(r *http.Request) string {
		for _, p := range []string{"tavily", "exa"} {
			if strings.HasPrefix(r.URL.Path, "/"+p+"/") {
				return p
			}
		}
		return "chat"
	}
	lim := ratelimit.New(srv, ratelimit.Options{PerSecond: rate, TokensPerMinute: tpm, Headers: true, Provider: provider})
	ts := httptest.NewServer(lim)
	defer ts.Close()
	env := map[string]string{
		"CEREBRAS_API_KEY":         "bench-cerebras-key-0123",
		"TAVILY_API_KEY":           "tvly-bench-key-0123",
		"EXA_API_KEY":              "bench-exa-key-0123",
		"SEARCHBENCH_LLM_BASE_URL": ts.URL + "/v1",
		"TAVILY_BASE_URL":          ts.URL + "/tavily",
		"EXA_BASE_URL":             ts.URL + "/exa",
	}
	cassettes, err := os.MkdirTemp(tmp, "record-")
	if err != nil {
		return recResult{}, err
	}
	defer os.RemoveAll(cassettes)
	ios, _, _ := cmdutil.Test("")
	ios.Getenv = func(k string) string { return env[k] }
	ios.Out, ios.ErrOut = io.Discard, io.Discard
	opts := &record.Options{IO: ios, Backend: "live", Datasets: "datasets", Cassettes: cassettes,
		Variant: variant.Flags{Variant: "seed", Prompts: "prompts"}, Filter: []string{"dataset:routing"},
		Parallel: 4, NoPace: !paced}
	start := time.Now()
	rerr := record.Run(ctx, opts)
	res := recResult{wall: time.Since(start)}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	if rerr != nil {
		res.err, _, _ = strings.Cut(rerr.Error(), "\n")
		res.err = strings.TrimSuffix(res.err, ":")
	}
	busiest := 0
	for _, s := range lim.Stats() {
		res.answered += s.Allowed
		res.refused += s.Refused
		busiest = max(busiest, s.Allowed)
		if tpm > 0 {
			res.ideal = max(res.ideal, time.Duration(float64(s.Tokens)/float64(tpm)*float64(time.Minute)))
		}
	}
	res.ideal = max(res.ideal, time.Duration(float64(busiest)/float64(rate)*float64(time.Second)))
	files, _ := filepath.Glob(filepath.Join(cassettes, "seed", "model", "routing", "*.yaml"))
	res.recorded, res.cases = len(files), 68
	return res, nil
}

// recordingRows runs the recording benchmark at each rate, paced and with
// a fixed --parallel, and returns the table rows and the targets.
func recordingRows(ctx context.Context, rates []int, tmp string, stdout io.Writer) ([]row, []func(target func(string, string, bool)), error) {
	var rows []row
	var targets []func(func(string, string, bool))
	fmt.Fprintln(stdout, "Recording the routing dataset live through a loopback limiter (429 with Retry-After and x-ratelimit-*-requests-minute headers)")
	for _, rate := range rates {
		for _, paced := range []bool{true, false} {
			how := "paced"
			if !paced {
				how = "fixed --parallel 4 (--no-pace)"
			}
			r, err := benchRecording(ctx, rate, 0, paced, tmp)
			if err != nil {
				return nil, nil, fmt.Errorf("recording at %d/s, %s: %w", rate, how, err)
			}
			refusedPct := 100 * float64(r.refused) / float64(max(r.answered+r.refused, 1))
			line := fmt.Sprintf("%.1f s wall, %d/%d cases recorded, %d requests answered, %d answered 429 (%.1f%%), %.0f%% of the allowed rate (ideal %.1f s)",
				r.wall.Seconds(), r.recorded, r.cases, r.answered, r.refused, refusedPct, 100*r.share(), r.ideal.Seconds())
			if r.err != "" {
				line += "; exit: " + r.err
			}
			fmt.Fprintf(stdout, "  %d req/s per provider, %s: %s\n", rate, how, line)
			rows = append(rows, row{fmt.Sprintf("`record --backend live`, routing (68 cases), %d req/s per provider, %s", rate, how), line})
			if paced {
				rate, r := rate, r
				targets = append(targets, func(target func(string, string, bool)) {
					target(fmt.Sprintf("recording at %d req/s: every case, ≤ 5%% answered 429, ≥ 80%% of the allowed rate", rate),
						fmt.Sprintf("%d/%d cases, %.1f%% 429, %.0f%%", r.recorded, r.cases, refusedPct, 100*r.share()),
						r.recorded == r.cases && r.err == "" && refusedPct <= 5 && r.share() >= 0.8)
				})
			}
		}
	}
	fmt.Fprintln(stdout)
	return rows, targets, nil
}

// onlyRecording is scalebench -only-record: the recording runs, their table
// and targets.
func onlyRecording(ctx context.Context, o *options, tmp string, stdout io.Writer) error {
	if len(o.recRates) == 0 {
		return fmt.Errorf("-only-record with an empty -record-rates: nothing to run")
	}
	rows, targets, err := recordingRows(ctx, o.recRates, tmp, stdout)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "| measure | result |")
	fmt.Fprintln(stdout, "|---|---|")
	for _, r := range rows {
		fmt.Fprintf(stdout, "| %s | %s |\n", r.what, r.value)
	}
	fmt.Fprintf(stdout, "\nMachine: %s\n\n", machine())
	fmt.Fprintln(stdout, "| target | this run | met |")
	fmt.Fprintln(stdout, "|---|---|---|")
	for _, t := range targets {
		t(func(what, got string, ok bool) {
			fmt.Fprintf(stdout, "| %s | %s | %s |\n", what, got, map[bool]string{true: "yes", false: "**no**"}[ok])
		})
	}
	return nil
}
