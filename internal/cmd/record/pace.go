package record

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/searchbench/searchbench/eval/price"
	"github.com/searchbench/searchbench/eval/report"
	evalrun "github.com/searchbench/searchbench/eval/run"
	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/llm"
	"github.com/searchbench/searchbench/orchestrator/search"
)

// laneBases is each lane's base URL as the environment sets it (the
// service's default when unset), by lane.
func laneBases(getenv func(string) string) map[string]string {
	out := map[string]string{}
	for _, s := range []struct{ lane, env, def string }{
		{evalrun.LaneChat, llm.EnvBaseURL, llm.DefaultBaseURL},
		{evalrun.LaneTavily, search.EnvTavilyBaseURL, search.DefaultTavilyBaseURL},
		{evalrun.LaneExa, search.EnvExaBaseURL, search.DefaultExaBaseURL},
	} {
		b, err := httpx.BaseURL(s.env, getenv(s.env), s.def)
		if err != nil {
			b = s.def // the clients refuse it, naming the variable
		}
		out[s.lane] = b
	}
	return out
}

// paceLimits is the pacer's lanes from plans.
func paceLimits(plans map[string]price.LanePlan) map[string]httpx.Limits {
	out := map[string]httpx.Limits{}
	for lane, p := range plans {
		out[lane] = p.Limits
	}
	return out
}

// rateString shows a rate per second with three significant digits.
func rateString(perSecond float64) string {
	return strconv.FormatFloat(perSecond, 'g', 3, 64) + "/s"
}

// pacingSummary says, per lane that sent anything, what it sent and where
// its pace came from: the published limits of the provider's own host, the
// provider's headers, its 429s, or nothing but the window of requests in
// flight (a host with no published limits that neither sent headers nor
// refused a request).
func pacingSummary(p *httpx.Pacer, plans map[string]price.LanePlan) []string {
	var out []string
	for _, s := range p.Stats() {
		if s.Sent == 0 {
			continue
		}
		plan := plans[s.Name]
		host := plan.Host
		if host == "" {
			host = "its host"
		}
		var why string
		switch s.RateFrom {
		case httpx.PaceHeaders:
			why = "paced at " + rateString(s.Rate) + " from its x-ratelimit headers"
		case httpx.PaceConfigured:
			why = "paced at " + rateString(s.Rate) + " by the published limits of " + host + " (providers file)"
		case httpx.Pace429:
			why = "paced at " + rateString(s.Rate) + " found from its 429s (" + host + " has no published limits)"
		default:
			if plan.Published {
				why = "no request rate configured: bounded by " + strconv.Itoa(int(s.Window)) + " requests in flight"
			} else {
				why = "not rate-paced (" + host + " has no published limits): bounded by " + strconv.Itoa(int(s.Window)) + " requests in flight"
			}
		}
		switch s.TokensFrom {
		case httpx.PaceHeaders:
			why += "; tokens " + thousands(int(s.TokenRate)) + "/min from its headers"
		case httpx.PaceConfigured:
			why += "; tokens " + thousands(int(s.TokenRate)) + "/min by the published limits"
		}
		if s.Cuts > 0 {
			why += fmt.Sprintf("; %d×429 cut the pace", s.Cuts)
		}
		reqs := "requests"
		if s.Sent == 1 {
			reqs = "request"
		}
		out = append(out, fmt.Sprintf("pacing %s: %d %s, %d×429 absorbed, %d passed on; %s", s.Name, s.Sent, reqs, s.Absorbed, s.Passed, why))
	}
	if len(out) == 0 {
		return []string{"pacing: no requests sent"}
	}
	return out
}

// progressInterval is the longest a recording in a pipe stays silent.
const progressInterval = 10 * time.Second

// pipeProgress prints a line of progress where no progress bar can be
// drawn (stderr is not a terminal): every step cases (live recordings
// only: the simulator's are quick) and whenever progressInterval passed
// without one. done and line are called under lock (the command's), which
// run takes.
type pipeProgress struct {
	w     io.Writer
	clock httpx.Clock
	desc  string
	total int
	step  int // 0: by time only
	start time.Time
	line  func() string // the figures after the case count
	lock  sync.Locker

	last     time.Time
	finished int
	failed   int
}

func newPipeProgress(w io.Writer, clock httpx.Clock, lock sync.Locker, desc string, total, step int, line func() string) *pipeProgress {
	now := clock.Now()
	return &pipeProgress{w: w, clock: clock, lock: lock, desc: desc, total: total, step: step, start: now, last: now, line: line}
}

// done counts a finished case.
func (p *pipeProgress) done(failed bool) {
	p.finished++
	if failed {
		p.failed++
	}
	if p.step > 0 && p.finished%p.step == 0 && p.finished < p.total {
		p.printLocked()
	}
}

func (p *pipeProgress) printLocked() {
	now := p.clock.Now()
	p.last = now
	s := fmt.Sprintf("%s: %d/%d cases", p.desc, p.finished, p.total)
	if p.failed > 0 {
		s += fmt.Sprintf(" (%d failed)", p.failed)
	}
	if p.line != nil {
		s += " · " + p.line()
	}
	s += " · " + now.Sub(p.start).Round(time.Second).String()
	for _, l := range report.WrapText(s, report.DefaultWidth, "  ") {
		fmt.Fprintln(p.w, l)
	}
}

// run prints a line whenever progressInterval passes without one, until
// ctx ends.
func (p *pipeProgress) run(ctx context.Context) {
	for {
		p.lock.Lock()
		wait := progressInterval - p.clock.Now().Sub(p.last)
		if wait <= 0 && ctx.Err() == nil {
			p.printLocked()
			wait = progressInterval
		}
		p.lock.Unlock()
		if p.clock.Sleep(ctx, wait) != nil {
			return
		}
	}
}
