package answer

import "testing"

// TestMayNameTool holds the prefilter to the expression it saves: on every
// line where toolNames finds a name, mayNameTool says so.
func TestMayNameTool(t *testing.T) {
	lines := []string{"", "ex", "exa", "EXA", "Exa_search results", "use TAVILY_SEARCH", "tavil", "an example", "Tavily", "xtavily",
		"ta\u017fily", "nothing here", "ExAcT", "…exa…", "tavilY.", "re-examine"}
	for _, l := range lines {
		found := toolNames.MatchString(l)
		if found && !mayNameTool(l) {
			t.Errorf("mayNameTool(%q) = false, but toolNames finds %q", l, toolNames.FindAllString(l, -1))
		}
	}
	for _, l := range []string{"", "nothing here", "search the web", "tavil y", "e x a"} {
		if mayNameTool(l) {
			t.Errorf("mayNameTool(%q) = true, want false", l)
		}
	}
}
