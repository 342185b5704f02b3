package report

import (
	"strings"

	"github.com/mattn/go-runewidth"
)

// maxCellWidth is the widest a column of a table with no width limit
// (--wide) grows before its cells wrap.
const maxCellWidth = 48

// minColumn is the narrowest a column is squeezed to when a table must
// fit a width; a column narrower than that by nature keeps its width.
const minColumn = 6

// shortWord is the longest word a column keeps whole while the table can
// be fitted otherwise (ids and URLs are longer).
const shortWord = 14

// keyWord is the longest word the first column keeps whole while it can.
const keyWord = 40

// FitCells wraps the header and cells of a box table to fit width
// columns, as RenderTableWidth does, for a table rendered elsewhere (with
// tablewriter's own wrapping off).
func FitCells(header []string, rows [][]string, width int) ([]string, [][]string) {
	return fitCells(header, rows, width)
}

// fitCells wraps the header and cells of a box table (one space each side
// of a cell, a rule between columns and at both ends) so that it fits
// width columns: the widest columns give way first, down to minColumn,
// and every cell is broken at spaces, or inside a word too long for its
// column (after a / - , or _ where it can). width ≤ 0 only wraps at
// maxCellWidth, as --wide output always did.
func fitCells(header []string, rows [][]string, width int) ([]string, [][]string) {
	n := len(header)
	natural := make([]int, n)
	measure := func(j int, s string) {
		for _, l := range strings.Split(s, "\n") {
			natural[j] = max(natural[j], runewidth.StringWidth(l))
		}
	}
	for _, r := range rows {
		for j := range min(len(r), n) {
			measure(j, r[j])
		}
	}
	floor := make([]int, n)
	for j, h := range header {
		// A header keeps its longest word whole, a cell its words up to
		// shortWord wide.
		for _, w := range strings.Fields(h) {
			floor[j] = max(floor[j], min(runewidth.StringWidth(w), maxCellWidth))
		}
		if width <= 0 {
			natural[j] = min(natural[j], maxCellWidth)
		}
		natural[j] = max(natural[j], floor[j], min(runewidth.StringWidth(h), maxCellWidth))
	}
	for _, r := range rows {
		for j := range min(len(r), n) {
			for _, w := range strings.Fields(r[j]) {
				// The first column names the row (a case, a metric): its
				// names stay whole up to keyWord wide.
				if ww := runewidth.StringWidth(w); ww <= shortWord || j == 0 && ww <= keyWord {
					floor[j] = max(floor[j], ww)
				}
			}
		}
	}
	widths := natural
	if width > 0 {
		widths = share(natural, floor, rows, width-(3*n+1))
	}
	hdr := make([]string, n)
	for j, h := range header {
		hdr[j] = wrapCell(h, widths[j])
	}
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = make([]string, len(r))
		for j, c := range r {
			if j < n {
				c = wrapCell(c, widths[j])
			}
			out[i][j] = c
		}
	}
	return hdr, out
}

// share narrows the columns until they fit budget columns in all, one
// column at a time: each step narrows the column that costs the fewest
// extra lines (a word broken in two counts as four more lines; a cell's own lines break ties), the widest of
// those that cost the same. No column goes below min(natural,
// max(minColumn, floor)) unless even those do not fit: then the budget is
// shared out evenly.
func share(natural, floor []int, rows [][]string, budget int) []int {
	n := len(natural)
	widths := append([]int(nil), natural...)
	sum := 0
	for _, w := range widths {
		sum += w
	}
	if sum <= budget {
		return widths
	}
	least := make([]int, n)
	for j := range natural {
		least[j] = min(natural[j], max(minColumn, floor[j]))
	}
	// lines[j][w][i]: the lines of row i's cell of column j at width w;
	// broken[j][w]: the words broken in column j at width w.
	lines := make([]map[int][]int, n)
	broken := make([]map[int]int, n)
	at := func(j, w int) []int {
		if l, ok := lines[j][w]; ok {
			return l
		}
		l := make([]int, len(rows))
		b := 0
		for i, r := range rows {
			if j >= len(r) {
				l[i] = 1
				continue
			}
			for _, para := range strings.Split(r[j], "\n") {
				ws, nb := wrapWordsN(para, w, w)
				l[i] += max(len(ws), 1)
				b += nb
			}
		}
		lines[j][w], broken[j][w] = l, b
		return l
	}
	for j := range lines {
		lines[j], broken[j] = map[int][]int{}, map[int]int{}
	}
	cost := func() int {
		c := 0
		for i := range rows {
			h := 1
			for j := range widths {
				l := at(j, widths[j])[i]
				h = max(h, l)
				c += l // a cell's own lines break ties
			}
			c += 10 * h
		}
		for j := range widths {
			c += 40 * broken[j][widths[j]]
		}
		return c
	}
	squeezed := false
	for sum > budget {
		best, bestCost := -1, 0
		for j := range widths {
			if widths[j] <= least[j] {
				continue
			}
			widths[j]--
			c := cost()
			widths[j]++
			if best < 0 || c < bestCost || c == bestCost && widths[j] > widths[best] {
				best, bestCost = j, c
			}
		}
		if best < 0 && !squeezed {
			// The floors do not fit: break short words too.
			squeezed = true
			for j := range least {
				least[j] = min(natural[j], minColumn)
			}
			continue
		}
		if best < 0 {
			// Even minColumn does not fit: share the budget out evenly.
			each := max(budget/n, 3)
			for j := range widths {
				widths[j] = min(widths[j], each)
			}
			return widths
		}
		widths[best]--
		sum--
	}
	return widths
}

// wrapCell breaks s into lines of at most width display columns: at
// spaces, and inside a word only when the word is longer than a line.
func wrapCell(s string, width int) string {
	if width <= 0 {
		return s
	}
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		lines = append(lines, wrapWords(para, width, width)...)
	}
	return strings.Join(lines, "\n")
}

// wrapWords breaks s at spaces into lines, the first at most first
// columns wide and the others rest; a word longer than its line is broken.
func wrapWords(s string, first, rest int) []string {
	lines, _ := wrapWordsN(s, first, rest)
	return lines
}

// wrapWordsN is wrapWords, also counting the words it broke.
func wrapWordsN(s string, first, rest int) (lines []string, broken int) {
	if runewidth.StringWidth(s) <= first {
		return []string{s}, 0
	}
	width := func() int {
		if len(lines) == 0 {
			return first
		}
		return rest
	}
	line := ""
	for _, word := range strings.Fields(s) {
		for runewidth.StringWidth(word) > width() {
			// Too long for any line: fill this one (or a fresh one) with
			// its head.
			if line != "" {
				lines = append(lines, line)
				line = ""
			}
			head, tail := breakWord(word, width())
			lines = append(lines, head)
			word = tail
			broken++
		}
		switch {
		case line == "":
			line = word
		case runewidth.StringWidth(line)+1+runewidth.StringWidth(word) > width():
			lines = append(lines, line)
			line = word
		default:
			line += " " + word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines, broken
}

// breakWord splits word so that head fits room columns: after the last
// / - , _ or . that fits, else at room.
func breakWord(word string, room int) (head, tail string) {
	w, cut, soft := 0, 0, 0
	for i, r := range word {
		rw := runewidth.RuneWidth(r)
		if w+rw > room {
			break
		}
		w += rw
		cut = i + len(string(r))
		if strings.ContainsRune("/-,_.", r) && cut < len(word) {
			soft = cut
		}
	}
	if cut == 0 {
		// Not even one rune fits: take one anyway.
		_, size := firstRune(word)
		cut = size
	}
	if soft > 0 && soft*2 >= cut {
		cut = soft
	}
	return word[:cut], word[cut:]
}

func firstRune(s string) (rune, int) {
	for _, r := range s {
		return r, len(string(r))
	}
	return 0, 0
}

// WrapText breaks s at spaces into lines of at most width columns (0 or
// less: one line), the later ones starting with indent; a word longer than
// a line is broken too, so nothing passes the width.
func WrapText(s string, width int, indent string) []string {
	if width <= 0 || runewidth.StringWidth(s) <= width {
		return []string{s}
	}
	trimmed := strings.TrimLeft(s, " ")
	lead := s[:len(s)-len(trimmed)]
	iw := runewidth.StringWidth(indent)
	lines := wrapWords(trimmed, width-len(lead), max(width-iw, minColumn))
	lines[0] = lead + lines[0]
	for i := 1; i < len(lines); i++ {
		lines[i] = indent + lines[i]
	}
	return lines
}

// TableWidth is the width of the box table of header and rows with no
// cell wrapped: what a table needs to show every column on one line.
func TableWidth(header []string, rows [][]string) int {
	n := len(header)
	w := 3*n + 1
	for j := range n {
		c := runewidth.StringWidth(header[j])
		for _, r := range rows {
			if j < len(r) {
				for _, l := range strings.Split(r[j], "\n") {
					c = max(c, runewidth.StringWidth(l))
				}
			}
		}
		w += c
	}
	return w
}
