package search

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDecodeFastTakesWireExamples: the fast paths must answer for the
// providers' documented responses, or they speed nothing up, and give what
// json.Unmarshal gives.
func TestDecodeFastTakesWireExamples(t *testing.T) {
	for _, tt := range []struct {
		file       string
		fast, slow fastDecoder
	}{
		{"tavily-search.json", &TavilyResponse{}, &TavilyResponse{}},
		{"tavily-search-news.json", &TavilyResponse{}, &TavilyResponse{}},
		{"exa-search.json", &ExaResponse{}, &ExaResponse{}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "wire", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if !tt.fast.decodeFast(b) {
				t.Fatal("left to the general path")
			}
			switch fast := tt.fast.(type) {
			case *TavilyResponse:
				checkFast(t, b, fast, tt.slow.(*TavilyResponse))
			case *ExaResponse:
				checkFast(t, b, fast, tt.slow.(*ExaResponse))
			}
		})
	}
}
