// Command searchbench evaluates and regression-tests a two-phase web-search
// assistant. See README.md.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), root.Signals...)
	code := root.Main(ctx, os.Args[1:], cmdutil.System())
	stop()
	os.Exit(code)
}
