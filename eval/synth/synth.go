// Package synth generates synthetic datasets of any size, with their
// cassettes, for measuring how the harness scales (`make bench`).
//
// In the pipeline it stands where a team's own datasets and recordings
// would: Generate writes dataset files like the shipped ones (routing
// queries built from templates over the fixture corpus's subjects, consent
// flows, override flows, flows that replay the simulated model's scripted
// failures, and a few consent and parser cases), then records every case's
// cassette from the simulator through the real recorder (eval/run.Record).
// A replay of the result runs exactly the code paths of the shipped data.
//
// Generation is deterministic: the same size and seed give byte-identical
// files. Sets are large, so they are written outside the repository, and
// Cached keeps one per (size, seed, inputs) for later runs.
package synth

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/searchbench/searchbench/eval/dataset"
	evalrun "github.com/searchbench/searchbench/eval/run"
	"github.com/searchbench/searchbench/lib/fsutil"
	"github.com/searchbench/searchbench/orchestrator/prompts"
	"github.com/searchbench/searchbench/sim/scenario"
)

// Variant is the prompt variant synthetic cassettes are recorded for.
const Variant = prompts.Default

// Folders of a generated set, under its directory.
const (
	DatasetsDir  = "datasets"
	CassettesDir = "cassettes"
)

// version changes whenever the generator's output would, so Cached does not
// reuse sets made by an older generator.
const version = "3"

// Shares of each kind, in percent; parser cases take the rest. Routing and
// flows cases carry the traffic, as in a team's real datasets.
const (
	routingShare = 60
	flowsShare   = 30
	consentShare = 7
)

// Generate writes a synthetic set of n cases (n >= 1) into dir:
// dir/datasets/{routing,flows,consent,parser}.yaml, and the cassettes of
// every routing and flows case under dir/cassettes/<Variant>/, recorded
// from the simulator. The same n and seed always give the same bytes.
func Generate(dir string, n int, seed int64) error {
	return GenerateContext(context.Background(), dir, n, seed)
}

// GenerateContext is Generate with a context that can stop the recording.
func GenerateContext(ctx context.Context, dir string, n int, seed int64) error {
	if n < 1 {
		return fmt.Errorf("synth: %d cases: want at least 1", n)
	}
	files, err := datasets(n, seed)
	if err != nil {
		return err
	}
	dsDir := filepath.Join(dir, DatasetsDir)
	if err := os.MkdirAll(dsDir, 0o755); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	for _, name := range sortedKeys(files) {
		if err := fsutil.WriteFileAtomic(filepath.Join(dsDir, name+".yaml"), files[name], 0o644); err != nil {
			return fmt.Errorf("synth: %w", err)
		}
	}
	sets, err := dataset.LoadDir(dsDir)
	if err != nil {
		return fmt.Errorf("synth: generated datasets do not load: %w", err)
	}
	items := evalrun.Plan(sets, dataset.Filter{}, dataset.Shard{K: 1, N: 1})
	err = evalrun.Record(ctx, items, evalrun.RecordOptions{
		Variant:   prompts.Builtin(),
		Cassettes: filepath.Join(dir, CassettesDir),
		Backend:   evalrun.BackendSim,
		// The simulator runs in process: recording is CPU-bound.
		Parallel: 2 * runtime.GOMAXPROCS(0),
	})
	if err != nil {
		return fmt.Errorf("synth: recording %d cases into %s: %w", n, dir, err)
	}
	return nil
}

// datasets builds the dataset files of a set of n cases, by file name.
func datasets(n int, seed int64) (map[string][]byte, error) {
	r := rand.New(rand.NewPCG(uint64(seed), 0x5eedc0de))
	scripts, err := scenario.Scripts(Variant)
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	nRouting := n * routingShare / 100
	nFlows := n * flowsShare / 100
	nConsent := n * consentShare / 100
	nParser := n - nRouting - nFlows - nConsent

	routing := file{Kind: dataset.KindRouting, Description: "Synthetic routing queries over the fixture corpus."}
	for i := range nRouting {
		q := routingQuery(r)
		routing.Cases = append(routing.Cases, routingCase{ID: fmt.Sprintf("r%06d", i), Query: q.text, Label: q.label, Answer: q.gold, Tags: []string{"synthetic"}})
	}
	flows := file{Kind: dataset.KindFlows, Description: "Synthetic consent, override and scripted-failure flows."}
	for i := range nFlows {
		flows.Cases = append(flows.Cases, flow(r, fmt.Sprintf("f%06d", i), scripts.Scripts))
	}
	consent := file{Kind: dataset.KindConsent, Description: "Synthetic consent replies."}
	for i := range nConsent {
		c := consentReplies[r.IntN(len(consentReplies))]
		consent.Cases = append(consent.Cases, consentCase{ID: fmt.Sprintf("c%06d", i), Reply: c.reply, Label: c.label, Tags: []string{"synthetic"}})
	}
	parsers := file{Kind: dataset.KindParser, Description: "Synthetic ReAct outputs."}
	for i := range nParser {
		parsers.Cases = append(parsers.Cases, parser(r, fmt.Sprintf("p%06d", i)))
	}
	out := map[string][]byte{}
	for name, f := range map[string]file{"routing": routing, "flows": flows, "consent": consent, "parser": parsers} {
		if len(f.Cases) == 0 {
			continue // the loader refuses a file without cases
		}
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2) // as the shipped files are written
		if err := enc.Encode(f); err != nil {
			return nil, fmt.Errorf("synth: %s dataset: %w", name, err)
		}
		if err := enc.Close(); err != nil {
			return nil, fmt.Errorf("synth: %s dataset: %w", name, err)
		}
		out[name] = b.Bytes()
	}
	return out, nil
}

// Key identifies what a generated set depends on besides its size and
// seed: the generator's version, the prompts of Variant, the fixture corpus
// and the simulator's scripts. A change to any of them changes the
// cassettes, so Cached keys its folders by it. (The simulator's and the
// orchestrator's code are not in it: after changing them, remove the cache
// folder, or let the caller regenerate on a replay error.)
func Key() (string, error) {
	p := prompts.Builtin().Hash
	docs, err := scenario.Corpus()
	if err != nil {
		return "", err
	}
	sc, err := scenario.Scripts(Variant)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	enc := json.NewEncoder(h)
	for _, v := range []any{version, p, docs, sc.Scripts} {
		if err := enc.Encode(v); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// Cached returns the folder of the set (n, seed) under root, generating it
// first when root has none for the current Key. A set is generated into a
// temporary folder and renamed into place when complete, so an interrupted
// generation is never used.
func Cached(ctx context.Context, root string, n int, seed int64) (string, error) {
	key, err := Key()
	if err != nil {
		return "", fmt.Errorf("synth: %w", err)
	}
	dir := filepath.Join(root, fmt.Sprintf("n%d-seed%d-%s", n, seed, key))
	if _, err := os.Stat(dir); err == nil {
		return dir, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("synth: %w", err)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("synth: %w", err)
	}
	tmp, err := os.MkdirTemp(root, ".tmp-")
	if err != nil {
		return "", fmt.Errorf("synth: %w", err)
	}
	defer os.RemoveAll(tmp) // a no-op after the rename
	if err := GenerateContext(ctx, tmp, n, seed); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(dir); serr == nil {
			return dir, nil // another process finished the same set first
		}
		return "", fmt.Errorf("synth: %w", err)
	}
	return dir, nil
}

// DefaultRoot is where Cached keeps sets unless told otherwise:
// $SEARCHBENCH_SYNTH_CACHE, else searchbench-synth under the temporary
// directory.
func DefaultRoot(getenv func(string) string) string {
	if d := getenv("SEARCHBENCH_SYNTH_CACHE"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "searchbench-synth")
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
