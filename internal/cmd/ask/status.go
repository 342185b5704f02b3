package ask

import (
	"fmt"
	"strings"

	"github.com/mattn/go-runewidth"

	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/orchestrator"
	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// status is the one line on standard error that says which search a Phase
// 2 turn is waiting for ("searching Exa… 2 results"), redrawn in place and
// cleared before the answer is printed. Off a terminal it draws nothing:
// a log gets the answers only.
type status struct {
	io    *cmdutil.IOStreams
	shown bool
}

func newStatus(io *cmdutil.IOStreams) *status { return &status{io: io} }

// toolName is how the status line names a search tool.
func toolName(tool string) string {
	switch tool {
	case trace.ToolExa:
		return "Exa"
	case trace.ToolTavily:
		return "Tavily"
	}
	return tool
}

// statusText is the line for one step of a search.
func statusText(p orchestrator.SearchProgress) string {
	s := "searching " + toolName(p.Tool) + "…"
	switch {
	case !p.Done:
		s += " " + fmt.Sprintf("%q", p.Query)
	case p.Err != nil:
		s += " failed: " + httpx.StableText(p.Err)
	case p.Results == 1:
		s += " 1 result"
	default:
		s += fmt.Sprintf(" %d results", p.Results)
	}
	return s
}

// search draws the line for p (orchestrator.Options.Progress).
func (s *status) search(p orchestrator.SearchProgress) {
	if !s.io.IsStderrTTY() {
		return
	}
	width := s.io.Width(false)
	// One line, whatever the query: cut to the width, control characters
	// out (a query is the model's text).
	text := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return ' '
		}
		return r
	}, statusText(p))
	text = runewidth.Truncate(text, width-1, "…")
	fmt.Fprint(s.io.ErrOut, "\r\x1b[K"+text)
	s.shown = true
}

// clear erases the line, if one is drawn.
func (s *status) clear() {
	if s.shown {
		fmt.Fprint(s.io.ErrOut, "\r\x1b[K")
		s.shown = false
	}
}

// shown is what is printed of a turn's output. A Phase 2 success on a
// terminal is shown without its JSON envelope: the bullets and sources are
// printed above it, and the envelope is for programs (whole reports it
// with whole). Anything else (Phase 1, a failure form whose envelope holds
// its reason, a message off the contract) is printed as it is.
func shown(out string, whole bool) string {
	if whole || !strings.HasPrefix(out, answer.Phase2Header) {
		return out
	}
	rep := answer.CheckPhase2(out)
	if rep.Envelope == nil || rep.Envelope.Error.Code != answer.CodeNone || answer.HasViolation(rep.Findings) || rep.Printed == "" {
		return out
	}
	return answer.Phase2Header + "\nVerification: " + rep.Verification + "\n\n" + strings.TrimRight(rep.Printed, "\n")
}
