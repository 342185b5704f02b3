package consent

// Tests that kill the mutants gremlins found alive in this package
// (gremlins unleash --workers 2 ./orchestrator/consent; see README,
// Development). The round-2 rules' edges are pinned in round2_test.go.
//
// Equivalent mutants (gremlins v0.6.0, 2026-11-25), left alive on purpose:
//   - classify.go loose, CONDITIONALS_BOUNDARY on `t.start >=
//     rest[0][0].start`: a '?' token and a word token never start at the
//     same byte, so `>` decides the same.
//   - classify.go joinerPrefix, CONDITIONALS_BOUNDARY on `i < n`: from
//     i = n no entry starts, so the extra turn does nothing.
//   - classify.go joinerPrefix, CONDITIONALS_BOUNDARY and ARITHMETIC_BASE
//     on `i+length < n` and CONDITIONALS_BOUNDARY on `i+length > strip`:
//     joinerPrefix runs only on a clause the entries cannot cover, so no
//     run of entries from its start reaches its end (i+length == n never
//     happens), and raising strip to the value it has changes nothing.
//   - normalize.go unaccent, CONDITIONALS_BOUNDARY on `r < 0x80`: U+0080
//     is a control character, never a word rune, so unaccent never sees it.

import "testing"

// TestFewestEntriesWin: among covers, the one with the fewest entries wins
// even when a longer entry at the start would lead to more entries after
// it ("a" + "b c d", not "a b" + "c" + "d").
func TestFewestEntriesWin(t *testing.T) {
	m := &matcher{lx: mustLexicon(t, smallLexicon("[a, a b]", "[b c d]", "[c, d, thanks]"))}
	if v := m.classify("a b c d"); v.intent != No || v.rule != RuleNoAfterYes {
		t.Errorf("classify(%q) = %s %s; want NO %s (yes \"a\", then no \"b c d\")", "a b c d", v.intent, v.rule, RuleNoAfterYes)
	}
}
