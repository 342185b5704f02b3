package httpx

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/searchbench/searchbench/sim/ratelimit"
)

// handlerTransport serves requests in memory, so a synctest bubble's fake
// clock advances whenever every goroutine waits (no real network).
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := r.Context().Err(); err != nil {
		return nil, err
	}
	w := httptest.NewRecorder()
	t.h.ServeHTTP(w, r)
	if err := r.Context().Err(); err != nil {
		return nil, err // cancelled while being served
	}
	return w.Result(), nil
}

func TestParseRateHeaders(t *testing.T) {
	// Header names from API-NOTES.md (Cerebras) and the Cerebras rate-limit
	// page (limits per requests/tokens × minute/hour/day); the bare
	// x-ratelimit-limit-requests with a "6m0s" reset is OpenAI's style.
	tests := []struct {
		name      string
		h         map[string]string
		rpm, rps  float64
		tpm       float64
		exhausted []time.Duration
		known     bool
	}{
		{name: "none", h: map[string]string{"Retry-After": "2"}},
		{name: "cerebras", h: map[string]string{
			"x-ratelimit-limit-requests-day":        "14400",
			"x-ratelimit-remaining-requests-day":    "14390",
			"x-ratelimit-reset-requests-day":        "33011.38",
			"x-ratelimit-limit-tokens-minute":       "60000",
			"x-ratelimit-remaining-tokens-minute":   "59000",
			"x-ratelimit-reset-tokens-minute":       "11.38",
			"x-ratelimit-limit-requests-minute":     "30",
			"x-ratelimit-remaining-requests-minute": "29",
		}, rpm: 30, tpm: 60000, known: true},
		{name: "minute spent", h: map[string]string{
			"x-ratelimit-limit-tokens-minute":     "60000",
			"x-ratelimit-remaining-tokens-minute": "0",
			"x-ratelimit-reset-tokens-minute":     "12.5",
		}, tpm: 60000, exhausted: []time.Duration{12500 * time.Millisecond}, known: true},
		{name: "openai style", h: map[string]string{
			"x-ratelimit-limit-requests":     "60",
			"x-ratelimit-remaining-requests": "0",
			"x-ratelimit-reset-requests":     "6m0s",
		}, rpm: 60, exhausted: []time.Duration{6 * time.Minute}, known: true},
		{name: "per second", h: map[string]string{
			"x-ratelimit-limit-requests-second": "4",
		}, rps: 4, known: true},
		{name: "garbage ignored", h: map[string]string{
			"x-ratelimit-limit-requests-fortnight": "4",
			"x-ratelimit-limit-requests-minute":    "lots",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.h {
				h.Set(k, v)
			}
			got := ParseRateHeaders(h)
			if got.RequestsPerMinute != tt.rpm || got.RequestsPerSecond != tt.rps || got.TokensPerMinute != tt.tpm || got.Known() != tt.known {
				t.Errorf("got rpm %v rps %v tpm %v known %v; want %v %v %v %v", got.RequestsPerMinute, got.RequestsPerSecond, got.TokensPerMinute, got.Known(), tt.rpm, tt.rps, tt.tpm, tt.known)
			}
			if fmt.Sprint(got.Exhausted) != fmt.Sprint(tt.exhausted) {
				t.Errorf("exhausted %v, want %v", got.Exhausted, tt.exhausted)
			}
		})
	}
}

func ok200() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	})
}

// burst sends n requests from workers goroutines through p, each to
// provider host, and returns how many failed.
func burst(t *testing.T, p http.RoundTripper, hosts []string, n, workers int) int {
	t.Helper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	failed := 0
	jobs := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				host := hosts[i%len(hosts)]
				req, _ := http.NewRequest(http.MethodPost, "http://"+host+"/x", strings.NewReader(fmt.Sprintf(`{"i":%d}`, i)))
				resp, err := p.RoundTrip(req)
				if err != nil || resp.StatusCode != 200 {
					t.Logf("request %d: %v %v", i, resp, err)
					mu.Lock()
					failed++
					mu.Unlock()
					if err == nil {
						resp.Body.Close()
					}
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return failed
}

// TestPacerMeetsRateLimit is the done-when on the pacer alone: a
// loopback limiter allowing R requests per second per provider, with
// Cerebras-style headers, and a pacer configured far above it (the
// published Exa limit, 10 QPS): every request succeeds, at most 5% are
// refused, and the achieved rate is at least 80% of the allowed one.
func TestPacerMeetsRateLimit(t *testing.T) {
	for _, rate := range []int{4, 1} {
		t.Run(fmt.Sprintf("%d per second", rate), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				lim := ratelimit.New(ok200(), ratelimit.Options{PerSecond: rate, Headers: true})
				hosts := []string{"chat.test", "tavily.test", "exa.test"}
				lanes := map[string]Limits{}
				for _, h := range hosts {
					lanes[h] = Limits{RequestsPerSecond: 10}
				}
				p := NewPacer(handlerTransport{lim}, PacerOptions{Lanes: lanes, Route: func(r *http.Request) string { return r.URL.Host }})
				n := 60 * rate * len(hosts) // a minute of traffic per provider
				start := time.Now()
				if failed := burst(t, p, hosts, n, 8); failed != 0 {
					t.Fatalf("%d of %d requests failed", failed, n)
				}
				elapsed := time.Since(start)
				refused := 0
				for _, s := range lim.Stats() {
					refused += s.Refused
				}
				ideal := time.Duration(n/len(hosts)/rate) * time.Second
				share := ideal.Seconds() / elapsed.Seconds()
				t.Logf("%d requests, %d refused (%.1f%%), %s for an ideal %s: %.0f%% of the allowed rate; %+v", n, refused, 100*float64(refused)/float64(n), elapsed, ideal, 100*share, p.Stats())
				if float64(refused) > 0.05*float64(n) {
					t.Errorf("%d of %d requests refused, more than 5%%", refused, n)
				}
				if share < 0.8 {
					t.Errorf("achieved %.0f%% of the allowed rate, want ≥ 80%%", 100*share)
				}
				absorbed := 0
				for _, s := range p.Stats() {
					absorbed += s.Absorbed
					if !s.Learned || s.Rate != float64(rate) {
						t.Errorf("lane %s: rate %v learned %v, want %d from the headers", s.Name, s.Rate, s.Learned, rate)
					}
				}
				if absorbed != refused {
					t.Errorf("pacer absorbed %d 429s, the limiter refused %d", absorbed, refused)
				}
			})
		})
	}
}

// TestPacerAdaptsWithoutHeaders: a server that refuses above 2/s and says
// nothing but 429 (no Retry-After, no limits, as Tavily may): the pacer,
// configured at 10/s, halves its rate on each congestion event and every
// request still succeeds.
func TestPacerAdaptsWithoutHeaders(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lim := ratelimit.New(ok200(), ratelimit.Options{PerSecond: 2})
		strip := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := httptest.NewRecorder()
			lim.ServeHTTP(rec, r)
			w.WriteHeader(rec.Code) // headers dropped: no hint at all
			w.Write(rec.Body.Bytes())
		})
		p := NewPacer(handlerTransport{strip}, PacerOptions{Lanes: map[string]Limits{"t": {RequestsPerSecond: 10}}, Route: func(*http.Request) string { return "t" }})
		n := 120
		start := time.Now()
		if failed := burst(t, p, []string{"tavily.test"}, n, 4); failed != 0 {
			t.Fatalf("%d of %d requests failed", failed, n)
		}
		st := lim.Stats()["tavily.test"]
		share := float64(n) / 2 / time.Since(start).Seconds()
		t.Logf("refused %d, %s, %.0f%% of the allowed rate, %+v", st.Refused, time.Since(start), 100*share, p.Stats())
		// Without any hint the pacer must find the limit by refusals: it
		// may not hammer (≤ 25% refused) and must not crawl (≥ 50%).
		if float64(st.Refused) > 0.25*float64(n) || share < 0.5 {
			t.Errorf("refused %d of %d, %.0f%% of the allowed rate", st.Refused, n, 100*share)
		}
	})
}

// TestPacerHonoursRetryAfterExactly: a 429 asking for 3s is waited out to
// the nanosecond of the fake clock, the same bytes are sent again, and the
// caller (the recorder) sees only the 200.
func TestPacerHonoursRetryAfterExactly(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    map[string]string
		want time.Duration
	}{
		{"retry-after seconds", map[string]string{"Retry-After": "3"}, 3 * time.Second},
		{"retry-after-ms", map[string]string{"Retry-After-Ms": "1250"}, 1250 * time.Millisecond},
		{"cerebras reset", map[string]string{"x-ratelimit-remaining-tokens-minute": "0", "x-ratelimit-reset-tokens-minute": "7.5", "x-ratelimit-limit-tokens-minute": "1000000"}, 7500 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var bodies []string
				var at []time.Time
				h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					b, _ := io.ReadAll(r.Body)
					bodies = append(bodies, string(b))
					at = append(at, time.Now())
					if len(bodies) == 1 {
						for k, v := range tc.h {
							w.Header().Set(k, v)
						}
						w.WriteHeader(429)
						return
					}
					fmt.Fprint(w, `{"ok":true}`)
				})
				p := NewPacer(handlerTransport{h}, PacerOptions{Lanes: map[string]Limits{"chat": {}}, Route: func(*http.Request) string { return "chat" }})
				req, _ := http.NewRequest(http.MethodPost, "http://chat.test/v1", strings.NewReader(`{"q":1}`))
				resp, err := p.RoundTrip(req)
				if err != nil || resp.StatusCode != 200 {
					t.Fatalf("got %v, %v", resp, err)
				}
				if len(bodies) != 2 || bodies[0] != bodies[1] || bodies[0] != `{"q":1}` {
					t.Fatalf("server saw %q", bodies)
				}
				if d := at[1].Sub(at[0]); d != tc.want {
					t.Errorf("waited %s, want exactly %s", d, tc.want)
				}
				if s := p.Stats()[0]; s.Absorbed != 1 || s.Sent != 2 || s.Passed != 0 {
					t.Errorf("stats %+v", s)
				}
			})
		})
	}
}

// TestPacerPassesLongWaitsUp: a 429 asking for longer than MaxWait (a spent
// daily quota) goes up to the caller at once, and the next request fails
// fast naming the lane instead of sleeping for hours.
func TestPacerPassesLongWaitsUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("x-ratelimit-limit-requests-day", "14400")
			w.Header().Set("x-ratelimit-remaining-requests-day", "0")
			w.Header().Set("x-ratelimit-reset-requests-day", "36000")
			w.WriteHeader(429)
		})
		p := NewPacer(handlerTransport{h}, PacerOptions{Route: func(*http.Request) string { return "chat" }})
		start := time.Now()
		req, _ := http.NewRequest(http.MethodPost, "http://chat.test/v1", strings.NewReader(`{}`))
		resp, err := p.RoundTrip(req)
		if err != nil || resp.StatusCode != 429 {
			t.Fatalf("got %v, %v; want the 429 handed up", resp, err)
		}
		req, _ = http.NewRequest(http.MethodPost, "http://chat.test/v1", strings.NewReader(`{}`))
		_, err = p.RoundTrip(req)
		if err == nil || !strings.Contains(err.Error(), "chat: rate limit spent until") {
			t.Fatalf("second request: %v", err)
		}
		if time.Since(start) != 0 {
			t.Errorf("waited %s", time.Since(start))
		}
	})
}

// TestPacerWindowAIMD: a server that refuses more than two requests in
// flight (a concurrency limit, no rate limit): the window halves from 8 on
// the refusals, grows back additively, and every request succeeds.
func TestPacerWindowAIMD(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		inflight, peak, refused := 0, 0, 0
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			inflight++
			over := inflight > 2
			if over {
				refused++
			}
			mu.Unlock()
			defer func() { mu.Lock(); inflight--; mu.Unlock() }()
			if over {
				w.Header().Set("Retry-After-Ms", "100")
				w.WriteHeader(429)
				return
			}
			time.Sleep(500 * time.Millisecond) // the service's latency
			mu.Lock()
			peak = max(peak, inflight)
			mu.Unlock()
			fmt.Fprint(w, `{}`)
		})
		p := NewPacer(handlerTransport{h}, PacerOptions{Lanes: map[string]Limits{"exa": {Concurrency: 8, MaxConcurrency: 8}}, Route: func(*http.Request) string { return "exa" }})
		if failed := burst(t, p, []string{"exa.test"}, 80, 8); failed != 0 {
			t.Fatalf("%d failed", failed)
		}
		s := p.Stats()[0]
		t.Logf("refused %d, window now %.2f, %+v", refused, s.Window, s)
		if s.Window >= 8 {
			t.Errorf("window %.2f never cut", s.Window)
		}
		if refused > 40 {
			t.Errorf("%d refusals for 80 requests: the window did not adapt", refused)
		}
	})
}

// TestPacerTokens: a token-per-minute limit paces chat requests by their
// estimated size and corrects by the usage the response reports.
func TestPacerTokens(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var at []time.Time
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			at = append(at, time.Now())
			fmt.Fprint(w, `{"usage":{"total_tokens":2000}}`)
		})
		// 12,000 tokens a minute = 200/s, burst 2,000: each request
		// estimated at 1,000 + its prompt but using 2,000 must end up paced
		// at one per 10s.
		p := NewPacer(handlerTransport{h}, PacerOptions{Lanes: map[string]Limits{"chat": {TokensPerMinute: 12000}}, Route: func(*http.Request) string { return "chat" }})
		body := `{"messages":[{"role":"user","content":"hi"}],"max_completion_tokens":1000}`
		for range 5 {
			req, _ := http.NewRequest(http.MethodPost, "http://chat.test/v1", bytes.NewReader([]byte(body)))
			resp, err := p.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			if string(b) != `{"usage":{"total_tokens":2000}}` {
				t.Fatalf("body not handed on whole: %q", b)
			}
		}
		for i := 2; i < len(at); i++ {
			if d := at[i].Sub(at[i-1]); d != 10*time.Second {
				t.Errorf("request %d after %s, want 10s", i, d)
			}
		}
	})
}

func TestEstimateTokens(t *testing.T) {
	if got := EstimateTokens([]byte(`{"query":"x"}`)); got != 0 {
		t.Errorf("search request: %d", got)
	}
	msgs := `[{"role":"user","content":"abcdefgh"}]` // 38 bytes
	if got := EstimateTokens([]byte(`{"messages":` + msgs + `,"max_completion_tokens":100}`)); got != 38/4+100 {
		t.Errorf("chat request: %d", got)
	}
	_ = context.Background
}

// TestDeferredTimeout: a request that queues 10s behind a Retry-After is
// not timed out by a 1s attempt limit, which starts when the pacer lets it
// go; a server slower than that limit still times out.
func TestDeferredTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		calls := 0
		slow := false
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls++
			if calls == 1 {
				w.Header().Set("Retry-After", "10")
				w.WriteHeader(429)
				return
			}
			if slow {
				select {
				case <-time.After(2 * time.Second):
				case <-r.Context().Done():
					return
				}
			}
			fmt.Fprint(w, `{}`)
		})
		p := NewPacer(handlerTransport{h}, PacerOptions{Route: func(*http.Request) string { return "chat" }})
		c := NewClient(p, Policy{MaxAttempts: 1, AttemptTimeout: time.Second, CallTimeout: 3 * time.Second, WithTimeout: DeferredTimeout})
		start := time.Now()
		if _, _, err := c.PostJSON(context.Background(), "http://chat.test/v1", nil, []byte(`{}`), nil); err != nil {
			t.Fatalf("queued request timed out: %v", err)
		}
		if d := time.Since(start); d != 10*time.Second {
			t.Errorf("took %s, want the 10s Retry-After", d)
		}
		slow = true
		_, _, err := c.PostJSON(context.Background(), "http://chat.test/v1", nil, []byte(`{}`), nil)
		if err == nil || !strings.Contains(err.Error(), "attempt timed out after 1s") {
			t.Errorf("slow server: %v", err)
		}
	})
}

// TestPacerFindsARateFromRefusals: a lane with no rate at all (a host with
// no published limits) in front of a server that refuses above 2/s with a
// bare 429: the first refusals give the lane a rate (half the rate it was
// sending at), which then settles near the server's; every request
// succeeds, and the lane says its pace came from 429s.
func TestPacerFindsARateFromRefusals(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lim := ratelimit.New(ok200(), ratelimit.Options{PerSecond: 2})
		strip := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := httptest.NewRecorder()
			lim.ServeHTTP(rec, r)
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
		})
		p := NewPacer(handlerTransport{strip}, PacerOptions{Lanes: map[string]Limits{"t": {}}, Route: func(*http.Request) string { return "t" }})
		n := 120
		start := time.Now()
		if failed := burst(t, p, []string{"vllm.test"}, n, 4); failed != 0 {
			t.Fatalf("%d of %d requests failed", failed, n)
		}
		st := lim.Stats()["vllm.test"]
		share := float64(n) / 2 / time.Since(start).Seconds()
		ls := p.Stats()[0]
		t.Logf("refused %d, %s, %.0f%% of the allowed rate, %+v", st.Refused, time.Since(start), 100*share, ls)
		if float64(st.Refused) > 0.25*float64(n) || share < 0.5 {
			t.Errorf("refused %d of %d, %.0f%% of the allowed rate", st.Refused, n, 100*share)
		}
		if ls.RateFrom != Pace429 || ls.Rate <= 0 || ls.Learned {
			t.Errorf("lane stats %+v: want a rate found from 429s, not learned from headers", ls)
		}
	})
}

// TestPacerSaysWhereItsRatesCameFrom: headers that state only a daily
// request quota and a token rate (as the simulator and Cerebras send) set
// the token rate, not the request rate: the lane's request pace is still
// the configured one, and says so.
func TestPacerSaysWhereItsRatesCameFrom(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("x-ratelimit-limit-requests-day", "14400")
			w.Header().Set("x-ratelimit-remaining-requests-day", "14000")
			w.Header().Set("x-ratelimit-limit-tokens-minute", "1000000")
			ok200().ServeHTTP(w, r)
		})
		route := func(r *http.Request) string { return r.URL.Host }
		p := NewPacer(handlerTransport{h}, PacerOptions{Lanes: map[string]Limits{
			"configured": {RequestsPerMinute: 600}, "bare": {},
		}, Route: route})
		if failed := burst(t, p, []string{"configured", "bare"}, 4, 1); failed != 0 {
			t.Fatal("requests failed")
		}
		for _, s := range p.Stats() {
			wantRate := map[string]string{"configured": PaceConfigured, "bare": ""}[s.Name]
			if s.RateFrom != wantRate || s.TokensFrom != PaceHeaders || s.TokenRate != 1e6 || !s.Learned {
				t.Errorf("lane %s: %+v; want requests %q, tokens 1,000,000/min from headers", s.Name, s, wantRate)
			}
		}
	})
}
