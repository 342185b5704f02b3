// Command docgen regenerates the figures and sample outputs of the docs
// (README.md and docs/*.md) from the commands that produce them, so they
// cannot drift from what searchbench prints.
//
// A generated region is marked in the page with the command that makes it:
//
//	<!-- generated: searchbench power --effect 5pp --discordant 10% -->
//	```text
//	…what the command prints…
//	```
//	<!-- end -->
//
// or, inside a line of prose, <!-- generated: CMD -->text<!-- end -->. Each
// command runs with sh in a fresh copy of the repository's tree (the files
// git tracks plus untracked ones it does not ignore), with a searchbench
// built from the tree first on PATH, no terminal and no colour; standard
// output and error are kept together, and the copy's own path is cut out.
// A command that exits non-zero is an error: one that is meant to fail says
// so in the command (`; echo "exit $?"`).
//
// Usage, from the repository's root (make docs):
//
//	go run ./internal/docgen          rewrite every drifted region
//	go run ./internal/docgen -check   list the drifted regions, exit 1 if any
//	go run ./internal/docgen PAGE…    only these pages (docs/gate.md)
//
// TestDocsAreGenerated, run by go test ./..., fails on a drifted region,
// naming the page, the line and the command and showing the diff.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/aymanbagabas/go-udiff"
)

func main() {
	root := flag.String("root", ".", "the repository's root")
	check := flag.Bool("check", false, "report drifted regions and exit 1 if any; rewrite nothing")
	flag.Parse()
	only := flag.Args() // pages to regenerate, relative to root; none: every page
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *root, *check, only); err != nil {
		fmt.Fprintln(os.Stderr, "docgen:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, root string, check bool, only []string) error {
	pages, err := Pages(root)
	if err != nil {
		return err
	}
	if len(only) > 0 {
		pages = only
	}
	r, err := NewRunner(ctx, root)
	if err != nil {
		return err
	}
	defer r.Close()
	changed, drifts, err := Generate(ctx, r, pages, func(f string, a ...any) {
		fmt.Fprintf(os.Stderr, "docgen: "+f+"\n", a...)
	})
	if err != nil {
		return err
	}
	for _, d := range drifts {
		fmt.Printf("%s:%d: %s\n", d.Page, d.Region.Line, d.Region.Cmd)
		if check {
			fmt.Print(udiff.Unified("page", "command", d.Region.Body, d.Want))
		}
	}
	if check {
		if len(drifts) > 0 {
			return fmt.Errorf("%d region(s) drifted; run make docs", len(drifts))
		}
		return nil
	}
	for p, text := range changed {
		path := filepath.Join(root, p)
		st, err := os.Stat(path)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(text), st.Mode().Perm()); err != nil {
			return err
		}
	}
	fmt.Printf("docgen: %d region(s) rewritten in %d page(s)\n", len(drifts), len(changed))
	return nil
}
