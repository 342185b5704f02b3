package main

import (
	"slices"
	"testing"
)

// TestAlternatives: yesstr/nostr values as CLDR 48 writes them
// (cldr-misc-full main/<locale>/posix.json).
func TestAlternatives(t *testing.T) {
	for in, want := range map[string][]string{
		"tak:t":         {"tak"},              // pl: the abbreviation goes
		"确定:是":          {"确定", "是"},          // zh: "是" is no abbreviation of "确定"
		"होयःहो":        {"होय", "हो"},        // mr: a visarga for the colon
		"ngaaha/apaana": {"ngaaha", "apaana"}, // a slash between two words
		"ideg.":         {"ideg"},
		"bẹ́ẹ̀ni ":      {"bẹ́ẹ̀ni"},
		"ទេ\u200b៖ n":   {"ទេ", "n"},
	} {
		if got := alternatives(in); !slices.Equal(got, want) {
			t.Errorf("alternatives(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestExpressionWords: the whole words of glibc yesexpr/noexpr values
// (ja_JP, de_DE in Debian locales 2.36).
func TestExpressionWords(t *testing.T) {
	for in, want := range map[string][]string{
		"^([+1yY\uff59\uff39]|はい|ハイ)": {"はい", "ハイ"},
		"^[+1jJyY]":                   nil,
	} {
		if got := expressionWords(in); !slices.Equal(got, want) {
			t.Errorf("expressionWords(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestParseLocale: escapes, <U> characters, a copied category and a list
// continued over lines.
func TestParseLocale(t *testing.T) {
	l, err := parseLocale("testdata/locales", "xx_XX", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := glibcLocale{yes: "はい", no: "いいえ", yesExpr: "^([+1yY]|はい|ハイ)", noExpr: "^([-0nN]|いいえ)", day: "niedziela", mon: "stycznia"}
	if l != want {
		t.Errorf("parseLocale = %+v, want %+v", l, want)
	}
	if _, err := parseLocale("testdata/locales", "missing", 0); err == nil {
		t.Error("a missing locale parsed")
	}
}
