package httpx

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestBackoff(t *testing.T) {
	p := Policy{BaseDelay: 500 * time.Millisecond, MaxDelay: 8 * time.Second}
	tests := []struct {
		n      int
		jitter func() float64
		want   time.Duration
	}{
		{0, nil, 0},
		{1, nil, 500 * time.Millisecond},
		{2, nil, time.Second},
		{5, nil, 8 * time.Second},
		{6, nil, 8 * time.Second},
		{1000, nil, 8 * time.Second},
		{1, func() float64 { return 0 }, 250 * time.Millisecond},
		{1, func() float64 { return 0.5 }, 375 * time.Millisecond},
		{4, func() float64 { return 0.999 }, 3998 * time.Millisecond},
		{1, func() float64 { return math.NaN() }, 250 * time.Millisecond},
		{1, func() float64 { return 7 }, 500 * time.Millisecond},
	}
	for _, tt := range tests {
		p.Jitter = tt.jitter
		if got := p.Backoff(tt.n); got != tt.want {
			t.Errorf("Backoff(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
	uncapped := Policy{BaseDelay: time.Hour}
	if got := uncapped.Backoff(200); got <= 0 {
		t.Errorf("uncapped Backoff(200) = %v, want a positive duration (no overflow)", got)
	}
}

func TestRetryHint(t *testing.T) {
	now := time.Date(2015, 10, 21, 7, 28, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
		ok     bool
	}{
		{"none", nil, 0, false},
		{"seconds", map[string]string{"Retry-After": "7"}, 7 * time.Second, true},
		{"fractional seconds", map[string]string{"Retry-After": "0.25"}, 250 * time.Millisecond, true},
		{"milliseconds header first", map[string]string{"Retry-After-Ms": "120", "Retry-After": "7"}, 120 * time.Millisecond, true},
		{"http date from now", map[string]string{"Retry-After": "Wed, 21 Oct 2015 07:28:05 GMT"}, 5 * time.Second, true},
		{"http date from Date header", map[string]string{"Date": "Wed, 21 Oct 2015 07:27:00 GMT", "Retry-After": "Wed, 21 Oct 2015 07:28:05 GMT"}, 65 * time.Second, true},
		{"http date in the past", map[string]string{"Retry-After": "Wed, 21 Oct 2015 07:00:00 GMT"}, 0, true},
		{"garbage retry-after", map[string]string{"Retry-After": "soon"}, 0, false},
		{"negative retry-after", map[string]string{"Retry-After": "-3"}, 0, false},
		{"reset for exhausted tokens", map[string]string{
			"x-ratelimit-remaining-tokens-minute": "0", "x-ratelimit-reset-tokens-minute": "12.5",
			"x-ratelimit-remaining-requests-day": "99", "x-ratelimit-reset-requests-day": "40000"}, 12500 * time.Millisecond, true},
		{"longest exhausted reset wins", map[string]string{
			"x-ratelimit-remaining-tokens-minute": "0", "x-ratelimit-reset-tokens-minute": "12.5",
			"x-ratelimit-remaining-requests-minute": "0", "x-ratelimit-reset-requests-minute": "30"}, 30 * time.Second, true},
		{"limits with room give no hint", map[string]string{
			"x-ratelimit-remaining-tokens-minute": "5000", "x-ratelimit-reset-tokens-minute": "12.5"}, 0, false},
		{"reset without remaining: shortest", map[string]string{
			"x-ratelimit-reset-tokens-minute": "12.5", "x-ratelimit-reset-requests-day": "40000"}, 12500 * time.Millisecond, true},
		{"openai duration style", map[string]string{
			"x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "6m0s"}, 6 * time.Minute, true},
		{"retry-after beats reset headers", map[string]string{
			"Retry-After": "1", "x-ratelimit-remaining-tokens-minute": "0", "x-ratelimit-reset-tokens-minute": "12.5"}, time.Second, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			got, ok := RetryHint(h, now)
			if got != tt.want || ok != tt.ok {
				t.Errorf("RetryHint = %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestSleepContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// An hour-long sleep on a cancelled context returns at once: were it
	// to wait, the test would time out rather than pass.
	if err := SleepContext(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if err := SleepContext(context.Background(), time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := NoSleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("NoSleep on a cancelled context = %v", err)
	}
}

func TestDefaultPolicy(t *testing.T) {
	p := DefaultPolicy()
	if p.MaxAttempts != 4 || p.BaseDelay != 500*time.Millisecond || p.MaxDelay != 8*time.Second ||
		p.AttemptTimeout != time.Minute || p.Sleep == nil || p.Jitter == nil {
		t.Fatalf("DefaultPolicy = %+v", p)
	}
	for n := 1; n <= 10; n++ {
		if d := p.Backoff(n); d <= 0 || d > p.MaxDelay {
			t.Errorf("Backoff(%d) = %v outside (0, %v]", n, d, p.MaxDelay)
		}
	}
}

func TestPolicyFromEnv(t *testing.T) {
	env := map[string]string{EnvAttemptTimeout: "90s", EnvCallTimeout: "0"}
	p, err := PolicyFromEnv(func(k string) string { return env[k] }, DefaultPolicy())
	if err != nil || p.AttemptTimeout != 90*time.Second || p.CallTimeout != 0 {
		t.Fatalf("PolicyFromEnv = %v, %+v", err, p)
	}
	env[EnvCallTimeout] = "five minutes"
	if _, err := PolicyFromEnv(func(k string) string { return env[k] }, DefaultPolicy()); err == nil || !strings.Contains(err.Error(), EnvCallTimeout) {
		t.Fatalf("err = %v, want one naming %s", err, EnvCallTimeout)
	}
}
