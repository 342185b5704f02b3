// Command calibgen writes the correctness grader's calibration set from the
// human judgments Kamalloo et al. released with "Evaluating Open-Domain
// Question Answering in the Era of Large Language Models" (ACL 2023):
// github.com/ehsk/OpenQA-eval, MIT licence. Its data/NQ301_human.tsv holds,
// for 301 questions of Natural Questions-open (Lee et al., ACL 2019;
// Natural Questions is CC BY-SA 3.0), the answers of twelve open-domain QA
// models judged acceptable or not by people; data/model_outputs/*.jsonl
// hold each question's gold answers.
//
// Each output line is one (question, gold answers, model answer, human
// label), in the JSONL form `searchbench grade --file` reads:
//
//	{"id":"nq301-024-02","question":"…","gold":["Bobby Scott","Bob Russell"],"answer":"bob russell","human":"correct"}
//
// The set is split ONCE, by question, into a tuning part and a held-out
// part: a question goes to the held-out part when the first byte of
// sha256("searchbench calibration split\x00" + question) is odd, so both
// parts are fixed by the questions alone and the split never moves. The
// grader's rules are tuned on the tuning part only; the held-out part is
// measured, never tuned on.
//
// Run it from the module root on a checkout of OpenQA-eval (commit
// 8b9317d was used):
//
//	go run ./eval/grade/calibgen -src PATH/TO/OpenQA-eval -out datasets/calibration
//
// The output depends on nothing but the sources: a rerun rewrites the same
// bytes.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/text/encoding/charmap"
)

// Item is one line of the calibration set.
type Item struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Gold     []string `json:"gold"`
	Answer   string   `json:"answer"`
	// Human is the annotators' verdict on the answer: "correct" (the
	// column "Acceptable?" says Yes) or "incorrect" (No).
	Human string `json:"human"`
}

const splitSalt = "searchbench calibration split\x00"

// HeldOut reports whether question belongs to the held-out part.
func HeldOut(question string) bool {
	s := sha256.Sum256([]byte(splitSalt + question))
	return s[0]%2 == 1
}

func main() {
	src := flag.String("src", "", "a checkout of github.com/ehsk/OpenQA-eval")
	out := flag.String("out", "datasets/calibration", "the folder to write nq301-tuning.jsonl and nq301-heldout.jsonl to")
	flag.Parse()
	if *src == "" {
		fmt.Fprintln(os.Stderr, "calibgen: -src is required (a checkout of github.com/ehsk/OpenQA-eval)")
		os.Exit(2)
	}
	if err := run(*src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "calibgen:", err)
		os.Exit(1)
	}
}

func run(src, out string) error {
	gold, err := readGold(filepath.Join(src, "data", "model_outputs"))
	if err != nil {
		return err
	}
	items, dropped, err := readHuman(filepath.Join(src, "data", "NQ301_human.tsv"), gold)
	if err != nil {
		return err
	}
	var tuning, heldout []Item
	for _, it := range items {
		if HeldOut(it.Question) {
			heldout = append(heldout, it)
		} else {
			tuning = append(tuning, it)
		}
	}
	for name, part := range map[string][]Item{"nq301-tuning.jsonl": tuning, "nq301-heldout.jsonl": heldout} {
		if err := write(filepath.Join(out, name), part); err != nil {
			return err
		}
	}
	fmt.Printf("calibgen: %d judged answers (%d tuning, %d held-out); %d dropped: %s\n",
		len(items), len(tuning), len(heldout), len(dropped), strings.Join(dropped, "; "))
	return nil
}

// readGold reads every question's gold answers from the model output
// files: the union of the lists they give (some files carry an extra
// spelling), in first-seen order, mis-decoded UTF-8 repaired.
func readGold(dir string) (map[string][]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no *.jsonl in %s", dir)
	}
	sort.Strings(paths)
	gold := map[string][]string{}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		line := 0
		for sc.Scan() {
			line++
			var rec struct {
				Question string   `json:"question"`
				Answer   []string `json:"answer"`
			}
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				f.Close()
				return nil, fmt.Errorf("%s:%d: %v", p, line, err)
			}
			for _, a := range rec.Answer {
				a = strings.Join(strings.Fields(repair(a)), " ")
				if a != "" && !slices.Contains(gold[rec.Question], a) {
					gold[rec.Question] = append(gold[rec.Question], a)
				}
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
	}
	return gold, nil
}

// repair undoes UTF-8 read as Windows-1252 ("FernÃ¡ndez" is "Fernández"),
// which some gold answers of NQ-open carry; other text is left alone.
func repair(s string) string {
	if !strings.ContainsAny(s, "ÃÂâ") {
		return s
	}
	b, err := charmap.Windows1252.NewEncoder().Bytes([]byte(s))
	if err != nil || !isUTF8(b) {
		return s
	}
	return string(b)
}

func isUTF8(b []byte) bool {
	return bytes.Equal([]byte(string([]rune(string(b)))), b) && !bytes.ContainsRune(b, '\uFFFD')
}

// readHuman reads the judged answers: one item per distinct (question,
// answer); an answer judged twice with different verdicts is dropped, and
// so is one whose question has no gold answer.
func readHuman(path string, gold map[string][]string) ([]Item, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	// The file is plain tab-separated lines: answers hold quotes that a
	// CSV reader would take for quoting.
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	if !sc.Scan() {
		return nil, nil, fmt.Errorf("%s: empty", path)
	}
	head := strings.Split(strings.TrimRight(sc.Text(), "\r"), "\t")
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	for _, want := range []string{"id", "Question", "Model answer", "Acceptable?"} {
		if _, ok := col[want]; !ok {
			return nil, nil, fmt.Errorf("%s: no column %q (columns: %s)", path, want, strings.Join(head, ", "))
		}
	}
	type key struct{ q, a string }
	var items []Item
	index := map[key]int{}
	conflict := map[key]bool{}
	perQuestion := map[string]int{}
	var dropped []string
	line := 1
	for sc.Scan() {
		line++
		rec := strings.Split(strings.TrimRight(sc.Text(), "\r"), "\t")
		get := func(c string) string {
			if i := col[c]; i < len(rec) {
				return rec[i]
			}
			return ""
		}
		q, a, verdict := get("Question"), strings.TrimSpace(get("Model answer")), strings.TrimSpace(get("Acceptable?"))
		var human string
		switch strings.ToLower(verdict) {
		case "yes":
			human = "correct"
		case "no":
			human = "incorrect"
		default:
			dropped = append(dropped, fmt.Sprintf("line %d: no verdict", line))
			continue
		}
		if len(gold[q]) == 0 {
			dropped = append(dropped, fmt.Sprintf("line %d: no gold answers for %q", line, q))
			continue
		}
		k := key{q, a}
		if i, dup := index[k]; dup {
			if items[i].Human != human {
				conflict[k] = true
			}
			continue
		}
		perQuestion[q]++
		index[k] = len(items)
		items = append(items, Item{
			ID:       fmt.Sprintf("nq301-%03s-%02d", get("id"), perQuestion[q]),
			Question: q, Gold: gold[q], Answer: a, Human: human,
		})
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	var kept []Item
	for _, it := range items {
		if conflict[key{it.Question, it.Answer}] {
			dropped = append(dropped, fmt.Sprintf("%s: judged both correct and incorrect", it.ID))
			continue
		}
		kept = append(kept, it)
	}
	return kept, dropped, nil
}

func write(path string, items []Item) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, it := range items {
		if err := enc.Encode(it); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
