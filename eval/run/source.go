package run

import (
	"net/url"
	"sort"

	"github.com/searchbench/searchbench/eval/vcr"
	"github.com/searchbench/searchbench/lib/secret"
	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/llm"
	"github.com/searchbench/searchbench/orchestrator/search"
)

// The services a case talks to, with the variables that move them and
// their default base URLs.
var serviceEnv = []struct{ name, env, def string }{
	{vcr.ChatService, llm.EnvBaseURL, llm.DefaultBaseURL},
	{"tavily", search.EnvTavilyBaseURL, search.DefaultTavilyBaseURL},
	{"exa", search.EnvExaBaseURL, search.DefaultExaBaseURL},
}

// serviceBases is each service's base URL as getenv sets it (its default
// when unset or unusable), without credentials, by service name.
func serviceBases(getenv func(string) string) map[string]string {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	out := map[string]string{}
	for _, s := range serviceEnv {
		b, err := httpx.BaseURL(s.env, getenv(s.env), s.def)
		if err != nil {
			b = s.def
		}
		out[s.name] = bareURL(b)
	}
	return out
}

// bareURL is a base URL without userinfo, query or fragment: where a
// service is, and none of the credentials a URL may carry.
func bareURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	// A gateway may carry a key in its path: recorded.json and the
	// reports show REDACTED there, as the cassettes' URLs do.
	return secret.RedactURL(u.String())
}

// replayServices are the base URLs a case's requests are matched under:
// the services' defaults (where the simulator is recorded), the replay's
// own, and those the case was recorded with (recorded.json). A request
// under any of them matches on the service and the path below the base,
// so a recording made against any base URL replays without it.
func replayServices(own, recorded map[string]string) []vcr.Service {
	var out []vcr.Service
	seen := map[vcr.Service]bool{}
	add := func(name, base string) {
		s := vcr.Service{Name: name, Base: base}
		if base != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, s := range serviceEnv {
		add(s.name, s.def)
	}
	for _, m := range []map[string]string{own, recorded} {
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			add(n, m[n])
		}
	}
	return out
}

// liveSource is where a live recording's requests go: the chat model the
// variant asks for (its model setting, else SEARCHBENCH_LLM_MODEL, else
// the default) and each service's base URL.
func (o *RecordOptions) liveSource() (model string, bases map[string]string) {
	model = o.Variant.Settings.Model
	if model == "" {
		if lc, err := llm.ConfigFromEnv(o.Getenv); err == nil || lc.Model != "" {
			model = lc.Model
		}
	}
	return model, serviceBases(o.Getenv)
}
