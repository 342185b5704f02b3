package sim

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/searchbench/searchbench/internal/cmdutil"
)

// syncBuffer is a strings.Builder safe for the server's log goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServe starts the simulator on a free loopback port, sends one request
// with a real service's Host header, and stops it through the context.
func TestServe(t *testing.T) {
	ios, _, _ := cmdutil.Test("")
	out, errOut := &syncBuffer{}, &syncBuffer{}
	ios.Out, ios.ErrOut = out, errOut
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- simRun(ctx, &Options{IO: ios, Addr: "127.0.0.1:0", Verbose: true, Ready: func(b string) { ready <- b }})
	}()
	var base string
	select {
	case base = <-ready:
	case err := <-done:
		t.Fatalf("simRun returned early: %v", err)
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/search", strings.NewReader(`{"query":"capital Australia"}`))
	req.Host = "api.tavily.com"
	req.Header.Set("Authorization", "Bearer tvly-test")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "Canberra") {
		t.Fatalf("HTTP %d %s", resp.StatusCode, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("simRun: %v", err)
	}
	for _, want := range []string{
		"export SEARCHBENCH_LLM_BASE_URL=" + base + "/v1\n",
		"export TAVILY_BASE_URL=" + base + "/tavily\n",
		"export EXA_BASE_URL=" + base + "/exa\n",
		"export CEREBRAS_API_KEY=",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, out.String())
		}
	}
	if e := errOut.String(); !strings.Contains(e, "serving on "+base) || !strings.Contains(e, `sim: tavily search "capital Australia": 3 results`) || !strings.Contains(e, "stopped") {
		t.Errorf("stderr:\n%s", e)
	}
}

func TestFlags(t *testing.T) {
	ios, _, _ := cmdutil.Test("")
	var got *Options
	cmd := NewCmdSim(ios, func(o *Options) error { got = o; return nil })
	cmd.SetArgs([]string{"--addr", "127.0.0.1:9000", "--variant", "routing-examples", "-v"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.Addr != "127.0.0.1:9000" || got.Variant.Variant != "routing-examples" || !got.Verbose {
		t.Errorf("options %+v", got)
	}
	cmd = NewCmdSim(ios, func(o *Options) error { got = o; return nil })
	cmd.SetArgs(nil)
	if err := cmd.Execute(); err != nil || got.Addr != DefaultAddr || got.Variant.Variant != "seed" {
		t.Errorf("defaults: %v %+v", err, got)
	}
}
