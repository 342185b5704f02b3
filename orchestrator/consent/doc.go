// Package consent routes a user turn before any model call: it decides
// whether a message is a new query for Phase 1, a '?' override straight to
// Phase 2, or — after a Phase 1 answer that ended with the consent question —
// a YES, NO, SEARCH_NOW or NEW_QUERY reply. It is deterministic app-level
// code: the session state machine calls [Decide], the trace records the
// [Decision], and the evaluation harness scores the consent dataset
// (datasets/consent.yaml) with [Classify].
//
// # Override
//
// After trimming whitespace, a first or last character '?' (ASCII only)
// sends a new query straight to Phase 2. The query passed on has the marker
// removed where it is a marker: a leading run of '?' and whitespace goes, and
// whitespace in a trailing run is closed up (" ?" at the end becomes "?").
// Otherwise the text is unchanged.
// When a Phase 1 answer awaits consent the reply is classified first, so a
// consent reply ending in '?' ("sure?", "can you verify that?") is consent,
// never an override; only a NEW_QUERY's carried question is checked for one.
//
// # How a consent reply is read
//
//  0. Read each character as what it stands for: its Unicode NFKC form
//     (full-width "ｙｅｓ", mathematical "𝐲𝐞𝐬" and circled letters are the
//     letters they are drawn from), katakana as hiragana, and, in lexicon
//     keys only, a letter that imitates a Latin one (Unicode TS #39
//     confusables: Cyrillic "е" in "yеs", Greek "ο", small capitals "ʏᴇꜱ")
//     as that letter (lookalike_table.go, generated). Each Han character is
//     a word of its own ("是的" = "是 的"). The text as typed is kept: a
//     carried question is cut from it, and Decision.Input holds it.
//
//  1. Normalize: fold letter case; straighten curly apostrophes (U+2019
//     "don’t" = "don't" = "dont"); drop quotes, brackets, unknown symbols,
//     emoji modifiers (skin tones, variation selectors, ZWJ); treat , ; : . ! ?
//     … dashes and line breaks as clause breaks; split "double-check" into
//     two words. Words match the lexicon ignoring apostrophes, accents ("sí"
//     = "si", "não" = "nao") and letters repeated for emphasis ("yesss",
//     "nooo", "yeahhh"). Texting spellings are read as the word they stand
//     for ("u" = "you"). A word the lexicon does not know that is one typing
//     slip from a word entry is read as it ("suer" = "sure", "definately" =
//     "definitely"; typo.go says what a slip is, and "yet" is none for
//     "yes"); one slip from a word of a phrase, it is read so only where the
//     phrase then matches ("sounds goof").
//
//  2. Cover each clause with entries of lexicon.yaml (the only hand-kept
//     place words live) and of two generated files (gen): lexicon_cldr.yaml,
//     the yes and no words of every CLDR language, and lexicon_gettext.yaml,
//     the "Yes" and "No" button translations of Debian packages' gettext
//     and Qt catalogs (the toolkits gen/gettext.go lists). lexicon.yaml wins where it has a word. A one-word entry is
//     found by the word as typed (case folded) before accents, repeats and
//     look-alikes are read away, so "ie" (Welsh yes) is not "iie" (Japanese
//     no) and Cherokee "ᎥᎥ" is not "i". A generated word that is yes in one
//     language and no in another is read as no when its no-languages have
//     ten times the speakers of its yes-languages (lexicon_speakers.yaml,
//     from CLDR's territoryInfo); a yes majority never wins, so that no
//     decline is read as consent. Otherwise ("jo": Albanian no,
//     Luxembourgish yes) it is ambiguous and covers nothing: the reply is
//     unplaced and the model decides. A generated word that is also an English word ("nu",
//     Romanian no) counts only when both generated files give it and it
//     is the whole reply. Entries are used as few as possible and, among
//     equal covers, the longest entry first. Every entry has a class: yes, polite, no,
//     negators, search_now, filler, connectives, new_question.
//     Intensifiers ("actually", "really") may stand inside a phrase ("is
//     that actually true?"). Request words ("got", "any", "show me") cover
//     a clause only beside a search_now entry: "got a source?", "any
//     references?" are requests for evidence (rule search.request).
//
//  3. A clause with a word no entry covers is new content: the reply is a
//     NEW_QUERY carrying the reply from that clause on, minus the consent
//     and joiners ("but", "also", "new question:") that introduce it. If it
//     is the first clause, the whole trimmed reply is carried, so a leading
//     '?' stays an override. Unless it is a remark beside a consent: with no
//     joiner before it, no question opener first ("what", "tell", "how"), no
//     content cue ("what", "meant", "asking"), no digit, at most 8 unknown
//     words, nothing unknown after a search_now entry, no '?' unless the
//     remark itself votes, and a vote before it or inside it, the votes
//     decide as in 4 under the rule no.decline ("no, I'm satisfied", "not
//     needed right now"), yes.remark ("sure, I'd appreciate it") or
//     search.remark ("ok, you can look it up").
//     An assent with an unknown word right before and after it is part of
//     a phrase the lexicon cannot read and casts no vote ("sánzá ya yambo").
//     A remark is read strictly: only hand-kept entries of two or more
//     letters over words as typed vote there, never a generated word of
//     another language ("tú"), a typo correction ("pasa" → "pass") or a lone
//     "y" ("Y qué pasa…"); a clause after '¿' is read strictly too. After
//     "so" or "because" (remark_joiners) new content is a reason, read as a
//     remark ("look it up so I can quote it").
//     After an assent, an uncovered clause opening with a scope word
//     ("only", "just"; scope_openers) limits the search: the assent decides
//     (yes.scoped, search.scoped) and the clause is kept as Decision.Scope.
//     A negation in or after the scope ("no blogs", "nah") still sends the
//     reply to the model (step 5).
//
//  4. Otherwise each yes, search_now or no entry is a vote; a negator
//     before the next yes, search_now or polite entry of its clause turns it
//     into a NO vote, and a negator with nothing to negate is a NO vote. The
//     last vote wins: people correct themselves forwards ("no, go ahead") and
//     put the operative part after "but" ("yes but no sources").
//
//  5. Precision first (issue 37, precision.go, language.go): a rule decides
//     only what it is sure of. The reply's language is settled from its
//     words (each belongs to the languages of the entries it is a word of,
//     lexicon.yaml's " @" codes, and to English when Debian's English word
//     list has it), its script and the previous query; a word counts only
//     in that language. The rules' reading is then sent to the model
//     instead (a defer.* rule) when the language is not settled, when a
//     negation stands anywhere beside a consent (a decline is never read
//     as consent), when a no follows a yes with no correction marker
//     between, when a negator stands before words no entry covers, when
//     the reply only acknowledges, or when new content beside a yes or no
//     asks nothing. A check of one detail of the answer is SEARCH_NOW
//     (search.detail) and a consent word named rather than used is a new
//     query (new.about-word).
//
// # When the rules cannot place a reply
//
// A reply whose rule is new.content and that asks nothing (no '?', no
// question opener first, no content cue other than a wh-word, no number)
// is [Decision.Unplaced], and so is every reply a defer.* rule sends on:
// "Maleey", "the 2019 one", "Yes. I said no". [Decision.Deferred] says
// why. The rules' reading stays a new query, as seed 000 says of
// "something else", routed to Phase 1 and never as an override; a live
// session (orchestrator) asks the chat model with the variant's consent
// prompt (prompts/<variant>/consent.md) and the strict schema
// [ModelSchema], and routes by its verdict, and the trace says which path
// decided.
//
// # Rules
//
// Every decision names one of these rules. The ids are stable.
//
//	id                      matches                                           intent      example
//	yes.word                yes entries only (words, phrases, emoji)          YES         "y", "yes please", "👍", "sure?"
//	yes.please              only polite words: they decide when nothing does  YES         "please", "pls 🙏"
//	yes.after-no            last vote yes, an earlier vote no                 YES         "no, go ahead", "nah, actually go ahead"
//	yes.remark              assent beside a remark the lexicon cannot read    YES         "sure, I'd appreciate it"
//	yes.scoped              assent, then a limit on the search                YES         "yes, but only official sources"
//	search.phrase           positive reply that names the check               SEARCH_NOW  "can you confirm that?", "now check with sources"
//	search.request          a request for evidence                            SEARCH_NOW  "got a source?", "any references?"
//	search.after-no         as search.phrase, after an earlier no             SEARCH_NOW  "no, check it"
//	search.remark           a check named beside a remark                     SEARCH_NOW  "ok, you can look it up"
//	search.scoped           a check named, then a limit on it                 SEARCH_NOW  "check it, only peer-reviewed work"
//	search.detail           a check of one detail of the answer               SEARCH_NOW  "can you check the date?"
//	no.word                 no entries, or a negator alone                    NO          "nope", "I’m good", "don’t", "not now"
//	no.negated-yes          last vote is a negated yes/search/polite entry    NO          "don't check", "not ok", "no need to search"
//	no.after-yes            last vote no, an earlier vote yes                 NO          "yes but no sources", "ok... actually no"
//	no.decline              a decline beside a remark, no new question        NO          "no, I'm satisfied", "not needed right now"
//	no.filler-only          only filler, connectives, new-question words      NO          "thanks", "hmm", "cool"
//	no.empty                no words or known emoji at all                    NO          "", "...", "🤔"
//	new.content             new content with no consent before it            NEW_QUERY   "What are current EU AI regulations?"
//	new.question-after-no   new content after a no                            NEW_QUERY   "nope, new question: what is X" → "what is X"
//	new.question-after-yes  new content after a yes or search_now             NEW_QUERY   "yes — and also what is Z?" → "what is Z?"
//	new.about-word          a consent word named, not used                    NEW_QUERY   "what does 'sí' mean?"
//	defer.language          its language is not settled, or a word means      (model)     "tak", "ce n'est pas ok"
//	                        different things in the languages it may be in
//	defer.negation          consent read, but a negation stands beside it     (model)     "no, go ahead", "why not"
//	defer.correction        a yes, then a no with no correction marker        (model)     "Yes. I said no"
//	defer.negated-unknown   a negator before words no entry covers            (model)     "not a bad idea"
//	defer.acknowledgement   only acknowledgements                             (model)     "thanks", "cool"
//	defer.remark            new content beside a yes or no that asks nothing  (model)     "sure, I'm curious what you find"
//	override.leading        not awaiting consent; text starts with '?'        (phase2)    "? what are current EU AI regulations"
//	override.trailing       not awaiting consent; text ends with '?'          (phase2)    "What are current EU AI regulations?"
//	new.query               not awaiting consent; no override                 (phase1)    "what is the capital of France"
//	new.empty               not awaiting consent; nothing to answer           (phase1)    "", "?"
//
// When awaiting consent, [Decision.Rule] is the consent rule even when the
// carried question then turns out to be an override; [Decision.Override]
// says so.
//
// # Decisions worth knowing
//
//   - YES vs SEARCH_NOW. Both search for the previous query. A positive
//     reply is SEARCH_NOW when it names the checking action (a search_now
//     entry: check, verify, confirm, look it up, sources, "is that right"…)
//     and YES otherwise. The seed's YES examples "please check", "can you
//     verify that?" and "add sources" are yes phrases, so they keep the
//     seed's label; "could you verify that?" is SEARCH_NOW.
//   - Acknowledgements ("thanks", "cool", "great", "got it") are filler, not
//     consent: a reply of filler alone is NO, because searching needs consent.
//     "that’s fine" is NO as in the seed; "fine by me" is YES.
//   - A new question in the same reply as a yes wins ("yes — and also what
//     is Z?" is NEW_QUERY "what is Z?"): a turn answers one query, and the
//     question is what the user is now waiting for.
//   - Anything the lexicon cannot explain is a new query, as the seed says
//     ("why?", "search for the EU AI Act timeline"). Content before consent
//     is carried with it ("what is X? yes" carries all of it).
//   - Only clause punctuation and known emoji survive normalization;
//     full-width and other compatibility letters are folded (NFKC).
//   - A decline never becomes a search: "skip", "stop", "cancel" are
//     negators, so "skip the search" is NO (TestDeclinesNeverSearch checks
//     every decline of every dataset).
//
// Classification is linear in the length of the reply: each word is looked
// up against at most six-word entries, and lookups stop at the longest key.
package consent
