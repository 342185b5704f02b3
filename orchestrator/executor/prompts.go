package executor

import (
	"embed"
	"fmt"
	"strings"
)

// Strategy names, as written in config/executor.yaml.
const (
	GuidedJSON = "guided_json"
	ReAct      = "react"
	Markers    = "markers"
	Fuzzy      = "fuzzy"
)

// Strategies lists the strategies in the seed's order (most to least structured).
var Strategies = []string{GuidedJSON, ReAct, Markers, Fuzzy}

// The prompt files hold the seed's text byte for byte, without a final
// newline; react.txt is the system prompt, a blank line, and the few-shot
// example the seed recommends including.
//
//go:embed prompts/*.txt
var promptFiles embed.FS

// Prompt returns the system prompt sent to GPT-OSS for a strategy.
func Prompt(strategy string) (string, error) {
	if err := checkStrategy(strategy); err != nil {
		return "", err
	}
	b, err := promptFiles.ReadFile("prompts/" + strategy + ".txt")
	if err != nil {
		return "", fmt.Errorf("prompt for %s: %w", strategy, err)
	}
	return string(b), nil
}

func checkStrategy(s string) error {
	for _, k := range Strategies {
		if s == k {
			return nil
		}
	}
	return fmt.Errorf("unknown strategy %q (want one of %s)", s, strings.Join(Strategies, ", "))
}
