// Package walkthrough walks the README's workflows as a new user would:
// each is a testscript (testdata/*.txtar) that runs the README's commands
// literally, in order, in a fresh copy of the repository's tree, and checks
// what each prints. A test reads the commands from the README and fails
// when the README and the script disagree, so neither can drift.
package walkthrough
