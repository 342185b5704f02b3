// Package noise holds the A/A test of the gate: the unchanged prompt
// re-recorded with fresh seeds must pass it, a regressed one must fail it,
// naming the cases that broke and no other. The test runs the recipe users
// run (scripts/aa.sh, make aa) in a copy of the tree.
package noise
