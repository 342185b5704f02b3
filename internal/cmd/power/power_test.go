package power_test

import (
	"context"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

// The figures are those R computes independently (eval/stats/testdata/
// paired.R: casesfor 0.05,0.1 → 337; mde 68,0.2 → 0.154).
func TestPower(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"power", "--effect", "5pp", "--discordant", "10%"}, []string{
			"Cases needed to detect a change of 5.0 points in a pass rate (two-sided exact McNemar test at α = 0.05, 80% power):",
			"  10% of cases change outcome: 337 cases"}},
		{[]string{"power", "--effect", "0.05"}, []string{"  5% of cases change outcome: 157 cases", "  20% of cases change outcome: 658 cases"}},
		{[]string{"power", "--cases", "68", "--discordant", "0.2"}, []string{"Smallest change of a pass rate 68 cases detect", "  20% of cases change outcome: 15.4 points"}},
		{[]string{"power", "--cases", "5"}, []string{"none: too few cases for any change"}},
	} {
		io, out, errOut := cmdutil.Test("")
		if code := root.Main(context.Background(), tt.args, io); code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.args, code, errOut)
		}
		// Lines wrap to 100 columns: compare the words.
		words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
		for _, w := range tt.want {
			if !strings.Contains(words(out.String()), words(w)) {
				t.Errorf("%v: output lacks %q:\n%s", tt.args, w, out)
			}
		}
	}
}

func TestPowerErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"power"}, "set one of --effect and --cases"},
		{[]string{"power", "--effect", "5pp", "--cases", "10"}, "set one of --effect and --cases"},
		{[]string{"power", "--effect", "five"}, `--effect "five": want points (5pp)`},
		{[]string{"power", "--effect", "150pp"}, "at most 100 points"},
		{[]string{"power", "--effect", "10pp", "--discordant", "5%"}, "--discordant 5% is below --effect 10pp"},
		{[]string{"power", "--cases", "10", "--power", "1.2", "--alpha", "0"}, "--power 1.2: want a probability in (0, 1); --alpha 0"},
	} {
		io, _, errOut := cmdutil.Test("")
		if code := root.Main(context.Background(), tt.args, io); code != cmdutil.ExitUsage || !strings.Contains(errOut.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}
