package root_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/fixtures/sim"
	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/internal/secret"
)

// Canary keys carry + / = so that their percent-encoded forms differ from
// the raw ones.
const (
	canaryLLM    = "csk-CANARYllm+a/b=c1"
	canaryTavily = "tvly-CANARYtav+d/e=f2"
	canaryExa    = "exa-CANARYexa+g/h=i3"
	canaryPass   = "CANARYpass+j/k=l4"
	canaryQuery  = "CANARYquery+m/n=o5"
)

var canaries = secret.New(canaryLLM, canaryTavily, canaryExa, canaryPass, canaryQuery)

// echoForms renders a secret in every encoding a provider body may use.
func echoForms(k string) []string {
	var esc strings.Builder
	for _, r := range k {
		fmt.Fprintf(&esc, `\u%04x`, r)
	}
	return []string{
		k,                                 // raw
		esc.String(),                      // JSON \u escapes
		url.QueryEscape(k),                // percent-encoded
		k[:9] + "********" + k[len(k)-4:], // provider-masked
	}
}

// assertClean fails when any canary, in any encoding, is in b; what names
// the sink.
func assertClean(t *testing.T, what string, b []byte) {
	t.Helper()
	if canaries.Leaks(b) || strings.Contains(string(b), "CANAR") {
		i := strings.Index(string(b), "CANAR")
		lo := max(0, i-80)
		t.Errorf("%s leaks a canary: …%s…", what, string(b)[lo:min(len(b), i+80)])
	}
}

// assertTreeClean greps every file under dir.
func assertTreeClean(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n++
		assertClean(t, p, b)
		// Compressed evidence is checked as it reads: traces.jsonl.gz,
		// and the traces report.html embeds (base64 of the same gzip).
		if strings.HasSuffix(p, ".gz") {
			assertClean(t, p+" (decompressed)", gunzip(t, p, b))
		}
		if strings.HasSuffix(p, ".html") {
			for _, m := range regexp.MustCompile(`"traces":\[([^\]]*)\]`).FindAllStringSubmatch(string(b), -1) {
				chunks := strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(m[1], `"`, ""), ",", ""), "\n", "")
				if chunks == "" {
					continue
				}
				gz, err := base64.StdEncoding.DecodeString(chunks)
				if err != nil {
					t.Fatalf("%s: embedded traces: %v", p, err)
				}
				assertClean(t, p+" (embedded traces)", gunzip(t, p, gz))
			}
		}
		return nil
	})
	return n
}

func gunzip(t *testing.T, name string, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return plain
}

// TestCanaryAsk: a provider that echoes every configured key, in every
// encoding, in its error bodies. Neither stdout, stderr nor the trace file
// may hold one.
func TestCanaryAsk(t *testing.T) {
	var forms []string
	for _, k := range []string{canaryLLM, canaryTavily, canaryExa, canaryPass, canaryQuery} {
		forms = append(forms, echoForms(k)...)
	}
	body := fmt.Sprintf(`{"error":{"message":"invalid key %s","type":"invalid_request_error","code":401},"detail":{"error":"bad key %s"}}`,
		strings.Join(forms, " "), strings.Join(forms, " "))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Echo", canaryLLM)
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, body)
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	env := map[string]string{
		"CEREBRAS_API_KEY":         canaryLLM,
		"TAVILY_API_KEY":           canaryTavily,
		"EXA_API_KEY":              canaryExa,
		"SEARCHBENCH_LLM_BASE_URL": "http://gw:" + url.QueryEscape(canaryPass) + "@" + u.Host + "/v1",
		"TAVILY_BASE_URL":          srv.URL + "/tavily?api_key=" + url.QueryEscape(canaryQuery),
		"EXA_BASE_URL":             srv.URL + "/exa",
	}
	for _, q := range []string{"? who is the CEO of Microsoft", "Who is the CEO of Microsoft"} {
		io, out, errOut := cmdutil.Test("")
		io.Getenv = func(k string) string { return env[k] }
		tracePath := filepath.Join(t.TempDir(), "trace.json")
		code := root.Main(context.Background(), []string{"ask", "--once", q, "--trace", tracePath}, io)
		if code == 0 {
			t.Fatalf("ask against a provider answering 401 exited 0")
		}
		if !strings.Contains(errOut.String(), "REDACTED") {
			t.Errorf("stderr shows no redaction; the test did not exercise the echo: %s", errOut)
		}
		assertClean(t, "stdout", out.Bytes())
		assertClean(t, "stderr", errOut.Bytes())
		if n := assertTreeClean(t, filepath.Dir(tracePath)); n != 1 {
			t.Errorf("ask --trace wrote %d files, want 1", n)
		}
	}
}

// TestCanaryRecordAndReplay records from the simulator with canary keys, a
// password in a base URL's userinfo and a key in another's query string,
// then replays with the same base URLs: the cassette, every report file,
// stdout and stderr stay clean.
func TestCanaryRecordAndReplay(t *testing.T) {
	srv, u, err := sim.Start(sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	ds := filepath.Join(dir, "datasets")
	os.MkdirAll(ds, 0o755)
	os.WriteFile(filepath.Join(ds, "routing.yaml"), []byte("kind: routing\ncases:\n  - id: iphone\n    query: What year was the first iPhone released?\n    label: tavily_only\n"), 0o644)
	env := map[string]string{
		"CEREBRAS_API_KEY":         canaryLLM,
		"TAVILY_API_KEY":           canaryTavily,
		"EXA_API_KEY":              canaryExa,
		"SEARCHBENCH_LLM_BASE_URL": "http://gw:" + url.QueryEscape(canaryPass) + "@" + u.Host + "/v1",
		"TAVILY_BASE_URL":          u.String() + "/tavily?api_key=" + url.QueryEscape(canaryQuery),
		"EXA_BASE_URL":             u.String() + "/exa",
	}
	sb := func(args ...string) (int, string, string) {
		io, out, errOut := cmdutil.Test("")
		io.Getenv = func(k string) string { return env[k] }
		code := root.Main(context.Background(), append(args, "--datasets", ds, "--cassettes", filepath.Join(dir, "cassettes")), io)
		assertClean(t, strings.Join(args, " ")+": stdout", out.Bytes())
		assertClean(t, strings.Join(args, " ")+": stderr", errOut.Bytes())
		return code, out.String(), errOut.String()
	}
	if code, out, errOut := sb("record", "--backend", "live"); code != 0 {
		t.Fatalf("record: exit %d\n%s\n%s", code, out, errOut)
	}
	// Replay with the same environment matches: the cassette keeps the
	// gateway URL with its password and query key masked, and replay masks
	// the live URL the same way.
	if code, out, errOut := sb("run", "--runs", filepath.Join(dir, "runs"), "--out", filepath.Join(dir, "out"), "--config", "../../../config/executor.yaml"); code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errOut)
	}
	// A replay that misses prints both URLs and a diff into every report:
	// still clean. (Replay matches a search on the service and the path
	// below its base, whatever the base, so the miss is made by editing
	// the recorded search; the base moves too, to show it does not matter.)
	cassette := filepath.Join(dir, "cassettes", "seed", "model", "routing", "iphone.yaml")
	b := must(os.ReadFile(cassette))
	edited := bytes.Replace(b, []byte(`{"max_results":5,"query":`), []byte(`{"max_results":4,"query":`), 1)
	if bytes.Equal(b, edited) {
		t.Fatalf("no recorded Tavily search to edit in %s", cassette)
	}
	os.WriteFile(cassette, edited, 0o644)
	env["TAVILY_BASE_URL"] = u.String() + "/tavily/v2?api_key=" + url.QueryEscape(canaryQuery)
	if code, out, errOut := sb("run", "--runs", "", "--out", filepath.Join(dir, "out-miss"), "--config", "../../../config/executor.yaml"); code != cmdutil.ExitInfra || !strings.Contains(out+errOut, "no recorded interaction") || !strings.Contains(out+errOut, "POST "+u.String()+"/tavily/v2/search?api_key=REDACTED: no") {
		t.Fatalf("run against another URL: exit %d, want a cassette miss (3)\n%s\n%s", code, out, errOut)
	}
	if n := assertTreeClean(t, dir); n < 6 {
		t.Errorf("only %d files written; want the cassette, the reports, the page and the traces", n)
	}
	// The traces hold the conversation: the check above read them.
	if plain := gunzip(t, "traces", must(os.ReadFile(filepath.Join(dir, "out", "traces.jsonl.gz")))); !bytes.Contains(plain, []byte("first iPhone")) {
		t.Errorf("traces.jsonl.gz does not hold the case's conversation:\n%.300s", plain)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
