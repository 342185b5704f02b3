package run

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/searchbench/searchbench/eval/report"
)

// HeapProfileEnv names a file that receives a heap profile of a run taken
// when its last case has been written, before any report writer ends: what
// the replay and the writers hold at the end of a run, the state that
// would grow with the number of cases (go tool pprof -sample_index=inuse_space;
// -base another run's profile shows what grew). docs/performance.md.
const HeapProfileEnv = "SEARCHBENCH_HEAPPROFILE"

// heapProfile is a report writer that writes the profile at End.
type heapProfile string

func (heapProfile) Begin(report.Meta) error       { return nil }
func (heapProfile) Case(*report.CaseRecord) error { return nil }

func (p heapProfile) End(report.Summary) error {
	// Two cycles: a profile reports the heap as of the last completed one.
	runtime.GC()
	runtime.GC()
	f, err := os.Create(string(p))
	if err != nil {
		return fmt.Errorf("%s: %w", HeapProfileEnv, err)
	}
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", HeapProfileEnv, err)
	}
	return f.Close()
}
