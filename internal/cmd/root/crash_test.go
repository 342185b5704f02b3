package root_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/searchbench/searchbench/eval/run"
	"github.com/searchbench/searchbench/eval/vcr"
	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/internal/demo"
	"github.com/searchbench/searchbench/lib/fsutil"
	"github.com/searchbench/searchbench/lib/testenv"
)

// The crash test's cases: two routing cases whose cassettes differ between
// the seed and routing-examples policies, recorded with two samples.
var crashCases = []string{"--filter", "id:m-alphafold-nobel", "--filter", "id:m-carbon-pricing-paris"}

// crashChild is set in a child process: kill this process at the step
// (fsutil.Fault) with this number.
const crashEnv = "SEARCHBENCH_CRASH_AT"

// crashInit makes a child end itself with SIGKILL at its n-th disk step: a
// kill -9 landing exactly between two writes, wherever the test points it.
func crashInit() {
	n, err := strconv.Atoi(os.Getenv(crashEnv))
	if err != nil {
		return
	}
	var steps atomic.Int64
	fsutil.Fault = func(step, name string) error {
		if steps.Add(1) == int64(n) {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
		return nil
	}
}

// TestCrashAndFullDisk kills record and run with SIGKILL at every disk step
// they take, and fails each with a full disk (ENOSPC from a step on), then
// audits what is left: no cassette replays that recorded.json misdescribes,
// no case replays samples of two recordings, no report folder holds files of
// two runs. Step numbers, not timers, place the crashes, so the test does
// not depend on the machine's speed.
func TestCrashAndFullDisk(t *testing.T) {
	testenv.Slow(t)
	base := t.TempDir()
	policies := []string{"seed", "routing-examples"}
	ref := map[string]string{}
	for _, p := range policies {
		ref[p] = filepath.Join(base, "ref-"+p)
		if code, errOut := sbIn(t, nil, "record", "--backend", "sim", "--sim-policy", p, "--samples", "2", "--datasets", "../../../testdata/demo/datasets", "--cassettes", ref[p], crashCases[0], crashCases[1], crashCases[2], crashCases[3]); code != 0 {
			t.Fatalf("reference recording %s: exit %d: %s", p, code, errOut)
		}
	}
	var trials, kills, full, misdescribed, mixedSamples, mixedSets, refused int

	// audit compares every case of the shelf under root with the reference
	// recording its recorded.json entry names.
	audit := func(root string) {
		t.Helper()
		shelf := run.Shelf{Root: root, Variant: "seed", Mode: "model"}
		m, err := shelf.LoadManifest()
		if err != nil {
			t.Fatalf("recorded.json unreadable after a crash: %v", err)
		}
		for key, e := range m.Cases {
			ds, id, _ := strings.Cut(key, "/")
			accepted := true
			common := map[string]int{} // policies whose recording each sample matches
			for k := 1; k <= e.SampleCount(); k++ {
				name := id
				if k > 1 {
					name = fmt.Sprintf("%s.s%d", id, k)
				}
				b, err := os.ReadFile(vcr.Path(root, "seed", "model", ds, name))
				if err != nil || e.Sum(k) != "" && vcr.Sum(b) != e.Sum(k) {
					accepted = false // replay refuses the case (missing, or not described)
					continue
				}
				var from []string
				for _, p := range policies {
					r, _ := os.ReadFile(vcr.Path(ref[p], "seed", "model", ds, name))
					if bytes.Equal(b, r) {
						from = append(from, p)
						common[p]++
					}
				}
				if !slices.Contains(from, e.Policy) {
					misdescribed++
					t.Errorf("%s sample %d: bytes of the %v recording, recorded.json says policy %s", key, k, from, e.Policy)
				}
			}
			if !accepted {
				refused++
				continue
			}
			one := false
			for _, n := range common {
				one = one || n == e.SampleCount()
			}
			if !one {
				mixedSamples++
				t.Errorf("%s replays samples of two recordings: %v", key, common)
			}
		}
	}
	// copyShelf starts a trial from a clean recording of policy p.
	copyShelf := func(p, dst string) {
		t.Helper()
		os.RemoveAll(dst)
		if err := os.CopyFS(dst, os.DirFS(ref[p])); err != nil {
			t.Fatal(err)
		}
	}

	// kill -9 during record, at every step, alternating the policy.
	for n, done := 1, false; !done; n++ {
		for i, p := range policies {
			shelf := filepath.Join(base, fmt.Sprintf("kill-record-%d-%d", n, i))
			copyShelf(p, shelf)
			other := policies[1-i]
			code := child(t, n, "record", "--backend", "sim", "--sim-policy", other, "--samples", "2", "--datasets", "../../../testdata/demo/datasets", "--cassettes", shelf, crashCases[0], crashCases[1], crashCases[2], crashCases[3])
			trials++
			switch code {
			case -1:
				kills++
			case 0:
				done = true // past the last step
			default:
				t.Fatalf("record killed at step %d: exit %d", n, code)
			}
			audit(shelf)
		}
	}
	// A full disk during record, from each step on.
	for n := 1; n <= 12; n++ {
		shelf := filepath.Join(base, fmt.Sprintf("full-record-%d", n))
		p := policies[n%2]
		copyShelf(p, shelf)
		code, _ := sbIn(t, enospcFrom(n), "record", "--backend", "sim", "--sim-policy", policies[1-n%2], "--samples", "2", "--datasets", "../../../testdata/demo/datasets", "--cassettes", shelf, crashCases[0], crashCases[1], crashCases[2], crashCases[3])
		trials++
		if code != 0 {
			full++
		}
		audit(shelf)
		// What a full disk left replays or is refused; never anything else.
		if code, errOut := sbIn(t, nil, "run", "--quiet", "--runs", "", "--out", "", "--datasets", "../../../testdata/demo/datasets", "--cassettes", shelf, "--config", "../../../testdata/demo/config/executor.yaml", crashCases[0], crashCases[1], crashCases[2], crashCases[3]); code != 0 && code != cmdutil.ExitInfra {
			t.Errorf("replay after a full disk at step %d: exit %d: %s", n, code, errOut)
		}
	}

	// kill -9 and a full disk during run: the report folder and the stored
	// run hold one run's set or the previous one's.
	filters := []string{"dataset:consent", "dataset:parser"}
	out, runs := filepath.Join(base, "reports", "latest"), filepath.Join(base, "runs")
	tree := demo.Tree(t)
	runArgs := func(i int) []string {
		return []string{"run", "--quiet", "--out", out, "--runs", runs, "--filter", filters[i%2], "--datasets", filepath.Join(tree, "datasets"), "--cassettes", filepath.Join(tree, "cassettes"), "--prompts", filepath.Join(tree, "prompts"), "--config", filepath.Join(tree, "config", "executor.yaml")}
	}
	checkSets := func(when string) {
		t.Helper()
		for _, dir := range []string{out, filepath.Join(runs, "seed", "model")} {
			if from := setOrigin(t, dir, filters); len(from) > 1 {
				mixedSets++
				t.Errorf("%s: %s mixes runs: %v", when, dir, from)
			}
		}
	}
	if code, errOut := sbIn(t, nil, runArgs(0)...); code != 0 {
		t.Fatalf("first run: exit %d: %s", code, errOut)
	}
	for n, done := 1, false; !done; n++ {
		code := child(t, n, runArgs(n)...)
		trials++
		switch code {
		case -1:
			kills++
		case 0:
			done = true
		default:
			t.Fatalf("run killed at step %d: exit %d", n, code)
		}
		checkSets(fmt.Sprintf("run killed at step %d", n))
	}
	for n := 1; n <= 12; n++ {
		code, _ := sbIn(t, enospcFrom(n), runArgs(n)...)
		trials++
		if code != 0 {
			full++
		}
		checkSets(fmt.Sprintf("run out of disk at step %d", n))
	}
	// The next run sweeps what the killed ones left.
	if code, errOut := sbIn(t, nil, runArgs(0)...); code != 0 {
		t.Fatalf("last run: exit %d: %s", code, errOut)
	}
	if tmp := temporaries(t, base); len(tmp) > 0 {
		var left []string
		for _, p := range tmp {
			if !strings.Contains(p, "kill-record") && !strings.Contains(p, "full-record") {
				left = append(left, p)
			}
		}
		if len(left) > 0 {
			t.Errorf("temporaries left after a clean run: %v", left)
		}
	}
	t.Logf("%d trials (%d kill -9, %d failed by a full disk): %d misdescribed cassettes, %d cases mixing samples, %d mixed report sets; %d cases refused as not described",
		trials, kills, full, misdescribed, mixedSamples, mixedSets, refused)
	if trials < 50 || kills < 20 || full < 10 || refused == 0 {
		t.Errorf("the test exercised too little: %d trials, %d kills, %d full disks, %d refusals", trials, kills, full, refused)
	}
}

// enospcFrom fails every disk step from the n-th on with ENOSPC.
func enospcFrom(n int) func(step, name string) error {
	var steps atomic.Int64
	return func(step, name string) error {
		if steps.Add(1) >= int64(n) {
			return syscall.ENOSPC
		}
		return nil
	}
}

// sbIn runs searchbench in this process, with fault as fsutil.Fault.
func sbIn(t *testing.T, fault func(step, name string) error, args ...string) (int, string) {
	t.Helper()
	fsutil.Fault = fault
	defer func() { fsutil.Fault = nil }()
	io, _, errOut := cmdutil.Test("")
	return root.Main(context.Background(), args, io), errOut.String()
}

// child runs searchbench in a child process killed at its n-th disk step;
// it returns the exit code, -1 for a kill.
func child(t *testing.T, n int, args ...string) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SEARCHBENCH_SIGNAL_CHILD="+strings.Join(args, "\x1f"), crashEnv+"="+strconv.Itoa(n))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return -1
		}
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// setOrigin says which of the runs (by filter) the files of a report
// folder come from; more than one is a mixed set.
func setOrigin(t *testing.T, dir string, filters []string) []string {
	t.Helper()
	from := map[string]bool{}
	for _, name := range []string{"report.json", "report.md", "junit.xml", "report.html"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range filters {
			ds := strings.TrimPrefix(f, "dataset:")
			if bytes.Contains(b, []byte(f)) || bytes.Contains(b, []byte(`"dataset":"`+ds+`"`)) || bytes.Contains(b, []byte(`"dataset": "`+ds+`"`)) || bytes.Contains(b, []byte(`<testsuite name="`+ds+`"`)) {
				from[f] = true
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s/%s names %d of the runs' filters; the audit cannot tell its run", dir, name, n)
		}
	}
	var out []string
	for _, f := range filters {
		if from[f] {
			out = append(out, f)
		}
	}
	return out
}
