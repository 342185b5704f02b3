package vcr_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"

	"github.com/searchbench/searchbench/eval/vcr"
)

// The harness records a case from the simulator (or the live services) once,
// then replays it on every change.
func Example() {
	sim := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"results":[],"response_time":0.5}`)
	}))
	defer sim.Close()
	root, _ := os.MkdirTemp("", "cassettes")
	defer os.RemoveAll(root)
	path := vcr.Path(root, "baseline", "smoke", "case-1")

	// Record: clients keep their real base URLs; Redirect sends the traffic
	// to the simulator.
	simURL, _ := url.Parse(sim.URL)
	rec, _ := vcr.StartRecording(path, vcr.RecordOptions{
		Secrets:       []string{"tvly-example-key-0001"},
		Deterministic: true,
		Real:          vcr.Redirect(simURL, nil),
	})
	client := &http.Client{Transport: rec}
	req, _ := http.NewRequest("POST", "https://api.tavily.com/search", strings.NewReader(`{"query":"q","max_results":5}`))
	req.Header.Set("Authorization", "Bearer tvly-example-key-0001")
	if _, err := client.Do(req); err != nil {
		rec.Discard()
		return
	}
	if err := rec.Save(); err != nil {
		fmt.Println(err)
		return
	}

	// Replay: no network; JSON key order and headers do not matter.
	rp, _ := vcr.OpenReplayWith(path, vcr.ReplayOptions{Case: "case-1", Rerecord: "searchbench record case-1"})
	defer rp.Close()
	client = &http.Client{Transport: rp}
	resp, _ := client.Post("https://api.tavily.com/search", "application/json", strings.NewReader(`{"max_results": 5, "query": "q"}`))
	fmt.Println(resp.StatusCode)

	_, err := client.Post("https://api.tavily.com/search", "application/json", strings.NewReader(`{"query":"other"}`))
	var miss *vcr.MissError
	fmt.Println(errors.As(err, &miss), miss.Closest)
	fmt.Println(miss.Diff)
	fmt.Println(rp.Unused())
	// Output:
	// 200
	// true POST https://api.tavily.com/search (interaction 0, already replayed)
	//   {
	// -   "max_results": 5,
	// -   "query": "q"
	// +   "query": "other"
	//   }
	// []
}
