// Command gen writes the consent classifier's generated tables from
// maintained sources, never from memory:
//
//   - lexicon_cldr.yaml: yes and no words of every language in Unicode CLDR
//     (the posix yesstr/nostr of main/<locale>/posix.json in the npm package
//     cldr-misc-full), read by lexicon.go beside the hand-kept lexicon.yaml;
//   - lexicon_gettext.yaml: the translations of the "Yes" and "No" buttons
//     in the gettext catalogs of Debian packages (gettext.go), a second
//     source beside CLDR;
//   - lexicon_speakers.yaml: the speakers of each language of both files,
//     from CLDR's supplemental territoryInfo (npm package cldr-core,
//     speakers.go), by which the classifier reads a word that is yes in
//     one language and no in another;
//   - english_words.txt.gz: the English words of Debian wamerican, by which
//     the classifier tells an English reply (english.go);
//   - lookalike_table.go: the letters that imitate a Latin letter, from the
//     Unicode TS #39 confusables table (github.com/mtibben/confusables, which
//     carries confusables.txt) and the names of the Latin small capitals
//     (golang.org/x/text/unicode/runenames), which TS #39 leaves unmapped.
//
// Run it from the module root (make consent-tables does):
//
//	go run ./orchestrator/consent/gen -cldr DIR/node_modules/cldr-misc-full -cldr-core DIR/node_modules/cldr-core -deb PKG.deb ...
//
// With -heldout FILE it also writes the multilingual held-out set from
// glibc's locales (glibc.go). That set was measured once and is never
// rewritten: make consent-tables does not pass -heldout.
//
// The output depends on nothing but the sources, so a rerun with the same
// versions rewrites the same bytes.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/unicode/runenames"
)

func main() {
	cldr := flag.String("cldr", "", "the cldr-misc-full package directory (holding package.json and main/)")
	core := flag.String("cldr-core", "", "the cldr-core package directory (holding supplemental/territoryInfo.json): speakers per language")
	var debs debList
	flag.Var(&debs, "deb", "a Debian package (.deb) whose gettext catalogs translate \"Yes\" and \"No\"; repeat for more")
	dict := flag.String("dict", "/usr/share/dict/words", "an English word list (Debian wamerican): generated words that are English words are marked")
	glibc := flag.String("glibc", "/usr/share/i18n/locales", "glibc's locale sources (Debian locales), for the multilingual held-out set")
	dataset := flag.String("heldout", "", "write the multilingual held-out set to this file (only to build it anew: it is never rewritten once measured)")
	out := flag.String("out", "orchestrator/consent", "directory to write the generated files to")
	englishOnly := flag.Bool("english-only", false, "write english_words.txt.gz alone (it needs only -dict)")
	flag.Parse()
	if *englishOnly {
		if err := writeEnglish(*dict, *out); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*cldr, *core, debs, *dict, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if *dataset == "" {
		return
	}
	if err := heldout(*glibc, *dataset); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// debList is a repeatable -deb flag.
type debList []string

func (d *debList) String() string     { return strings.Join(*d, ",") }
func (d *debList) Set(s string) error { *d = append(*d, s); return nil }

// writeEnglish writes english_words.txt.gz from the word list dict.
func writeEnglish(dict, out string) error {
	data, err := englishWords(dict)
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(out, "english_words.txt.gz"), data)
}

func run(cldr, core string, debs []string, dict, out string) error {
	if err := writeEnglish(dict, out); err != nil {
		return err
	}
	table, err := lookalikes()
	if err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(out, "lookalike_table.go"), table); err != nil {
		return err
	}
	if cldr == "" {
		return errors.New("-cldr is required (npm install cldr-misc-full into a temporary directory)")
	}
	if core == "" {
		return errors.New("-cldr-core is required (npm install cldr-core into a temporary directory)")
	}
	lex, langs, err := cldrLexicon(cldr, dict)
	if err != nil {
		return err
	}
	gt, gtLangs, err := gettextLexicon(debs, dict)
	if err != nil {
		return err
	}
	maps.Copy(langs, gtLangs)
	sp, err := speakersTable(core, langs)
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{"lexicon_cldr.yaml": lex, "lexicon_gettext.yaml": gt, "lexicon_speakers.yaml": sp} {
		if err := writeAtomic(filepath.Join(out, name), data); err != nil {
			return err
		}
	}
	return nil
}

// heldout writes the multilingual held-out set from glibc's locales.
func heldout(dir, path string) error {
	version := "Debian locales"
	if v := debianVersion("locales"); v != "" {
		version += " " + v
	}
	data, err := glibcHeldout(dir, version)
	if err != nil {
		return err
	}
	return writeAtomic(path, data)
}

// confusablesVersion is the module version of github.com/mtibben/confusables
// in go.mod; its tables.go says it holds confusables.txt 13.0.0.
const confusablesVersion = "v0.0.0-20210201002637-9d1b0723b659 (confusables.txt 13.0.0)"

// lookalikes maps every letter or digit that is no ASCII letter, folded to
// lower case, to the ASCII letter it imitates: its TS #39 skeleton when that
// is one ASCII letter (Cyrillic "а", "е", "ѕ"; Greek "ο"; "ı"), or the letter
// its name says it is a small capital of ("ᴇ" LATIN LETTER SMALL CAPITAL E).
func lookalikes() ([]byte, error) {
	m := map[rune]rune{}
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) {
			continue
		}
		f := unicode.ToLower(unicode.ToUpper(r))
		if f != r {
			continue // the classifier folds before it looks a letter up
		}
		if to, ok := asciiLetter(confusables.Skeleton(string(r))); ok {
			m[r] = to
			continue
		}
		name := runenames.Name(r)
		if l, ok := strings.CutPrefix(name, "LATIN LETTER SMALL CAPITAL "); ok && len(l) == 1 && l[0] >= 'A' && l[0] <= 'Z' {
			m[r] = rune(l[0] + 'a' - 'A')
		}
	}
	keys := make([]rune, 0, len(m))
	for r := range m {
		keys = append(keys, r)
	}
	slices.Sort(keys)
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by go run ./orchestrator/consent/gen; DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "// Sources: Unicode TS #39 confusables via github.com/mtibben/confusables %s;\n", confusablesVersion)
	fmt.Fprintf(&b, "// small capitals by name from golang.org/x/text/unicode/runenames (Unicode %s).\n\n", runenames.UnicodeVersion)
	b.WriteString("package consent\n\n")
	b.WriteString("// lookalike maps a folded letter or digit to the ASCII letter it imitates.\n")
	b.WriteString("var lookalike = map[rune]rune{\n")
	for _, r := range keys {
		fmt.Fprintf(&b, "\t%#U: '%c',\n", r, m[r])
	}
	b.WriteString("}\n")
	// %#U writes U+0430 'а'; turn it into a Go rune literal.
	src := b.String()
	var o strings.Builder
	for _, line := range strings.SplitAfter(src, "\n") {
		if strings.HasPrefix(line, "\tU+") {
			hex, rest, _ := strings.Cut(line[3:], " ")
			_, val, _ := strings.Cut(rest, ": ")
			line = "\t0x" + hex + ": " + val
		}
		o.WriteString(line)
	}
	return format.Source([]byte(o.String()))
}

// asciiLetter returns the one ASCII letter s is, ignoring combining marks,
// in lower case.
func asciiLetter(s string) (rune, bool) {
	var out rune
	n := 0
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		n++
		out = r
	}
	if n != 1 || out >= utf8.RuneSelf || !unicode.IsLetter(out) {
		return 0, false
	}
	return unicode.ToLower(out), true
}

// word is one yes or no word and the languages (CLDR base language codes)
// whose yesstr or nostr lists it.
type word struct {
	text  string
	langs map[string]bool
}

// cldrLexicon reads yesstr and nostr of every locale. A string is a list of
// alternatives ("tak:t", "ngaaha/apaana"); an alternative that is one
// letter starting another one is its abbreviation and is left out ("t" of
// "tak"). A word that is yes in some languages and no in others is listed
// in both classes (the classifier reads it as neither); a word that is also
// an English word is marked (writeClasses).
func cldrLexicon(dir, dict string) ([]byte, map[string]bool, error) {
	english, dictName, err := readDict(dict)
	if err != nil {
		return nil, nil, err
	}
	var pkg struct {
		Version string `json:"version"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil, nil, err
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		return nil, nil, fmt.Errorf("%s/package.json: %w", dir, err)
	}
	locales, err := os.ReadDir(filepath.Join(dir, "main"))
	if err != nil {
		return nil, nil, err
	}
	classes := map[string]map[string]*word{"yes": {}, "no": {}}
	var errs []error
	for _, l := range locales {
		loc := l.Name()
		path := filepath.Join(dir, "main", loc, "posix.json")
		data, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, nil, err
		}
		var f struct {
			Main map[string]struct {
				Posix struct {
					Messages struct {
						Yes string `json:"yesstr"`
						No  string `json:"nostr"`
					} `json:"messages"`
				} `json:"posix"`
			} `json:"main"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", path, err))
			continue
		}
		msg := f.Main[loc].Posix.Messages
		lang, _, _ := strings.Cut(loc, "-")
		for class, s := range map[string]string{"yes": msg.Yes, "no": msg.No} {
			if s == "" {
				errs = append(errs, fmt.Errorf("%s: %sstr is empty", path, class))
			}
			for _, w := range alternatives(s) {
				key := strings.ToLower(w)
				if lang != "en" && englishStr[key] {
					// A locale with no word of its own falls back on
					// English's: that says nothing of the language.
					continue
				}
				x := classes[class][key]
				if x == nil {
					x = &word{text: key, langs: map[string]bool{}}
					classes[class][key] = x
				}
				x.langs[lang] = true
			}
		}
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	var b bytes.Buffer
	b.WriteString("# Code generated by go run ./orchestrator/consent/gen; DO NOT EDIT.\n")
	b.WriteString("#\n# Yes and no words of every language in Unicode CLDR: messages.yesstr and\n")
	b.WriteString("# messages.nostr of main/<locale>/posix.json. Abbreviations (\"t\" of \"tak\")\n")
	b.WriteString("# are left out.\n")
	b.WriteString(genNotes)
	fmt.Fprintf(&b, "source: npm cldr-misc-full %s; English words from %s\n", pkg.Version, dictName)
	writeClasses(&b, classes, english)
	return b.Bytes(), classLangs(classes), nil
}

// englishStr holds the English yesstr and nostr alternatives.
var englishStr = map[string]bool{"yes": true, "y": true, "no": true, "n": true}

// alternatives splits a yesstr or nostr value into its words. Some locales
// write the colon in their own script: Devanagari visarga "ः" (Marathi
// "होयःहो"), Khmer "៖", Mongolian "᠄".
func alternatives(s string) []string {
	parts := strings.FieldsFunc(s, func(r rune) bool {
		return r == ':' || r == '/' || r == '៖' || r == '᠄' || r == 'ः' || r == '.' || r == ';'
	})
	var out []string
	for _, p := range parts {
		p = strings.TrimFunc(p, func(r rune) bool { return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) || unicode.IsPunct(r) })
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	// An alternative of one letter that starts another is its abbreviation.
	return slices.DeleteFunc(out, func(p string) bool {
		if utf8.RuneCountInString(p) != 1 {
			return false
		}
		for _, q := range out {
			if q != p && strings.HasPrefix(strings.ToLower(q), strings.ToLower(p)) {
				return true
			}
		}
		return false
	})
}

// readDict reads a word list, one word a line; lower-case words only, so
// that names ("Sim") do not count. It also names the list by its Debian
// package version when dpkg knows it.
func readDict(path string) (map[string]bool, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("%w (apt-get install wamerican)", err)
	}
	words := map[string]bool{}
	for _, w := range strings.Split(string(data), "\n") {
		if w != "" && w == strings.ToLower(w) {
			words[w] = true
		}
	}
	name := path
	if v := debianVersion("wamerican"); v != "" {
		name = "Debian wamerican " + v
	}
	return words, name, nil
}

// debianVersion returns the installed version of a Debian package, as
// dpkg-query reports it, or "" (not installed, or not a Debian system).
func debianVersion(pkg string) string {
	out, err := exec.Command("dpkg-query", "--show", "--showformat=${Version}", pkg).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// classLangs returns every language of the words of classes.
func classLangs(classes map[string]map[string]*word) map[string]bool {
	langs := map[string]bool{}
	for _, ws := range classes {
		for _, w := range ws {
			maps.Copy(langs, w.langs)
		}
	}
	return langs
}

func langList(m map[string]bool) string {
	ls := make([]string, 0, len(m))
	for l := range m {
		ls = append(ls, l)
	}
	sort.Strings(ls)
	return strings.Join(ls, ", ")
}

// yamlString quotes s as a YAML double-quoted scalar.
func yamlString(s string) string {
	b, _ := json.Marshal(s) // JSON strings are YAML double-quoted scalars
	return string(b)
}

// writeAtomic writes data to path through a temporary file and a rename.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".gen-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
