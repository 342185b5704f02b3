package classify_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/searchbench/searchbench/internal/cmd/classify"
	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"searchbench": func() {
			os.Exit(root.Main(context.Background(), os.Args[1:], cmdutil.System()))
		},
	})
}

// TestScripts runs the command end to end from testdata/script/*.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
	})
}

func TestClassify(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		want     classify.Result // checked when code is 0
		errMatch string          // checked when code is not 0
	}{
		{
			name: "override joins arguments",
			args: []string{"classify", "what", "are", "current", "EU", "AI", "regulations", "?"},
			want: classify.Result{Input: "what are current EU AI regulations ?", Normalized: "what are current eu ai regulations?",
				Override: true, Phase: "phase2", Query: "what are current EU AI regulations?", Rule: "override.trailing"},
		},
		{
			name: "consent with previous query",
			args: []string{"classify", "--awaiting-consent", "--previous", "who is the CEO of Microsoft", "sure?"},
			want: classify.Result{Input: "sure?", Normalized: "sure?", AwaitingConsent: true, Intent: "YES",
				Phase: "phase2", Query: "who is the CEO of Microsoft", Rule: "yes.word", DecidedBy: "rule"},
		},
		{
			name: "decline without previous query",
			args: []string{"classify", "--awaiting-consent", "I’m good"},
			want: classify.Result{Input: "I’m good", Normalized: "i'm good", AwaitingConsent: true, Intent: "NO",
				Phase: "decline", Query: "<previous query>", Rule: "no.word", DecidedBy: "rule"},
		},
		{name: "no text", args: []string{"classify"}, code: 2, errMatch: "requires at least 1 arg"},
		{name: "unknown flag", args: []string{"classify", "--bogus", "x"}, code: 2, errMatch: "unknown flag"},
		{name: "previous without awaiting", args: []string{"classify", "--previous", "q", "x"}, code: 2, errMatch: "--previous needs --awaiting-consent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, out, errOut := cmdutil.Test("")
			code := root.Main(context.Background(), tt.args, io)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.code, errOut)
			}
			if tt.code != 0 {
				if !strings.Contains(errOut.String(), tt.errMatch) {
					t.Errorf("stderr %q does not contain %q", errOut, tt.errMatch)
				}
				return
			}
			var got classify.Result
			dec := json.NewDecoder(out)
			dec.DisallowUnknownFields()
			if err := dec.Decode(&got); err != nil {
				t.Fatalf("output %q: %v", out, err)
			}
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestClassifyModel: a consent reply the rules cannot place goes to the
// configured chat model (here a loopback stand-in), whose verdict decides;
// --rules-only, or no model configured, leaves the rules' reading.
func TestClassifyModel(t *testing.T) {
	const unsettled = "its language is not settled: the word \u201cmaleey\u201d is in no language the lexicon or the English word list knows"
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		body, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(body), `"name":"consent_intent"`) || !strings.Contains(string(body), `Reply: Maleey"`) || !strings.Contains(string(body), `Previous question: What is the capital of Djibouti`) {
			t.Errorf("request is no classification of the reply: %s", body)
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"{\"intent\":\"NO\",\"scope\":\"\",\"reason\":\"Afar for no.\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	defer srv.Close()
	env := map[string]string{"CEREBRAS_API_KEY": "csk-test", "SEARCHBENCH_LLM_BASE_URL": srv.URL + "/v1"}
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		want     classify.Result
		requests int32
	}{
		{name: "model decides", args: []string{"classify", "--awaiting-consent", "--previous", "What is the capital of Djibouti", "Maleey"}, env: env, requests: 1,
			want: classify.Result{Input: "Maleey", Normalized: "maleey", AwaitingConsent: true, Intent: "NO", Phase: "decline",
				Query: "What is the capital of Djibouti", Rule: "defer.language", DecidedBy: "model", Unplaced: true, Reason: "Afar for no.",
				Deferred: unsettled, RulesReading: "NEW_QUERY"}},
		{name: "rules only", args: []string{"classify", "--awaiting-consent", "--rules-only", "Maleey"}, env: env,
			want: classify.Result{Input: "Maleey", Normalized: "maleey", AwaitingConsent: true, Intent: "NEW_QUERY", Phase: "phase1",
				Query: "Maleey", Rule: "defer.language", DecidedBy: "rule", Unplaced: true, Deferred: unsettled, RulesReading: "NEW_QUERY"}},
		{name: "placed by the rules", args: []string{"classify", "--awaiting-consent", "nope"}, env: env,
			want: classify.Result{Input: "nope", Normalized: "nope", AwaitingConsent: true, Intent: "NO", Phase: "decline",
				Query: "<previous query>", Rule: "no.word", DecidedBy: "rule"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requests.Store(0)
			ios, out, errOut := cmdutil.Test("")
			ios.Getenv = func(k string) string { return tt.env[k] }
			if code := root.Main(context.Background(), tt.args, ios); code != 0 {
				t.Fatalf("exit %d; stderr: %s", code, errOut)
			}
			var got classify.Result
			if err := json.NewDecoder(out).Decode(&got); err != nil {
				t.Fatal(err)
			}
			if n := requests.Load(); got != tt.want || n != tt.requests {
				t.Errorf("got  %+v (%d requests)\nwant %+v (%d requests)", got, n, tt.want, tt.requests)
			}
		})
	}
	// No model configured: the rules' reading stands, and the output says why.
	ios, out, _ := cmdutil.Test("")
	if code := root.Main(context.Background(), []string{"classify", "--awaiting-consent", "Maleey"}, ios); code != 0 {
		t.Fatalf("exit %d", code)
	}
	var got classify.Result
	if err := json.NewDecoder(out).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got.DecidedBy != "rule" || got.Intent != "NEW_QUERY" || !strings.Contains(got.Reason, "no chat model is configured") {
		t.Errorf("without a model: %+v", got)
	}
}
