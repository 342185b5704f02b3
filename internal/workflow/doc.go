// Package workflow holds the test that lints the repository's GitHub
// Actions workflows (.github/workflows) with actionlint, so a broken CI
// definition fails make test before it reaches GitHub.
package workflow
