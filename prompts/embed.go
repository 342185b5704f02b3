// Package prompts is the folder of prompt variants: prompts/<variant>/ holds
// the prompt files a variant changes and an optional variant.yaml of model
// settings (see orchestrator/prompts for how a variant is read).
//
// Variants are read from disk at run time, so a new or edited variant needs
// no rebuild. Only the default variant, seed, is also compiled in: it is the
// fallback of a binary run where no prompts folder exists.
package prompts

import "embed"

// Seed holds seed/: the default variant, as built into the binary.
//
//go:embed seed
var Seed embed.FS
