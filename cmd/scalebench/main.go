// Command scalebench measures how the harness scales: `make bench` runs it
// from the repository root. It writes nothing into the repository:
// synthetic sets are cached under the temporary directory (eval/synth) and
// the binary and reports it runs go to a temporary folder.
//
// It prints, from one run:
//   - the Go benchmarks of replay+score and of the cassette-decode floor on
//     one synthetic set, and their ratio measured alternately;
//   - wall time and peak resident memory of whole `searchbench run`
//     processes over synthetic sets of each size, and over the shipped
//     datasets (what `make run` replays);
//   - a Markdown table of all of it, with the machine it ran on.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/searchbench/searchbench/eval/synth"
	"github.com/searchbench/searchbench/eval/vcr"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "scalebench:", err)
		os.Exit(1)
	}
}

type options struct {
	sizes     []int // cases per whole-process run
	benchN    int   // cases of the Go benchmarks' set
	seed      int64
	repeat    int // whole-process runs per size; the median is reported
	benchtime time.Duration
	cache     string
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("scalebench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &options{}
	sizes := fs.String("sizes", "1000,10000", "comma-separated case counts of the whole-process runs")
	fs.IntVar(&o.benchN, "bench-n", 1000, "cases of the set the Go benchmarks replay")
	fs.Int64Var(&o.seed, "seed", 1, "seed of the synthetic sets")
	fs.IntVar(&o.repeat, "repeat", 3, "whole-process runs per size (the median is reported)")
	fs.DurationVar(&o.benchtime, "benchtime", 5*time.Second, "minimum time of each Go benchmark")
	fs.StringVar(&o.cache, "cache", synth.DefaultRoot(os.Getenv), "folder of cached synthetic sets")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-sizes: %q is not a positive case count", s)
		}
		o.sizes = append(o.sizes, n)
	}
	if o.benchN < 1 || o.repeat < 1 {
		return nil, errors.New("-bench-n and -repeat must be positive")
	}
	return o, nil
}

// row is one line of the final table.
type row struct{ what, value string }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "scalebench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	bin := filepath.Join(tmp, "searchbench")
	start := time.Now()
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/searchbench").CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/searchbench: %w\n%s", err, out)
	}
	build := time.Since(start)

	// Sets first: generating them is slow the first time only. Each is
	// replayed once before it is measured: a warm-up, and a check that the
	// cached cassettes still match the code (they are regenerated if not).
	dirs := map[int]string{}
	runArgs := func(n int) []string {
		d := dirs[n]
		return []string{"run", "--quiet", "--datasets", filepath.Join(d, synth.DatasetsDir),
			"--cassettes", filepath.Join(d, synth.CassettesDir), "--out", filepath.Join(tmp, fmt.Sprintf("out-%d", n))}
	}
	for _, n := range append([]int{o.benchN}, o.sizes...) {
		if dirs[n] != "" {
			continue
		}
		for attempt := 0; ; attempt++ {
			fmt.Fprintf(stderr, "synthetic set of %d cases (generated once, then cached under %s)...\n", n, o.cache)
			start := time.Now()
			d, err := synth.Cached(ctx, o.cache, n, o.seed)
			if err != nil {
				return err
			}
			fmt.Fprintf(stderr, "  %s (%s)\n", d, time.Since(start).Round(time.Millisecond))
			dirs[n] = d
			_, err = measure(ctx, 1, bin, runArgs(n)...)
			if err == nil {
				break
			}
			if attempt > 0 {
				return fmt.Errorf("a fresh set of %d cases does not replay: %w", n, err)
			}
			fmt.Fprintf(stderr, "  the cached set does not replay with this code; generating it again\n")
			if err := os.RemoveAll(d); err != nil {
				return err
			}
		}
	}

	var rows []row
	// Go benchmarks, on one goroutine, so the numbers are CPU work per case.
	set, err := synth.Load(dirs[o.benchN])
	if err != nil {
		return err
	}
	setBenchtime(o.benchtime)
	fmt.Fprintf(stdout, "Go benchmarks: %d cases (%d cassettes), one goroutine\n", len(set.Items), len(set.Cassettes))
	replay := testing.Benchmark(func(b *testing.B) { synth.BenchReplayScore(b, set) })
	printBench(stdout, "BenchmarkReplayScore", replay)
	floor := testing.Benchmark(func(b *testing.B) { synth.BenchDecodeFloor(b, set) })
	printBench(stdout, "BenchmarkDecodeFloor", floor)
	ratio := testing.Benchmark(func(b *testing.B) { synth.BenchRatio(b, set, vcr.NewCache(filepath.Join(tmp, "cache"), nil)) })
	printBench(stdout, "BenchmarkRatio", ratio)
	if replay.N == 0 || floor.N == 0 || ratio.N == 0 {
		return errors.New("a Go benchmark failed (see above)")
	}
	r := ratio.Extra["replay/floor"]
	fmt.Fprintf(stdout, "replay+score / floor = %.2f× (alternating runs); %.2f× (separate benchmarks)\n\n",
		r, replay.Extra["ns/case"]/floor.Extra["ns/case"])
	rows = append(rows,
		row{fmt.Sprintf("replay + score, Go benchmark (%s cases, 1 goroutine)", thousands(len(set.Items))),
			fmt.Sprintf("%s/case, %.0f allocs/case", micros(replay.Extra["ns/case"]), replay.Extra["allocs/case"])},
		row{"decode floor: `cassette.Load` of the same cassettes, nothing else",
			fmt.Sprintf("%s/case, %.0f allocs/case", micros(floor.Extra["ns/case"]), floor.Extra["allocs/case"])},
		row{"replay + score / floor (alternating runs)", fmt.Sprintf("**%.2f×**", r)},
	)

	// Whole processes.
	fmt.Fprintf(stdout, "Whole processes (searchbench run, default --parallel = %d), median of %d\n", runtime.GOMAXPROCS(0), o.repeat)
	for _, n := range o.sizes {
		m, err := measure(ctx, o.repeat, bin, runArgs(n)...)
		if err != nil {
			return fmt.Errorf("%d cases: %w", n, err)
		}
		fmt.Fprintf(stdout, "  %6d cases: %s wall, %s peak RSS\n", n, m.wall.Round(time.Millisecond), mib(m.rss))
		rows = append(rows, row{fmt.Sprintf("`searchbench run`, %s synthetic cases", thousands(n)),
			fmt.Sprintf("%.2f s wall, %s peak RSS", m.wall.Seconds(), mib(m.rss))})
	}
	m, err := measure(ctx, o.repeat, bin, "run", "--out", filepath.Join(tmp, "out-shipped"))
	if err != nil {
		return fmt.Errorf("shipped datasets: %w", err)
	}
	fmt.Fprintf(stdout, "  shipped datasets (make run): %s wall, %s peak RSS; go build (cached) %s\n\n",
		m.wall.Round(time.Millisecond), mib(m.rss), build.Round(time.Millisecond))
	rows = append(rows, row{"`make run`: the shipped datasets, tables printed",
		fmt.Sprintf("%.2f s wall (+ %.2f s cached `go build`), %s peak RSS", m.wall.Seconds(), build.Seconds(), mib(m.rss))})

	fmt.Fprintln(stdout, "| measure | result |")
	fmt.Fprintln(stdout, "|---|---|")
	for _, r := range rows {
		fmt.Fprintf(stdout, "| %s | %s |\n", r.what, r.value)
	}
	fmt.Fprintf(stdout, "\nMachine: %s\n", machine())
	return nil
}

// result is one whole-process measurement.
type result struct {
	wall time.Duration
	rss  int64 // bytes
}

// measure runs bin with args repeat times and returns the median wall time
// and the median peak resident set size. The run must succeed: a case that
// could not run makes the numbers meaningless.
//
// Peak RSS comes from GNU time (/usr/bin/time -f %M) when it is installed.
// The child's own rusage is the fallback: Go starts children with vfork, so
// a child's ru_maxrss can include this (much larger) process's pages.
func measure(ctx context.Context, repeat int, bin string, args ...string) (result, error) {
	var walls []time.Duration
	var rsss []int64
	timeBin, _ := exec.LookPath("/usr/bin/time")
	rssFile := filepath.Join(filepath.Dir(bin), "maxrss")
	for range repeat {
		name, argv := bin, args
		if timeBin != "" {
			name, argv = timeBin, append([]string{"-f", "%M", "-o", rssFile, bin}, args...)
		}
		cmd := exec.CommandContext(ctx, name, argv...)
		var stderr strings.Builder
		cmd.Stdout = io.Discard
		cmd.Stderr = &stderr
		start := time.Now()
		err := cmd.Run()
		wall := time.Since(start)
		if err != nil {
			return result{}, fmt.Errorf("%s %s: %w\n%s", filepath.Base(bin), strings.Join(args, " "), err, stderr.String())
		}
		walls = append(walls, wall)
		kb := int64(-1)
		if timeBin != "" {
			if b, err := os.ReadFile(rssFile); err == nil {
				kb, _ = strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
			}
		} else if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			kb = ru.Maxrss // kilobytes on Linux
		}
		if kb > 0 {
			rsss = append(rsss, kb*1024)
		}
	}
	slices.Sort(walls)
	slices.Sort(rsss)
	r := result{wall: walls[len(walls)/2]}
	if len(rsss) > 0 {
		r.rss = rsss[len(rsss)/2]
	}
	return r, nil
}

// setBenchtime sets the minimum duration of testing.Benchmark, which reads
// the -test.benchtime flag.
func setBenchtime(d time.Duration) {
	testing.Init()
	_ = flag.Set("test.benchtime", d.String())
}

func printBench(w io.Writer, name string, r testing.BenchmarkResult) {
	fmt.Fprintf(w, "%s-%d\t%s\t%s\n", name, runtime.GOMAXPROCS(0), r.String(), r.MemString())
}

func micros(ns float64) string { return fmt.Sprintf("%.0f µs", ns/1e3) }

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// machine describes the computer: CPU model, cores, memory, OS and Go.
func machine() string {
	cpu := "unknown CPU"
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
					mem = fmt.Sprintf(", %.0f GiB", float64(kb)/(1<<20))
				}
			}
		}
	}
	return fmt.Sprintf("%s, %d cores%s, %s/%s, %s", cpu, runtime.NumCPU(), mem, runtime.GOOS, runtime.GOARCH, runtime.Version())
}
