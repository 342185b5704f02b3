package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/searchbench/searchbench/internal/demo"
)

// A Region is one generated part of a page: the command that produces it
// and where it sits.
type Region struct {
	Cmd    string // run by sh -c in a fresh copy of the tree
	Line   int    // 1-based line of the opening marker
	Inline bool   // within a line of prose, not a fenced block
	Fence  string // a block region's opening fence line ("```text")
	Body   string // what the page holds now: the block's output, or the inline text
	start  int    // byte offsets in the page of what Render replaces
	end    int
}

const (
	openPrefix = "<!-- generated: "
	markEnd    = "<!-- end -->"
)

// inlineRe finds an inline region: the marker, the text, the end marker, on
// one line.
var inlineRe = regexp.MustCompile(`<!-- generated: (.+?) -->(.*?)<!-- end -->`)

// Parse finds a page's generated regions. A block region is a line holding
// only the opening marker, a fenced block, and a line holding only the end
// marker; an inline region is the two markers around text on one line.
// Markers inside other fenced blocks are text (a page may show the syntax).
func Parse(page string) ([]Region, error) {
	var regions []Region
	var problems []string
	lines := strings.SplitAfter(page, "\n")
	off := 0
	inFence := false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimRight(l, "\n")
		lineStart := off
		off += len(l)
		if strings.HasPrefix(strings.TrimSpace(t), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		if strings.HasPrefix(t, openPrefix) && strings.HasSuffix(t, " -->") && !strings.Contains(t, markEnd) {
			r := Region{Cmd: strings.TrimSuffix(strings.TrimPrefix(t, openPrefix), " -->"), Line: i + 1, start: off}
			j := i + 1
			for j < len(lines) && strings.TrimRight(lines[j], "\n") != markEnd {
				j++
			}
			if j == len(lines) {
				problems = append(problems, fmt.Sprintf("line %d: %q has no %q line", i+1, r.Cmd, markEnd))
				break
			}
			body := strings.Join(lines[i+1:j], "")
			r.end = r.start + len(body)
			bl := strings.SplitAfter(body, "\n")
			if len(bl) < 3 || !strings.HasPrefix(bl[0], "```") || strings.TrimSpace(bl[len(bl)-2]) != "```" {
				problems = append(problems, fmt.Sprintf("line %d: the region of %q must hold one fenced block (```text … ```)", i+1, r.Cmd))
			} else {
				r.Fence = strings.TrimRight(bl[0], "\n")
				r.Body = strings.Join(bl[1:len(bl)-2], "")
			}
			regions = append(regions, r)
			for _, b := range lines[i+1 : j+1] {
				off += len(b)
			}
			i = j
			continue
		}
		for _, m := range inlineRe.FindAllStringSubmatchIndex(t, -1) {
			regions = append(regions, Region{
				Cmd: t[m[2]:m[3]], Line: i + 1, Inline: true, Body: t[m[4]:m[5]],
				start: lineStart + m[4], end: lineStart + m[5],
			})
		}
		if strings.Contains(t, openPrefix) && len(inlineRe.FindAllStringIndex(t, -1)) != strings.Count(t, openPrefix) {
			problems = append(problems, fmt.Sprintf("line %d: a %q marker with no %q", i+1, strings.TrimSpace(openPrefix), markEnd))
		}
	}
	if len(problems) > 0 {
		return regions, fmt.Errorf("%s", strings.Join(problems, "\n"))
	}
	return regions, nil
}

// Render returns the page with each region's body replaced by out[i]: a
// block region gets its fence around the output, an inline one the output's
// single line.
func Render(page string, regions []Region, out []string) (string, error) {
	var b strings.Builder
	last := 0
	for i, r := range regions {
		b.WriteString(page[last:r.start])
		o := out[i]
		if r.Inline {
			o = strings.TrimRight(o, "\n")
			if strings.Contains(o, "\n") {
				return "", fmt.Errorf("line %d: %q printed several lines for an inline region", r.Line, r.Cmd)
			}
			b.WriteString(o)
		} else {
			if o != "" && !strings.HasSuffix(o, "\n") {
				o += "\n"
			}
			b.WriteString(r.Fence + "\n" + o + "```\n")
		}
		last = r.end
	}
	b.WriteString(page[last:])
	return b.String(), nil
}

// Pages lists the documents that may hold regions, relative to root:
// README.md and docs/*.md. docs/design is the user's verbatim specification
// and is never touched.
func Pages(root string) ([]string, error) {
	pages := []string{"README.md"}
	m, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	for _, p := range m {
		rel, _ := filepath.Rel(root, p)
		pages = append(pages, filepath.ToSlash(rel))
	}
	sort.Strings(pages[1:])
	return pages, nil
}

// A Runner runs region commands, each in a fresh copy of the demo tree
// (internal/demo: this tree's code with the pinned demo data and its
// recordings, never the team's working cassettes, baseline and prompts), with
// a searchbench built from that tree first on PATH.
type Runner struct {
	Root string // the repository
	tree string // the demo tree
	bin  string // folder holding the built searchbench
	env  []string
	tmp  string
}

// NewRunner builds the demo tree (once per source: internal/demo) and
// searchbench into a temporary folder; Close removes the latter.
func NewRunner(ctx context.Context, root string) (*Runner, error) {
	r := &Runner{Root: root}
	var err error
	if r.tree, err = demo.Build(ctx, root, "", nil); err != nil {
		return nil, err
	}
	if r.tmp, err = os.MkdirTemp("", "docgen-"); err != nil {
		return nil, err
	}
	r.bin = filepath.Join(r.tmp, "bin")
	env := map[string]string{}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT"} {
		v, err := exec.CommandContext(ctx, "go", "env", k).Output()
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("go env %s: %w (docgen needs the go command)", k, err)
		}
		env[k] = strings.TrimSpace(string(v))
	}
	build := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(r.bin, "searchbench"), "./cmd/searchbench")
	build.Dir = root
	if b, err := build.CombinedOutput(); err != nil {
		r.Close()
		return nil, fmt.Errorf("go build ./cmd/searchbench: %w\n%s", err, b)
	}
	// A fixed, quiet environment: no colour, no terminal (outputs are what a
	// pipe gets), the user's module and build caches, nothing from the
	// network, and a home and cassette cache of the region's own.
	r.env = []string{
		"PATH=" + r.bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"NO_COLOR=1", "TERM=dumb", "LC_ALL=C.UTF-8", "TZ=UTC",
		"GOPROXY=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=readonly",
		"GIT_AUTHOR_NAME=docgen", "GIT_AUTHOR_EMAIL=docgen@example.com",
		"GIT_COMMITTER_NAME=docgen", "GIT_COMMITTER_EMAIL=docgen@example.com",
		"GIT_AUTHOR_DATE=2000-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2000-01-01T00:00:00Z",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
	}
	for k, v := range env {
		r.env = append(r.env, k+"="+v)
	}
	return r, nil
}

// Close removes the runner's temporary folder.
func (r *Runner) Close() { os.RemoveAll(r.tmp) }

// Run runs cmd with sh in a fresh copy of the tree and returns what it
// printed, standard output and error together. A non-zero exit is an
// error: a region whose command is meant to fail says so (`; echo "exit $?"`).
func (r *Runner) Run(ctx context.Context, cmd string) (string, error) {
	dir, err := os.MkdirTemp(r.tmp, "tree-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	if err := demo.CopyTree(r.tree, dir); err != nil {
		return "", err
	}
	home := filepath.Join(dir, ".home")
	if err := os.Mkdir(home, 0o755); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, "sh", "-c", cmd)
	c.Dir = dir
	c.Env = append(append([]string{}, r.env...), "HOME="+home, "SEARCHBENCH_CACHE_DIR="+filepath.Join(home, "cache"), "TMPDIR="+home)
	var out bytes.Buffer
	c.Stdout = &out
	c.Stderr = &out
	err = c.Run()
	s := strings.ReplaceAll(out.String(), dir+"/", "")
	s = strings.ReplaceAll(s, dir, ".")
	if err != nil {
		return s, fmt.Errorf("%s: %w\n%s", cmd, err, s)
	}
	return s, nil
}

// A Drift is a region whose page text is not what its command prints.
type Drift struct {
	Page   string
	Region Region
	Want   string // what the command printed
}

// Generate runs every region of every page and returns the pages' new
// text (only those that changed) and the regions that drifted.
func Generate(ctx context.Context, r *Runner, pages []string, logf func(string, ...any)) (map[string]string, []Drift, error) {
	changed := map[string]string{}
	var drifts []Drift
	for _, p := range pages {
		b, err := os.ReadFile(filepath.Join(r.Root, p))
		if err != nil {
			return nil, nil, err
		}
		regions, err := Parse(string(b))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p, err)
		}
		if len(regions) == 0 {
			continue
		}
		outs := make([]string, len(regions))
		for i, rg := range regions {
			logf("%s:%d: %s", p, rg.Line, rg.Cmd)
			if outs[i], err = r.Run(ctx, rg.Cmd); err != nil {
				return nil, nil, fmt.Errorf("%s:%d: %w", p, rg.Line, err)
			}
		}
		page, err := Render(string(b), regions, outs)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p, err)
		}
		if page == string(b) {
			continue
		}
		changed[p] = page
		// Which regions: re-parse the new page and compare region by region.
		after, err := Parse(page)
		if err != nil {
			return nil, nil, fmt.Errorf("%s after rendering: %w", p, err)
		}
		for i, rg := range regions {
			if after[i].Body != rg.Body {
				drifts = append(drifts, Drift{Page: p, Region: rg, Want: after[i].Body})
			}
		}
	}
	return changed, drifts, nil
}
