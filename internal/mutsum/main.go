// Command mutsum summarises gremlins' machine-readable results (gremlins
// unleash -o FILE): one line per package with its efficacy, then every
// mutant that lived, named by the function it is in and its mutation, as
// the packages' mutants_test.go files name them (line numbers drift).
//
//	mutsum PKG=FILE...    (make mutants runs it)
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type results struct {
	Files []struct {
		FileName  string `json:"file_name"`
		Mutations []struct {
			Type   string `json:"type"`
			Status string `json:"status"`
			Line   int    `json:"line"`
			Column int    `json:"column"`
		} `json:"mutations"`
	} `json:"files"`
	Efficacy float64 `json:"test_efficacy"`
	Coverage float64 `json:"mutations_coverage"`
	Total    int     `json:"mutants_total"`
	Killed   int     `json:"mutants_killed"`
	Lived    int     `json:"mutants_lived"`
	NotCov   int     `json:"mutants_not_covered"`
}

// funcAt names the function (Type.Method or func) that holds line in file.
func funcAt(fset *token.FileSet, f *ast.File, line int) string {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fset.Position(fd.Pos()).Line > line || fset.Position(fd.End()).Line < line {
			continue
		}
		if fd.Recv != nil && len(fd.Recv.List) > 0 {
			t := fd.Recv.List[0].Type
			if s, ok := t.(*ast.StarExpr); ok {
				t = s.X
			}
			if g, ok := t.(*ast.IndexExpr); ok {
				t = g.X
			}
			if id, ok := t.(*ast.Ident); ok {
				return id.Name + "." + fd.Name.Name
			}
		}
		return fd.Name.Name
	}
	return "(package level)"
}

func summarise(w io.Writer, pkg, file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var r results
	if err := json.Unmarshal(data, &r); err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	timedOut := 0
	var lived []string
	for _, f := range r.Files {
		path := filepath.Join(pkg, f.FileName)
		fset := token.NewFileSet()
		src, _ := os.ReadFile(path)
		af, perr := parser.ParseFile(fset, path, src, 0)
		lines := strings.Split(string(src), "\n")
		for _, m := range f.Mutations {
			switch m.Status {
			case "TIMED OUT":
				timedOut++
			case "LIVED":
				fn := "?"
				if perr == nil {
					fn = funcAt(fset, af, m.Line)
				}
				code := ""
				if m.Line-1 < len(lines) {
					code = strings.TrimSpace(lines[m.Line-1])
				}
				lived = append(lived, fmt.Sprintf("  lived: %s, %s at %s:%d:%d  %s", fn, m.Type, f.FileName, m.Line, m.Column, code))
			}
		}
	}
	sort.Strings(lived)
	fmt.Fprintf(w, "%-22s efficacy %6.2f%%  (killed %d, lived %d, timed out %d, not covered %d; mutant coverage %.2f%%)\n",
		pkg, r.Efficacy, r.Killed, r.Lived, timedOut, r.NotCov, r.Coverage)
	for _, l := range lived {
		fmt.Fprintln(w, l)
	}
	return nil
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: mutsum PKG=FILE...")
		os.Exit(2)
	}
	for _, a := range os.Args[1:] {
		pkg, file, ok := strings.Cut(a, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "mutsum: %q is not PKG=FILE\n", a)
			os.Exit(2)
		}
		if err := summarise(os.Stdout, pkg, file); err != nil {
			fmt.Fprintln(os.Stderr, "mutsum:", err)
			os.Exit(1)
		}
	}
}
