package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
)

// The second source of the lexicon: the translations of the "Yes" and "No"
// buttons in the gettext catalogs (.mo files) that Debian packages ship
// under usr/share/locale/<locale>/LC_MESSAGES. Which packages is the
// Makefile's choice (consent-tables); each is named with its version in the
// generated file. Neither CLDR nor glibc's locales are read here, and
// glibc's own catalogs (libc.mo) are not among the packages: the held-out
// set is built from glibc.

// gettextIDs are the msgids whose translation is a yes or a no: the plain
// button labels and GTK's mnemonic stock labels ("_Yes").
var gettextIDs = map[string]string{"Yes": "yes", "_Yes": "yes", "&Yes": "yes", "No": "no", "_No": "no", "&No": "no"}

// moCatalog reads a GNU .mo file into msgid → msgstr. A msgid with a context
// is "context\x04msgid"; plural forms keep their NUL separators.
func moCatalog(data []byte) (map[string]string, error) {
	if len(data) < 20 {
		return nil, errors.New("too short for a .mo header")
	}
	var bo binary.ByteOrder
	switch binary.LittleEndian.Uint32(data) {
	case 0x950412de:
		bo = binary.LittleEndian
	case 0xde120495:
		bo = binary.BigEndian
	default:
		return nil, errors.New("no .mo magic number")
	}
	n := int(bo.Uint32(data[8:]))
	orig, trans := int(bo.Uint32(data[12:])), int(bo.Uint32(data[16:]))
	str := func(table, i int) (string, error) {
		at := table + 8*i
		if at < 0 || at+8 > len(data) {
			return "", fmt.Errorf("string %d: table out of range", i)
		}
		l, off := int(bo.Uint32(data[at:])), int(bo.Uint32(data[at+4:]))
		if off < 0 || l < 0 || off+l > len(data) {
			return "", fmt.Errorf("string %d: out of range", i)
		}
		return string(data[off : off+l]), nil
	}
	if n < 0 || n > len(data)/8 {
		return nil, fmt.Errorf("%d strings cannot fit", n)
	}
	cat := make(map[string]string, n)
	for i := 0; i < n; i++ {
		id, err := str(orig, i)
		if err != nil {
			return nil, err
		}
		s, err := str(trans, i)
		if err != nil {
			return nil, err
		}
		cat[id] = s
	}
	return cat, nil
}

// mnemonic matches the keyboard mnemonic a translation appends in
// parentheses ("はい(_Y)", "ना (_N)").
var mnemonic = regexp.MustCompile(`\s*\(\s*[_&]\p{L}\s*\)\s*$`)

// buttonWord returns a button label as a word: without its mnemonic in
// parentheses and without the mnemonic marks '_' and '&'.
func buttonWord(s string) string {
	s = mnemonic.ReplaceAllString(s, "")
	s = strings.NewReplacer("_", "", "&", "").Replace(s)
	return strings.TrimSpace(s)
}

// debPackage is one Debian package read for the lexicon.
type debPackage struct {
	name, version string
	// words maps class ("yes", "no") → word → languages.
	words map[string]map[string]map[string]bool
}

// readDeb extracts a .deb into a temporary directory (dpkg-deb) and reads
// the yes and no translations of every .mo file under usr/share/locale.
func readDeb(path string) (debPackage, error) {
	p := debPackage{words: map[string]map[string]map[string]bool{"yes": {}, "no": {}}}
	out, err := exec.Command("dpkg-deb", "--showformat=${Package}\t${Version}", "--show", path).Output()
	if err != nil {
		return p, fmt.Errorf("%s: dpkg-deb --show: %w", path, err)
	}
	p.name, p.version, _ = strings.Cut(strings.TrimSpace(string(out)), "\t")
	tmp, err := os.MkdirTemp("", "consent-deb-*")
	if err != nil {
		return p, err
	}
	defer os.RemoveAll(tmp)
	if out, err := exec.Command("dpkg-deb", "--extract", path, tmp).CombinedOutput(); err != nil {
		return p, fmt.Errorf("%s: dpkg-deb --extract: %w: %s", path, err, out)
	}
	root := filepath.Join(tmp, "usr", "share", "locale")
	err = filepath.WalkDir(root, func(file string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(file, ".mo") {
			return err
		}
		rel, _ := filepath.Rel(root, file)
		locale, _, _ := strings.Cut(rel, string(filepath.Separator))
		lang := baseLang(locale)
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		cat, err := moCatalog(data)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", p.name, rel, err)
		}
		dec, err := catalogDecoder(cat[""])
		if err != nil {
			return fmt.Errorf("%s: %s: %w", p.name, rel, err)
		}
		for id, s := range cat {
			ctx, msgid, ok := strings.Cut(id, "\x04")
			if !ok {
				msgid, ctx = id, ""
			}
			class, ok := gettextIDs[msgid]
			if !ok || (ctx != "" && ctx != "Stock label") {
				continue
			}
			if dec != nil {
				if s, err = dec.String(s); err != nil {
					return fmt.Errorf("%s: %s: %q: %w", p.name, rel, id, err)
				}
			}
			w := buttonWord(s)
			if w == "" || strings.Contains(w, "\x00") || !utf8.ValidString(w) || strings.ContainsRune(w, utf8.RuneError) {
				continue // a plural, or a translation broken upstream (newt's es "S\uFFFD")
			}
			key := strings.ToLower(w)
			if lang != "en" && englishStr[key] {
				continue // untranslated: says nothing of the language
			}
			if p.words[class][key] == nil {
				p.words[class][key] = map[string]bool{}
			}
			p.words[class][key][lang] = true
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return p, fmt.Errorf("%s: no usr/share/locale", path)
	}
	return p, err
}

// catalogDecoder returns the decoder of the charset a catalog's header
// names, or nil for UTF-8.
func catalogDecoder(header string) (*encoding.Decoder, error) {
	_, cs, ok := strings.Cut(header, "charset=")
	if !ok {
		return nil, nil
	}
	cs, _, _ = strings.Cut(cs, "\n")
	cs = strings.TrimSpace(cs)
	if strings.EqualFold(cs, "utf-8") || strings.EqualFold(cs, "utf8") || cs == "" || strings.EqualFold(cs, "CHARSET") {
		return nil, nil
	}
	e, err := htmlindex.Get(cs)
	if err != nil {
		return nil, fmt.Errorf("charset %q: %w", cs, err)
	}
	return e.NewDecoder(), nil
}

// baseLang returns the language of a gettext locale name: "pt_BR" → "pt",
// "sr@latin" → "sr", "az_IR" → "az".
func baseLang(locale string) string {
	l, _, _ := strings.Cut(locale, "@")
	l, _, _ = strings.Cut(l, "_")
	return l
}

// gettextLexicon writes lexicon_gettext.yaml from the .deb files given.
func gettextLexicon(debs []string, dict string) ([]byte, error) {
	english, dictName, err := readDict(dict)
	if err != nil {
		return nil, err
	}
	classes := map[string]map[string]*word{"yes": {}, "no": {}}
	var names []string
	var errs []error
	for _, d := range debs {
		p, err := readDeb(d)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		names = append(names, p.name+" "+p.version)
		for class, ws := range p.words {
			for key, langs := range ws {
				x := classes[class][key]
				if x == nil {
					x = &word{text: key, langs: map[string]bool{}}
					classes[class][key] = x
				}
				for l := range langs {
					x.langs[l] = true
				}
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if len(names) == 0 {
		return nil, errors.New("-deb: no Debian packages given")
	}
	sort.Strings(names)
	var b bytes.Buffer
	b.WriteString("# Code generated by go run ./orchestrator/consent/gen; DO NOT EDIT.\n")
	b.WriteString("#\n# Yes and no words from the gettext catalogs of Debian packages: the\n")
	b.WriteString("# translations of the msgids \"Yes\"/\"No\" (and GTK's stock labels \"_Yes\"/\n")
	b.WriteString("# \"_No\"), mnemonics removed, in usr/share/locale/<locale>/LC_MESSAGES/*.mo.\n")
	b.WriteString(genNotes)
	fmt.Fprintf(&b, "source: Debian %s; English words from %s\n", strings.Join(names, ", "), dictName)
	writeClasses(&b, classes, english)
	return b.Bytes(), nil
}

// genNotes explains the shared fields of both generated lexicon files.
const genNotes = `#
# A word that is yes in some languages and no in others is listed in both
# classes: the classifier reads it as neither (the model decides). A word
# that is also an English word is marked english: true; the classifier reads
# it only when it is the whole reply ("nu", "awe"), never inside an English
# sentence. Entries of lexicon.yaml win over these (lexicon.go).
`

// writeClasses writes the yes and no lists: one line a word, with its
// languages and whether it is an English word too.
func writeClasses(b *bytes.Buffer, classes map[string]map[string]*word, english map[string]bool) {
	for _, class := range []string{"yes", "no"} {
		fmt.Fprintf(b, "%s:\n", class)
		keys := make([]string, 0, len(classes[class]))
		for k := range classes[class] {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			w := classes[class][k]
			en := ""
			if english[k] && !w.langs["en"] {
				en = ", english: true"
			}
			fmt.Fprintf(b, "  - {word: %s, langs: [%s]%s}\n", yamlString(k), langList(w.langs), en)
		}
	}
}
