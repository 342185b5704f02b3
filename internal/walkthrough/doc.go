// Package walkthrough walks the docs' workflows as a new user would: each
// is a testscript (testdata/*.txtar) that runs the ```sh blocks of one
// section of README.md or a docs/ page literally, in order, in a fresh copy
// of the repository's tree, and checks what each prints. Tests read the
// commands from the pages and fail when a page and its script disagree, and
// when a page has a ```sh block no script walks and no visible marker
// exempts, so neither can drift.
package walkthrough
