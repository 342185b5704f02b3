package record

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/searchbench/searchbench/eval/price"
	"github.com/searchbench/searchbench/eval/report"
	evalrun "github.com/searchbench/searchbench/eval/run"
	"github.com/searchbench/searchbench/orchestrator/httpx"
)

// DefaultProviders is the providers file read when --providers is not set
// and the file exists; otherwise the built-in copy is used.
const DefaultProviders = "config/providers.yaml"

func loadProviders(path string) (*price.Providers, error) {
	if path == "" || path == DefaultProviders {
		if _, err := os.Stat(DefaultProviders); errors.Is(err, os.ErrNotExist) {
			return price.Default(), nil
		}
		path = DefaultProviders
	}
	return price.LoadFile(path)
}

// budget tracks what a recording spent against --max-usd and --max-tokens.
// Its methods are called under the command's lock.
type budget struct {
	maxUSD    float64
	maxTokens int

	spentUSD    float64
	spentTokens int
	reservedUSD float64 // estimates of the cases in flight
	reservedTok int
	used        map[string]price.Usage
	stopped     bool
}

// admit reserves e if the cases finished and in flight plus e stay within
// the budget; once it refuses, it refuses every later case, so cases start
// in order and a resume (--stale) picks up where the recording stopped.
func (b *budget) admit(e evalrun.Estimate) bool {
	if b.stopped {
		return false
	}
	if b.maxUSD > 0 && b.spentUSD+b.reservedUSD+e.USD > b.maxUSD ||
		b.maxTokens > 0 && b.spentTokens+b.reservedTok+e.Tokens() > b.maxTokens {
		b.stopped = true
		return false
	}
	b.reservedUSD += e.USD
	b.reservedTok += e.Tokens()
	return true
}

// finish moves a case from reserved (its estimate) to spent (what it used).
func (b *budget) finish(e evalrun.Estimate, usd float64, tokens int) {
	b.reservedUSD -= e.USD
	b.reservedTok -= e.Tokens()
	b.spentUSD += usd
	b.spentTokens += tokens
}

func (b *budget) describe() string {
	var parts []string
	if b.maxUSD > 0 {
		parts = append(parts, "--max-usd "+usdString(b.maxUSD))
	}
	if b.maxTokens > 0 {
		parts = append(parts, "--max-tokens "+thousands(b.maxTokens))
	}
	return strings.Join(parts, ", ")
}

// usdString shows dollars with four decimals below a dollar (recordings
// of a few cases cost fractions of a cent), two above.
func usdString(v float64) string {
	if v < 1 {
		return fmt.Sprintf("$%.4f", v)
	}
	return fmt.Sprintf("$%.2f", v)
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// spentString is what was spent: dollars, or for a model with no price
// "unpriced" and the searches' dollars, never a dollar figure that leaves
// the model's tokens out.
func spentString(usd float64, unpriced *price.UnpricedError) string {
	if unpriced != nil {
		return fmt.Sprintf("an unpriced amount (searches %s; %v)", usdString(usd), unpriced)
	}
	return usdString(usd)
}

// progressLine is the progress bar's description: requests sent, 429s
// absorbed and dollars so far (the bar adds cases and the ETA).
func progressLine(p *httpx.Pacer, b *budget, unpriced *price.UnpricedError) string {
	var parts []string
	if p != nil {
		sent, absorbed := 0, 0
		for _, s := range p.Stats() {
			sent += s.Sent
			absorbed += s.Absorbed
		}
		parts = append(parts, fmt.Sprintf("%d req", sent), fmt.Sprintf("%d×429 absorbed", absorbed))
	}
	if unpriced != nil {
		parts = append(parts, "unpriced")
	} else {
		parts = append(parts, usdString(b.spentUSD))
	}
	return strings.Join(parts, " · ")
}

// estimateModel is the model an estimate prices: its name, the name its
// price was found under, or why it has none.
type estimateModel struct {
	name, pricedAs string
	unpriced       *price.UnpricedError
}

// printEstimate prints what recording the selection would take.
func printEstimate(w io.Writer, items []evalrun.Item, ests []evalrun.Estimate, plans map[string]price.LanePlan, m estimateModel, samples int) {
	req := map[string]int{}
	var u price.Usage
	var usd float64
	from := map[string]int{}
	for _, e := range ests {
		for k, v := range e.Requests {
			req[k] += v
		}
		u = u.Add(e.Usage)
		usd += e.USD
		switch {
		case e.From == "default":
			from["defaults"]++
		case strings.HasPrefix(e.From, "mean of"):
			from["their dataset's mean"]++
		default:
			from["a cassette"]++
		}
	}
	model := m.name
	if m.pricedAs != "" && m.pricedAs != m.name {
		model += " (priced as " + m.pricedAs + ")"
	}
	fmt.Fprintf(w, "estimate for %d cases × %d sample(s), model %s:\n", len(items), samples, model)
	var rs []string
	all := 0
	for _, lane := range price.Lanes {
		rs = append(rs, fmt.Sprintf("%s %d", lane, req[lane]))
		all += req[lane]
	}
	fmt.Fprintf(w, "  requests  %d (%s)\n", all, strings.Join(rs, ", "))
	fmt.Fprintf(w, "  tokens    %s (prompt %s, completion %s)\n", thousands(u.Tokens()), thousands(u.PromptTokens), thousands(u.CompletionTokens))
	if m.unpriced != nil {
		fmt.Fprintf(w, "  dollars   unpriced: model %q has no price (the searches alone: %s)\n", m.name, usdString(usd))
		labelled(w, "fix", m.unpriced.Fix())
	} else {
		fmt.Fprintf(w, "  dollars   %s\n", usdString(usd))
	}
	var longest time.Duration
	var why, unlimited []string
	for _, lane := range price.Lanes {
		if !plans[lane].Published {
			unlimited = append(unlimited, fmt.Sprintf("%s at %s", lane, plans[lane].Host))
			continue
		}
		l := plans[lane].Limits
		var d time.Duration
		if r := l.RequestRate(); r > 0 && req[lane] > 0 {
			d = time.Duration(float64(req[lane]) / r * float64(time.Second))
		}
		if lane == evalrun.LaneChat && l.TokensPerMinute > 0 {
			if t := time.Duration(float64(u.Tokens()) / l.TokensPerMinute * float64(time.Minute)); t > d {
				d = t
			}
		}
		if d > longest {
			longest = d
		}
		why = append(why, fmt.Sprintf("%s %s", lane, d.Round(time.Second)))
	}
	var line string
	switch {
	case len(why) == 0:
		line = "no published rate limits apply (" + strings.Join(unlimited, ", ") +
			"): bounded by requests in flight, and by the servers' headers or 429s"
	default:
		line = fmt.Sprintf("at least %s at the published rate limits (%s); a provider's headers may allow more", longest.Round(time.Second), strings.Join(why, ", "))
		if len(unlimited) > 0 {
			line += "; no published limits for " + strings.Join(unlimited, ", ")
		}
	}
	labelled(w, "time", line)
	var fs []string
	for _, k := range []string{"a cassette", "their dataset's mean", "defaults"} {
		if from[k] > 0 {
			fs = append(fs, fmt.Sprintf("%d from %s", from[k], k))
		}
	}
	labelled(w, "estimated", strings.Join(fs, ", ")+"; prices and limits from config/providers.yaml")
}

// labelled prints one line of the estimate: its label in a column of its
// own, the text wrapped beside it.
func labelled(w io.Writer, label, text string) {
	const col = 12 // "  " + the widest label, "estimated", + " "
	for i, l := range report.WrapText(text, report.DefaultWidth-col, "") {
		if i == 0 {
			fmt.Fprintf(w, "  %-*s%s\n", col-2, label, l)
		} else {
			fmt.Fprintf(w, "%*s%s\n", col, "", l)
		}
	}
}
