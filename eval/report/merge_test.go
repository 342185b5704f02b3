package report_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/lib/textdiff"
)

// shards splits the fixed run into n shard reports, as n sharded runs of
// the same selection would write them.
func shards(n int) (whole []byte, parts []report.Source) {
	meta, recs := reporttest.Run()
	whole = reporttest.JSON(meta, recs)
	for k := 1; k <= n; k++ {
		m := meta
		m.Shard = strings.Join([]string{itoa(k), itoa(n)}, "/")
		var mine []*report.CaseRecord
		for _, r := range recs {
			if r.Seq%n == k-1 {
				mine = append(mine, r)
			}
		}
		parts = append(parts, report.Bytes("shard-"+itoa(k)+".json", reporttest.JSON(m, mine)))
	}
	return whole, parts
}

func itoa(i int) string { return string(rune('0' + i)) }

func merge(t *testing.T, srcs []report.Source) ([]byte, []string, error) {
	t.Helper()
	var buf bytes.Buffer
	_, notes, err := report.Merge(srcs, score.All(), report.NewJSON(&buf))
	return buf.Bytes(), notes, err
}

func TestMergeEqualsUnshardedRun(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4} {
		whole, parts := shards(n)
		// Any order of the shard files gives the same result.
		for _, order := range [][]report.Source{parts, reverse(parts)} {
			got, notes, err := merge(t, order)
			if err != nil {
				t.Fatalf("%d shards: %v", n, err)
			}
			if len(notes) != 0 {
				t.Errorf("%d shards: notes %v", n, notes)
			}
			want := string(whole)
			if n > 1 {
				var specs []string
				for k := 1; k <= n; k++ {
					specs = append(specs, `"`+itoa(k)+"/"+itoa(n)+`"`)
				}
				// The only difference: the merged meta lists its shards.
				want = strings.Replace(want, `,"cassettes"`, `,"shards":[`+strings.Join(specs, ",")+`],"cassettes"`, 1)
			}
			if m := textdiff.Compare(want, string(got)); m != nil {
				t.Errorf("%d shards: merged report differs from the unsharded one: %s\n%s", n, m, m.Diff)
			}
		}
	}
}

func reverse(s []report.Source) []report.Source {
	out := make([]report.Source, len(s))
	for i := range s {
		out[len(s)-1-i] = s[i]
	}
	return out
}

func TestMergeMissingShard(t *testing.T) {
	_, parts := shards(3)
	got, notes, err := merge(t, parts[:2])
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "shards 3/3 are missing") {
		t.Errorf("notes = %v", notes)
	}
	rep, err := report.ReadAll("merged.json", bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rep.Meta.Shards, ",") != "1/3,2/3" || rep.Summary.Cases != len(rep.Cases) {
		t.Errorf("meta shards %v, summary cases %d of %d", rep.Meta.Shards, rep.Summary.Cases, len(rep.Cases))
	}
}

func TestMergeErrors(t *testing.T) {
	meta, recs := reporttest.Run()
	shard := func(name, spec string, edit func(*report.Meta), rs ...*report.CaseRecord) report.Source {
		m := meta
		m.Shard = spec
		if edit != nil {
			edit(&m)
		}
		return report.Bytes(name, reporttest.JSON(m, rs))
	}
	tests := []struct {
		name string
		srcs []report.Source
		want []string
	}{
		{"variant and mode differ", []report.Source{
			shard("a.json", "1/2", nil, recs[0]),
			shard("b.json", "2/2", func(m *report.Meta) { m.Variant, m.Mode = "routing-examples", "structured" }, recs[1]),
		}, []string{`b.json: variant "routing-examples" differs from a.json's "seed"`, `b.json: mode "structured" differs`}},
		{"datasets differ", []report.Source{
			shard("a.json", "1/2", nil, recs[0]),
			shard("b.json", "2/2", func(m *report.Meta) { m.Datasets = m.Datasets[:1] }, recs[1]),
		}, []string{"b.json: datasets (names, paths, case counts or sha256) differ from a.json's"}},
		{"same shard twice", []report.Source{
			shard("a.json", "1/2", nil, recs[0]),
			shard("b.json", "1/2", nil, recs[1]),
		}, []string{"b.json: shard 1/2 is also in a.json"}},
		{"different splits", []report.Source{
			shard("a.json", "1/2", nil, recs[0]),
			shard("b.json", "2/3", nil, recs[1]),
		}, []string{"b.json: shard 2/3 is of a 3-way split, not 2-way"}},
		{"case twice", []report.Source{
			shard("a.json", "1/2", nil, recs[0], recs[2]),
			shard("b.json", "2/2", nil, recs[2]),
		}, []string{"seq 2 is in both a.json (case routing/alignment-since-2018) and b.json"}},
		{"out of order", []report.Source{
			shard("a.json", "1/1", nil, recs[2], recs[1]),
		}, []string{"a.json: case routing/alignment-themes has seq 1 after seq 2"}},
		{"unreadable", []report.Source{
			report.Bytes("broken.json", []byte(`{"meta":`)),
			report.Bytes("empty.json", nil),
		}, []string{"broken.json: byte", "empty.json: byte 0"}},
		{"nothing", nil, []string{"no shard reports"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := merge(t, tt.srcs)
			if err == nil {
				t.Fatal("merge succeeded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	var me *report.MergeError
	_, _, err := merge(t, tests[0].srcs)
	if !errors.As(err, &me) || len(me.Problems) != 2 {
		t.Errorf("want one MergeError listing both problems, got %v", err)
	}
}
