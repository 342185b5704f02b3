package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The multilingual held-out set is built from glibc's locale sources
// (Debian's locales package, /usr/share/i18n/locales), a source the lexicon
// does not use: the lexicon's words come from CLDR. For each language it
// holds glibc's yesstr and nostr, the whole words of yesexpr and noexpr
// ("はい|ハイ"), each as written and in title case with a full stop, labelled
// YES and NO; and the language's first day and month name (LC_TIME day,
// mon), labelled NEW_QUERY: a reply that is neither yes nor no is
// "something else", a new query by seed 000. A string a language copies
// from English ("yes") is left out, as it says nothing of the language.

// glibcLocale is what the held-out set needs from one locale source file.
type glibcLocale struct {
	yes, no, yesExpr, noExpr string
	day, mon                 string
}

var (
	uEscape   = regexp.MustCompile(`<U([0-9A-Fa-f]{4,6})>`)
	quoted    = regexp.MustCompile(`"((?:[^"])*)"`)
	exprWords = regexp.MustCompile(`[^\s()|\[\]^$+*?.\\{}-]{2,}`)
)

// parseLocale reads the keywords of LC_MESSAGES and LC_TIME from a glibc
// locale source, following "copy" into the named file for a category that
// has one. Only what the held-out set uses is read.
func parseLocale(dir, name string, depth int) (glibcLocale, error) {
	var l glibcLocale
	if depth > 8 {
		return l, fmt.Errorf("%s: copy chain too deep", name)
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return l, err
	}
	comment, escape := byte('#'), byte('\\')
	var lines []string
	var cur strings.Builder
	for _, raw := range strings.Split(string(data), "\n") {
		if f := strings.Fields(raw); len(f) == 2 && f[0] == "comment_char" {
			comment = f[1][0]
			continue
		} else if len(f) == 2 && f[0] == "escape_char" {
			escape = f[1][0]
			continue
		}
		if t := strings.TrimSpace(raw); t != "" && t[0] == comment {
			continue
		}
		line := strings.TrimRight(raw, " \t\r")
		if strings.HasSuffix(line, string(escape)) {
			cur.WriteString(strings.TrimSuffix(line, string(escape)))
			continue
		}
		cur.WriteString(line)
		lines = append(lines, cur.String())
		cur.Reset()
	}
	section := ""
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch {
		case f[0] == "LC_MESSAGES" || f[0] == "LC_TIME":
			section = f[0]
			continue
		case f[0] == "END":
			section = ""
			continue
		case section == "":
			continue
		}
		if f[0] == "copy" && len(f) > 1 {
			from, err := parseLocale(dir, strings.Trim(f[1], `"`), depth+1)
			if err != nil {
				return l, fmt.Errorf("%s: copy: %w", name, err)
			}
			if section == "LC_MESSAGES" {
				l.yes, l.no, l.yesExpr, l.noExpr = from.yes, from.no, from.yesExpr, from.noExpr
			} else {
				l.day, l.mon = from.day, from.mon
			}
			continue
		}
		vals := quoted.FindAllStringSubmatch(line, -1)
		if len(vals) == 0 {
			continue
		}
		first := decodeU(vals[0][1])
		switch section + " " + f[0] {
		case "LC_MESSAGES yesstr":
			l.yes = first
		case "LC_MESSAGES nostr":
			l.no = first
		case "LC_MESSAGES yesexpr":
			l.yesExpr = first
		case "LC_MESSAGES noexpr":
			l.noExpr = first
		case "LC_TIME day":
			l.day = first
		case "LC_TIME mon":
			l.mon = first
		}
	}
	return l, nil
}

// decodeU replaces glibc's <Uxxxx> escapes by the characters.
func decodeU(s string) string {
	return uEscape.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.ParseUint(m[2:len(m)-1], 16, 32)
		return string(rune(n))
	})
}

// expressionWords returns the whole words a yesexpr or noexpr alternates
// between ("^([+1yY]|はい|ハイ)" → はい, ハイ): runs of two or more letters
// outside brackets.
func expressionWords(expr string) []string {
	// Drop bracket expressions ("[+1yY]"): they list single letters.
	var b strings.Builder
	depth := 0
	for _, r := range expr {
		switch {
		case r == '[':
			depth++
		case r == ']' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	var out []string
	for _, w := range exprWords.FindAllString(b.String(), -1) {
		if strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) }) < 0 {
			out = append(out, w)
		}
	}
	return out
}

type heldoutCase struct {
	id, reply, label, lang, form string
}

// glibcHeldout builds the multilingual held-out set.
func glibcHeldout(dir, version string) ([]byte, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	en, err := parseLocale(dir, "en_US", 0)
	if err != nil {
		return nil, err
	}
	english := map[string]bool{}
	for _, s := range []string{en.yes, en.no, en.day, en.mon} {
		english[strings.ToLower(s)] = true
	}
	seen := map[string]bool{} // lang + reply
	var cases []heldoutCase
	var errs []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.Contains(name, "_") || strings.HasPrefix(name, "translit_") || strings.HasPrefix(name, "iso") {
			continue
		}
		l, err := parseLocale(dir, name, 0)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		lang, _, _ := strings.Cut(name, "_")
		add := func(reply, label, form string) {
			reply = strings.TrimSpace(reply)
			if reply == "" || (lang != "en" && english[strings.ToLower(reply)]) || seen[lang+"\x00"+reply] {
				return
			}
			seen[lang+"\x00"+reply] = true
			cases = append(cases, heldoutCase{reply: reply, label: label, lang: lang, form: form})
		}
		both := func(word, label, form string) {
			if strings.TrimSpace(word) == "" {
				return // the locale has no such string
			}
			add(word, label, form)
			add(titleCase(word)+".", label, form+"-sentence")
		}
		both(l.yes, "YES", "yesstr")
		both(l.no, "NO", "nostr")
		for _, w := range expressionWords(l.yesExpr) {
			both(w, "YES", "yesexpr")
		}
		for _, w := range expressionWords(l.noExpr) {
			both(w, "NO", "noexpr")
		}
		add(l.day, "NEW_QUERY", "day")
		add(l.mon, "NEW_QUERY", "month")
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	sort.SliceStable(cases, func(i, j int) bool { return cases[i].lang < cases[j].lang })
	n := map[string]int{}
	var b bytes.Buffer
	b.WriteString("# Code generated by go run ./orchestrator/consent/gen -glibc; DO NOT EDIT.\n")
	b.WriteString("#\n# Multilingual held-out consent replies, from a source the lexicon does not use:\n")
	fmt.Fprintf(&b, "# glibc's locale sources (%s, /usr/share/i18n/locales).\n", version)
	b.WriteString("# For each language: yesstr and nostr, the whole words of yesexpr and noexpr,\n")
	b.WriteString("# each as written and as a sentence (title case, full stop), labelled YES and\n")
	b.WriteString("# NO; the first day and month name of LC_TIME, labelled NEW_QUERY (neither\n")
	b.WriteString("# yes nor no: \"something else\" in seed 000). Strings copied from English are\n")
	b.WriteString("# left out. Never edited by hand, never tuned on: the lexicon is built from\n")
	b.WriteString("# CLDR and measured on this file (README, Consent).\n")
	b.WriteString("kind: consent\ncases:\n")
	for _, c := range cases {
		n[c.lang+c.form]++
		id := fmt.Sprintf("%s-%s-%d", c.lang, c.form, n[c.lang+c.form])
		fmt.Fprintf(&b, "  - {id: %s, reply: %s, label: %s, tags: [lang:%s, form:%s]}\n", id, yamlString(c.reply), c.label, c.lang, c.form)
	}
	return b.Bytes(), nil
}

// titleCase upper-cases the first letter of s.
func titleCase(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToTitle(r)) + s[size:]
}
