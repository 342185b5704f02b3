// Package lib is the bottom floor of searchbench: small utilities that
// orchestrator, sim and eval share and that import nothing else from this
// module. The layering, top to bottom, is
//
//	cmd, internal      the commands and their tests
//	eval               datasets, replay, scorers, reports, the gate
//	sim                the loopback simulator (its data in fixtures/)
//	orchestrator       the assistant
//	fixtures, config,  data only (embedded files)
//	prompts
//	lib                jsonx, fsutil, textdiff, secret, problem, suggest, golden,
//	                   memo, quantity, testenv, visible
//
// An import may point down, never up; layers_test.go enforces it.
package lib
