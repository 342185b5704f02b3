// Command calibgen writes the correctness grader's calibration set from the
// human judgments Kamalloo et al. released with "Evaluating Open-Domain
// Question Answering in the Era of Large Language Models" (ACL 2023):
// github.com/ehsk/OpenQA-eval, MIT licence. Its data/NQ301_human.tsv holds,
// for 301 questions of Natural Questions-open (Lee et al., ACL 2019;
// Natural Questions is CC BY-SA 3.0), the answers of twelve open-domain QA
// models judged acceptable or not by people; data/model_outputs/*.jsonl
// hold each question's gold answers.
//
// Each output line is one model's answer to one question, with the
// question's gold answers and the human label, in the JSONL form
// `searchbench grade --file` reads:
//
//	{"id":"nq301-024-fid","question":"…","gold":["Bobby Scott","Bob Russell"],"answer":"Bob Russell","human":"correct","model":"FiD","label_from":"annotators"}
//
// As in the paper's evaluation (its AnnotatedEM), every model's answer to
// every question is an item: the label is the annotators' verdict on that
// answer (found by its exact text, else by its SQuAD-normalised text among
// the question's judged answers); an answer no annotator judged that
// exactly matches a gold answer (SQuAD normalisation) is correct, as the
// paper counts it ("label_from": "exact_match"); any other answer has no
// label and is left out. The answer of a model that gave a list is its
// first element, as the paper's code reads it.
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
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/text/encoding/charmap"
)

// Item is one line of the calibration set.
type Item struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Gold     []string `json:"gold"`
	Answer   string   `json:"answer"`
	// Human is the label: "correct" or "incorrect".
	Human string `json:"human"`
	// Model is the QA model that gave the answer (the output file's name).
	Model string `json:"model"`
	// LabelFrom says where the label comes from: "annotators" (the
	// column "Acceptable?" of NQ301_human.tsv) or "exact_match" (an
	// answer no annotator judged that exactly matches a gold answer,
	// which the paper counts correct).
	LabelFrom string `json:"label_from"`
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
	outputs, err := readOutputs(filepath.Join(src, "data", "model_outputs"))
	if err != nil {
		return err
	}
	judged, qids, err := readHuman(filepath.Join(src, "data", "NQ301_human.tsv"))
	if err != nil {
		return err
	}
	gold := map[string][]string{}
	for _, o := range outputs {
		for _, a := range o.gold {
			if !slices.Contains(gold[o.question], a) {
				gold[o.question] = append(gold[o.question], a)
			}
		}
	}
	var tuning, heldout []Item
	counts := map[string]int{}
	for _, o := range outputs {
		j, ok := judged[o.question]
		if !ok {
			continue // not one of the 301 annotated questions
		}
		it := Item{ID: fmt.Sprintf("nq301-%03d-%s", qids[o.question], strings.ToLower(o.model)),
			Question: o.question, Gold: gold[o.question], Answer: o.answer, Model: o.model}
		switch v, how := j.verdict(o.answer); {
		case how != "":
			it.Human, it.LabelFrom = v, "annotators"
			counts[how]++
		case exactMatch(o.answer, gold[o.question]):
			it.Human, it.LabelFrom = "correct", "exact_match"
			counts["exact match"]++
		default:
			counts["no label (left out)"]++
			continue
		}
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
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, counts[k]))
	}
	fmt.Printf("calibgen: %d items (%d tuning, %d held-out); labels: %s\n",
		len(tuning)+len(heldout), len(tuning), len(heldout), strings.Join(parts, ", "))
	return nil
}

// output is one model's answer to one question.
type output struct {
	model, question, answer string
	gold                    []string
}

// readOutputs reads every model's answers, file by file (sorted), with
// each question's gold answers, mis-decoded UTF-8 repaired.
func readOutputs(dir string) ([]output, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no *.jsonl in %s", dir)
	}
	sort.Strings(paths)
	var out []output
	for _, p := range paths {
		model := modelName(p)
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
				Question   string          `json:"question"`
				Answer     []string        `json:"answer"`
				Prediction json.RawMessage `json:"prediction"`
			}
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				f.Close()
				return nil, fmt.Errorf("%s:%d: %v", p, line, err)
			}
			pred, err := prediction(rec.Prediction)
			if err != nil {
				f.Close()
				return nil, fmt.Errorf("%s:%d: prediction: %v", p, line, err)
			}
			o := output{model: model, question: rec.Question, answer: pred}
			for _, a := range rec.Answer {
				if a = strings.Join(strings.Fields(repair(a)), " "); a != "" && !slices.Contains(o.gold, a) {
					o.gold = append(o.gold, a)
				}
			}
			out = append(out, o)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
	}
	return out, nil
}

// modelName names a model output file's model: "NQ_FiD-KD.jsonl" is
// FiD-KD, "NQ301_text-davinci-003_zeroshot.jsonl" InstructGPT-zeroshot.
func modelName(path string) string {
	n := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	n = strings.TrimPrefix(strings.TrimPrefix(n, "NQ301_"), "NQ_")
	n = strings.Replace(n, "text-davinci-003_", "InstructGPT-", 1)
	return strings.TrimSuffix(n, "-n64")
}

// prediction is a model's answer: a string, or the first of a list (as
// the paper's read_predict_file takes it), trimmed.
func prediction(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s), nil
	}
	var l []string
	if err := json.Unmarshal(raw, &l); err != nil {
		return "", err
	}
	if len(l) == 0 {
		return "", fmt.Errorf("an empty list")
	}
	return strings.TrimSpace(l[0]), nil
}

// squadNormalize is the SQuAD evaluation script's normalize_answer: lower
// case, ASCII punctuation removed, the articles a, an and the removed,
// whitespace collapsed.
func squadNormalize(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if r < 128 && strings.ContainsRune("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", r) {
			return -1
		}
		return r
	}, s)
	var kept []string
	for _, w := range strings.Fields(articleRE.ReplaceAllString(s, " ")) {
		kept = append(kept, w)
	}
	return strings.Join(kept, " ")
}

var articleRE = regexp.MustCompile(`\b(a|an|the)\b`)

func exactMatch(answer string, gold []string) bool {
	a := squadNormalize(answer)
	for _, g := range gold {
		if squadNormalize(g) == a {
			return true
		}
	}
	return false
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

// judgments are the annotators' verdicts on one question's answers, by
// exact text and by SQuAD-normalised text.
type judgments struct {
	exact, normalized map[string]string // "" under normalized: conflicting verdicts
}

// verdict is the label of answer and how it was found ("" when no
// annotator judged it).
func (j judgments) verdict(answer string) (label, how string) {
	if v, ok := j.exact[answer]; ok {
		return v, "annotators (exact text)"
	}
	if v := j.normalized[squadNormalize(answer)]; v != "" {
		return v, "annotators (normalised text)"
	}
	return "", ""
}

// readHuman reads the judged answers of NQ301_human.tsv by question, and
// each question's id there.
func readHuman(path string) (map[string]judgments, map[string]int, error) {
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
	out := map[string]judgments{}
	qids := map[string]int{}
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
		q, a := get("Question"), strings.TrimSpace(get("Model answer"))
		var label string
		switch strings.ToLower(strings.TrimSpace(get("Acceptable?"))) {
		case "yes":
			label = "correct"
		case "no":
			label = "incorrect"
		default:
			return nil, nil, fmt.Errorf("%s:%d: no verdict in column Acceptable?", path, line)
		}
		id, err := strconv.Atoi(get("id"))
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: id %q: %v", path, line, get("id"), err)
		}
		qids[q] = id
		j, ok := out[q]
		if !ok {
			j = judgments{exact: map[string]string{}, normalized: map[string]string{}}
			out[q] = j
		}
		j.exact[a] = label
		n := squadNormalize(a)
		if prev, seen := j.normalized[n]; seen && prev != label {
			j.normalized[n] = ""
		} else if !seen {
			j.normalized[n] = label
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	return out, qids, nil
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
