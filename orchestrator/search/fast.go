package search

import (
	"github.com/searchbench/searchbench/lib/jsonx"
)

// fastDecoder is a response that reads its usual form in one pass. The
// general UnmarshalJSON methods nest (the response, then each hit, each
// with its own json.Unmarshal), so every byte of every snippet was
// validated and decoded several times. decodeFast leaves the response
// untouched and reports false when the body is anything else (malformed,
// a field repeated or matched only case-insensitively, a null hit),
// and json.Unmarshal then decodes it, errors included, as it always did;
// FuzzDecodeTavily and FuzzDecodeExa check that both paths agree.
type fastDecoder interface {
	decodeFast(body []byte) bool
}

// decodeFast implements fastDecoder.
func (resp *TavilyResponse) decodeFast(body []byte) bool {
	r := jsonx.NewReader(body)
	var out TavilyResponse
	var seen jsonx.Fields
	ok := r.Object(func(key []byte) bool {
		switch string(key) {
		case "query":
			return seen.Once(0) && r.StringInto(&out.Query)
		case "answer":
			return seen.Once(1) && r.StringInto(&out.Answer)
		case "follow_up_questions":
			return seen.Once(2) && stringList(r, &out.FollowUpQuestions)
		case "images":
			if !seen.Once(3) {
				return false
			}
			if r.Null() {
				return true
			}
			out.Images = []TavilyImage{}
			return r.Array(func() bool {
				var im TavilyImage
				ok := tavilyImage(r, &im)
				out.Images = append(out.Images, im)
				return ok
			})
		case "results":
			if !seen.Once(4) {
				return false
			}
			if r.Null() {
				return true
			}
			out.Hits = []TavilyResult{}
			return r.Array(func() bool {
				h, ok := tavilyHit(r)
				out.Hits = append(out.Hits, h)
				return ok
			})
		case "response_time":
			return seen.Once(5) && flex(r, &out.ResponseTime)
		case "usage":
			if !seen.Once(6) {
				return false
			}
			if r.Null() {
				return true
			}
			out.Usage = &TavilyUsage{}
			var us jsonx.Fields
			return r.Object(func(key []byte) bool {
				if string(key) == "credits" {
					return us.Once(0) && floatInto(r, &out.Usage.Credits)
				}
				return r.SkipUnknown(key, "credits")
			})
		case "request_id":
			return seen.Once(7) && r.StringInto(&out.RequestID)
		}
		return r.SkipUnknown(key, "query", "answer", "follow_up_questions", "images", "results", "response_time", "usage", "request_id")
	})
	if !ok || !r.End() {
		return false
	}
	*resp = out
	return true
}

// tavilyImage reads a bare URL string or a {url, description} object, as
// TavilyImage.UnmarshalJSON does.
func tavilyImage(r *jsonx.Reader, im *TavilyImage) bool {
	switch r.Peek() {
	case '"':
		return r.StringInto(&im.URL)
	case 'n':
		return r.Null()
	}
	var seen jsonx.Fields
	return r.Object(func(key []byte) bool {
		switch string(key) {
		case "url":
			return seen.Once(0) && r.StringInto(&im.URL)
		case "description":
			return seen.Once(1) && r.StringInto(&im.Description)
		}
		return r.SkipUnknown(key, "url", "description")
	})
}

func tavilyHit(r *jsonx.Reader) (TavilyResult, bool) {
	var h TavilyResult
	var seen jsonx.Fields
	ok := r.Object(func(key []byte) bool {
		switch string(key) {
		case "title":
			return seen.Once(0) && r.StringInto(&h.Title)
		case "url":
			return seen.Once(1) && r.StringInto(&h.URL)
		case "content":
			return seen.Once(2) && r.StringInto(&h.Content)
		case "score":
			return seen.Once(3) && flex(r, &h.Score)
		case "raw_content":
			return seen.Once(4) && r.StringInto(&h.RawContent)
		case "favicon":
			return seen.Once(5) && r.StringInto(&h.Favicon)
		case "published_date":
			return seen.Once(6) && r.StringInto(&h.PublishedDate)
		}
		return r.SkipUnknown(key, "title", "url", "content", "score", "raw_content", "favicon", "published_date")
	})
	return h, ok
}

// decodeFast implements fastDecoder.
func (resp *ExaResponse) decodeFast(body []byte) bool {
	r := jsonx.NewReader(body)
	var out ExaResponse
	var seen jsonx.Fields
	ok := r.Object(func(key []byte) bool {
		switch string(key) {
		case "requestId":
			return seen.Once(0) && r.StringInto(&out.RequestID)
		case "resolvedSearchType":
			return seen.Once(1) && r.StringInto(&out.ResolvedSearchType)
		case "results":
			if !seen.Once(2) {
				return false
			}
			if r.Null() {
				return true
			}
			out.Hits = []ExaResult{}
			return r.Array(func() bool {
				h, ok := exaHit(r)
				out.Hits = append(out.Hits, h)
				return ok
			})
		case "searchTime":
			if !seen.Once(3) {
				return false
			}
			if r.Null() {
				return true
			}
			out.hasSearchTime = true
			return flex(r, &out.SearchTime)
		case "searchType":
			return seen.Once(5) && r.StringInto(&out.SearchType)
		case "costDollars":
			if !seen.Once(4) {
				return false
			}
			if r.Null() {
				return true
			}
			out.CostDollars = &ExaCost{}
			var cs jsonx.Fields
			return r.Object(func(key []byte) bool {
				if string(key) == "total" {
					return cs.Once(0) && floatInto(r, &out.CostDollars.Total)
				}
				return r.SkipUnknown(key, "total")
			})
		}
		return r.SkipUnknown(key, "requestId", "resolvedSearchType", "results", "searchTime", "costDollars", "searchType")
	})
	if !ok || !r.End() {
		return false
	}
	*resp = out
	return true
}

func exaHit(r *jsonx.Reader) (ExaResult, bool) {
	var h ExaResult
	var seen jsonx.Fields
	ok := r.Object(func(key []byte) bool {
		switch string(key) {
		case "id":
			return seen.Once(0) && r.StringInto(&h.ID)
		case "url":
			return seen.Once(1) && r.StringInto(&h.URL)
		case "title":
			return seen.Once(2) && r.StringInto(&h.Title)
		case "publishedDate":
			return seen.Once(3) && r.StringInto(&h.PublishedDate)
		case "author":
			return seen.Once(4) && r.StringInto(&h.Author)
		case "score":
			return seen.Once(5) && flex(r, &h.Score)
		case "text":
			return seen.Once(6) && r.StringInto(&h.Text)
		case "highlights":
			return seen.Once(7) && stringList(r, &h.Highlights)
		case "highlightScores":
			if !seen.Once(8) {
				return false
			}
			if r.Null() {
				return true
			}
			h.HighlightScores = []float64{}
			return r.Array(func() bool {
				var f float64
				ok := floatInto(r, &f)
				h.HighlightScores = append(h.HighlightScores, f)
				return ok
			})
		case "summary":
			return seen.Once(9) && r.StringInto(&h.Summary)
		case "favicon":
			return seen.Once(10) && r.StringInto(&h.Favicon)
		case "image":
			return seen.Once(11) && r.StringInto(&h.Image)
		}
		return r.SkipUnknown(key, "id", "url", "title", "publishedDate", "author", "score", "text",
			"highlights", "highlightScores", "summary", "favicon", "image")
	})
	return h, ok
}

// stringList reads a list of strings (null elements read as "") or a null.
func stringList(r *jsonx.Reader, dst *[]string) bool {
	if r.Null() {
		return true
	}
	*dst = []string{}
	return r.Array(func() bool {
		var s string
		ok := r.StringInto(&s)
		*dst = append(*dst, s)
		return ok
	})
}

// floatInto reads a number or a null (read as 0) as encoding/json reads it
// into a float64.
func floatInto(r *jsonx.Reader, dst *float64) bool {
	if r.Null() {
		return true
	}
	f, ok := r.Float()
	*dst = f
	return ok
}

// flex reads a flexFloat: its own UnmarshalJSON decides, as in the general
// path.
func flex(r *jsonx.Reader, dst *float64) bool {
	raw, ok := r.Raw()
	if !ok {
		return false
	}
	var f flexFloat
	_ = f.UnmarshalJSON(raw) // never fails: unreadable values read as 0
	*dst = float64(f)
	return true
}
