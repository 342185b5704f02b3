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
	"sync"
	"testing"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/lib/secret"
	"github.com/searchbench/searchbench/lib/testenv"
	"github.com/searchbench/searchbench/sim"
)

// Canary keys carry + / = so that their percent-encoded forms differ from
// the raw ones.
const (
	canaryLLM    = "csk-CANARYllm+a/b=c1"
	canaryTavily = "tvly-CANARYtav+d/e=f2"
	canaryExa    = "exa-CANARYexa+g/h=i3"
	canaryPass   = "CANARYpass+j/k=l4"
	canaryQuery  = "CANARYquery+m/n=o5"
	canaryToken  = "CANARYtoken-p_q.r6" // a gateway's ?token=, not a credential-like name
)

var allCanaries = []string{canaryLLM, canaryTavily, canaryExa, canaryPass, canaryQuery, canaryToken}

var canaries = secret.New(allCanaries...)

// fragments lists every secret.FragLen-byte run of every canary and of its
// base64 forms: what a sink must not hold, whatever was cut.
var fragments = func() []string {
	var out []string
	for _, k := range allCanaries {
		for _, p := range append([]string{k}, secret.Base64Forms(k)...) {
			for i := 0; i+secret.FragLen <= len(p); i++ {
				out = append(out, p[i:i+secret.FragLen])
			}
		}
	}
	return out
}()

// echoForms renders a secret in every encoding a provider body may use.
func echoForms(k string) []string {
	var esc strings.Builder
	for _, r := range k {
		fmt.Fprintf(&esc, `\u%04x`, r)
	}
	forms := []string{
		k,                                 // raw
		esc.String(),                      // JSON \u escapes
		url.QueryEscape(k),                // percent-encoded
		k[:9] + "********" + k[len(k)-4:], // provider-masked
	}
	// base64 inside a longer blob, both alphabets, each byte alignment
	for a := 0; a < 3; a++ {
		blob := "{\"k\":\"xy"[:4+a] + k + `"}`
		forms = append(forms, base64.StdEncoding.EncodeToString([]byte(blob)), base64.URLEncoding.EncodeToString([]byte(blob)))
	}
	return forms
}

// assertClean fails when any canary, in any encoding, is in b; what names
// the sink.
func assertClean(t *testing.T, what string, b []byte) {
	t.Helper()
	if canaries.Leaks(b) || strings.Contains(string(b), "CANAR") {
		i := max(0, strings.Index(string(b), "CANAR"))
		lo := max(0, i-80)
		t.Errorf("%s leaks a canary: …%s…", what, string(b)[lo:min(len(b), i+80)])
		return
	}
	for _, f := range fragments {
		if i := bytes.Index(b, []byte(f)); i >= 0 {
			t.Errorf("%s holds %q, a fragment of a canary: …%s…", what, f, b[max(0, i-80):min(len(b), i+80)])
			return
		}
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
	for _, k := range allCanaries {
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
		"SEARCHBENCH_LLM_BASE_URL": "http://gw:" + url.QueryEscape(canaryPass) + "@" + u.Host + "/v1?token=" + url.QueryEscape(canaryToken),
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

// TestCanaryAskStraddlingCuts: a provider echoes a key, in each form, placed
// so that it straddles each length error text is cut to (a provider
// message: 500 runes, a non-JSON excerpt: 200, an HTML title and a request
// id: 100) at every offset. stdout, stderr and the trace hold no fragment.
func TestCanaryAskStraddlingCuts(t *testing.T) {
	testenv.Slow(t)
	var (
		mu   sync.Mutex
		body string
		hdr  string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		b, h := body, hdr
		mu.Unlock()
		if h != "" {
			w.Header().Set("X-Request-Id", h)
		}
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, b)
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	env := map[string]string{
		"CEREBRAS_API_KEY":         canaryLLM,
		"TAVILY_API_KEY":           canaryTavily,
		"EXA_API_KEY":              canaryExa,
		"SEARCHBENCH_LLM_BASE_URL": "http://" + u.Host + "/v1?token=" + url.QueryEscape(canaryToken),
	}
	kinds := []struct {
		name string
		cut  int
		make func(pad, k string) (body, hdr string)
	}{
		{"message", 500, func(pad, k string) (string, string) {
			return `{"error":{"message":"` + pad + k + `","type":"invalid_request_error"}}`, ""
		}},
		{"excerpt", 200, func(pad, k string) (string, string) { return pad + k, "" }},
		{"html title", 100, func(pad, k string) (string, string) {
			return "<html><title>" + pad + k + "</title></html>", ""
		}},
		{"request id", 100, func(pad, k string) (string, string) { return "{}", pad + k }},
	}
	runs := 0
	for _, kind := range kinds {
		for _, k := range []string{canaryLLM, canaryToken} {
			for fi, form := range echoForms(k) {
				if fi == 3 {
					continue // provider-masked: nothing to cut
				}
				for off := 1; off < len(form); off++ {
					b, h := kind.make(strings.Repeat("p", max(0, kind.cut-off)), form)
					mu.Lock()
					body, hdr = b, h
					mu.Unlock()
					io, out, errOut := cmdutil.Test("")
					io.Getenv = func(k string) string { return env[k] }
					tracePath := filepath.Join(t.TempDir(), "trace.json")
					if code := root.Main(context.Background(), []string{"ask", "--once", "Who is the CEO of Microsoft", "--trace", tracePath}, io); code == 0 {
						t.Fatalf("ask against a provider answering 401 exited 0")
					}
					what := fmt.Sprintf("%s, form %d of %s cut at %d", kind.name, fi, k[:10], off)
					assertClean(t, what+": stdout", out.Bytes())
					assertClean(t, what+": stderr", errOut.Bytes())
					assertTreeClean(t, filepath.Dir(tracePath))
					if kind.name == "excerpt" && !strings.Contains(errOut.String(), "pppp") {
						t.Fatalf("%s: stderr does not show the echoed text; the test exercises nothing:\n%s", what, errOut)
					}
					runs++
				}
			}
		}
	}
	if runs < 100 {
		t.Errorf("only %d runs", runs)
	}
}

// TestCanaryRecordAndReplay records from the simulator with canary keys, a
// password in a base URL's userinfo, a key in another's query string and a
// gateway token in a third's, then replays with the same base URLs: the
// cassette, every report file, stdout and stderr stay clean. The dataset's
// query carries the keys in every form, which the simulator echoes back;
// both backends (live, pointed at the simulator, and sim) must scrub them.
func TestCanaryRecordAndReplay(t *testing.T) {
	testenv.Slow(t)
	for _, backend := range []string{"live", "sim"} {
		t.Run(backend, func(t *testing.T) { canaryRecordAndReplay(t, backend) })
	}
}

func canaryRecordAndReplay(t *testing.T, backend string) {
	srv, u, err := sim.Start(sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	if d := os.Getenv("CANARY_KEEP"); d != "" {
		dir = d
	}
	ds := filepath.Join(dir, "datasets")
	os.MkdirAll(ds, 0o755)
	// The simulator backend records the public URLs and replays with them:
	// base URL credentials are configured for the live backend only.
	echoed := allCanaries
	if backend == "sim" {
		echoed = []string{canaryLLM, canaryTavily, canaryExa}
	}
	var echo []string
	for _, k := range echoed {
		for i, f := range echoForms(k) {
			if i != 1 { // \u escapes would not survive YAML as such
				echo = append(echo, f)
			}
		}
	}
	os.WriteFile(filepath.Join(ds, "routing.yaml"), []byte("kind: routing\ncases:\n  - id: iphone\n    query: What year was the first iPhone released?\n    label: tavily_only\n"+
		"  - id: echo\n    query: \"What does the key "+strings.Join(echo, " or ")+" unlock?\"\n    label: tavily_only\n"), 0o644)
	env := map[string]string{
		"CEREBRAS_API_KEY":         canaryLLM,
		"TAVILY_API_KEY":           canaryTavily,
		"EXA_API_KEY":              canaryExa,
		"SEARCHBENCH_LLM_BASE_URL": "http://gw:" + url.QueryEscape(canaryPass) + "@" + u.Host + "/v1?token=" + url.QueryEscape(canaryToken),
		"TAVILY_BASE_URL":          u.String() + "/tavily?api_key=" + url.QueryEscape(canaryQuery),
		"EXA_BASE_URL":             u.String() + "/exa",
	}
	if backend == "sim" {
		delete(env, "SEARCHBENCH_LLM_BASE_URL")
		delete(env, "TAVILY_BASE_URL")
		delete(env, "EXA_BASE_URL")
	}
	sb := func(args ...string) (int, string, string) {
		io, out, errOut := cmdutil.Test("")
		io.Getenv = func(k string) string { return env[k] }
		code := root.Main(context.Background(), append(args, "--datasets", ds, "--cassettes", filepath.Join(dir, "cassettes")), io)
		assertClean(t, strings.Join(args, " ")+": stdout", out.Bytes())
		assertClean(t, strings.Join(args, " ")+": stderr", errOut.Bytes())
		return code, out.String(), errOut.String()
	}
	if code, out, errOut := sb("record", "--backend", backend); code != 0 {
		t.Fatalf("record: exit %d\n%s\n%s", code, out, errOut)
	}
	// Replay with the same environment matches: the cassette keeps the
	// gateway URL with its password and query values masked, and replay
	// masks the live URL the same way.
	if code, out, errOut := sb("run", "--runs", "", "--out", filepath.Join(dir, "out-iphone"), "--filter", "routing/iphone", "--config", "../../../testdata/demo/config/executor.yaml"); code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errOut)
	}
	// The echo case's recording no longer says what the model was sent
	// (its keys are redacted, tool errors counting their characters
	// differ), so it may miss: the point is that every sink stays clean.
	if code, out, errOut := sb("run", "--runs", filepath.Join(dir, "runs"), "--out", filepath.Join(dir, "out"), "--config", "../../../testdata/demo/config/executor.yaml"); code != 0 && code != cmdutil.ExitInfra {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errOut)
	}
	if backend == "live" {
		// A replay that misses prints a diff into every report: still
		// clean. Replay matches a request on its service and the path below
		// its base URL, whatever the base, so the miss comes from another
		// model in the request body; the base moves too, with a key in its
		// query.
		env["TAVILY_BASE_URL"] = u.String() + "/tavily/v2?api_key=" + url.QueryEscape(canaryQuery)
		env["SEARCHBENCH_LLM_MODEL"] = "another-model"
		if code, out, errOut := sb("run", "--runs", "", "--out", filepath.Join(dir, "out-miss"), "--config", "../../../testdata/demo/config/executor.yaml"); code != cmdutil.ExitInfra || !strings.Contains(out+errOut, "no recorded interaction") {
			t.Fatalf("run against another URL: exit %d, want a cassette miss (3)\n%s\n%s", code, out, errOut)
		}
	}
	n := 0
	for _, sub := range []string{"cassettes", "out", "out-iphone", "out-miss", "runs"} {
		n += assertTreeClean(t, filepath.Join(dir, sub))
	}
	if n < 8 {
		t.Errorf("only %d files written; want the cassettes, the reports, the page and the traces", n)
	}
	for _, f := range []string{"report.json", "report.md", "report.html", "junit.xml", "traces.jsonl.gz"} {
		if _, err := os.Stat(filepath.Join(dir, "out", f)); err != nil {
			t.Errorf("the canary did not reach %s: %v", f, err)
		}
	}
	// The traces hold the conversation: the check above read them.
	if plain := gunzip(t, "traces", must(os.ReadFile(filepath.Join(dir, "out", "traces.jsonl.gz")))); !bytes.Contains(plain, []byte("first iPhone")) || !bytes.Contains(plain, []byte("REDACTED")) {
		t.Errorf("traces.jsonl.gz does not hold the cases' conversations with the keys redacted:\n%.300s", plain)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
