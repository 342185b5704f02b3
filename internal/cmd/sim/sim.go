// Package sim implements "searchbench sim": it serves the loopback
// simulator of Tavily, Exa and the GPT-OSS chat endpoint (package
// sim) until interrupted, and prints the environment that points
// the orchestrator's clients at it.
package sim

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/internal/cmd/variant"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/orchestrator/llm"
	"github.com/searchbench/searchbench/orchestrator/search"
	simsrv "github.com/searchbench/searchbench/sim"
)

// DefaultAddr is where the simulator listens unless told otherwise.
const DefaultAddr = "127.0.0.1:8089"

// Options are the inputs of one simulator run.
type Options struct {
	IO *cmdutil.IOStreams
	// Addr is the loopback host:port to listen on (port 0: any free port).
	Addr string
	// Variant's prompts tell the phases apart; Policy (default: the
	// variant's own) answers every request.
	Variant variant.Flags
	Policy  string
	// Verbose logs one line per request to standard error.
	Verbose bool
	// Ready, when set, is called with the base URL once the server listens
	// (tests use it to find a port-0 server).
	Ready func(baseURL string)
	// Env starts the server in the background and prints only the export
	// lines (--env); Stop stops the one --env started on Addr (--stop).
	Env, Stop bool

	// command builds the background server's process (nil: this program
	// again); started sees it once it runs. Tests set both.
	command func(args []string) (*exec.Cmd, error)
	started func(*exec.Cmd)
}

// NewCmdSim returns the sim command. runF, when not nil, receives the
// options instead of simRun (for tests).
func NewCmdSim(io *cmdutil.IOStreams, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "sim",
		Short: "Serve the loopback simulator of Tavily, Exa and the GPT-OSS chat API",
		Long: `Serve the loopback simulator of the assistant's services until interrupted.

One server speaks three wire formats: Tavily (POST /tavily/search, /tavily/extract),
Exa (POST /exa/search, /exa/contents) and the OpenAI-compatible chat API
(POST /v1/chat/completions), answered by a scripted stand-in for GPT-OSS-120B over a
fixture corpus. Requests that keep the real hosts' Host header (api.tavily.com,
api.exa.ai, api.cerebras.ai) are routed by host, so the recorder can send live-shaped
traffic to it. Any API key is accepted; a missing one gets the provider's 401.

Answers are deterministic: the same requests give byte-identical responses, so
cassettes recorded from the simulator are reproducible. Fault state (a 429 the first
time a request arrives) lives in the server: restart it for a fresh recording.

On start it prints shell exports that point the clients at it; their keys are
long enough for record --backend live, which then records from the simulator.

--env starts the server in the background instead (its own session, its log and
pid file under the cache folder: $SEARCHBENCH_CACHE_DIR/sim, else
~/.cache/searchbench/sim), waits until it listens and prints only the export
lines, with SEARCHBENCH_SIM_PID, so that eval "$(searchbench sim --env)" returns
at once. --stop stops the server --env started on --addr.`,
		Example: `  eval "$(searchbench sim --env)"
  searchbench record --backend live --variant seed --filter dataset:routing
  searchbench sim --stop`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return simRun(c.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Addr, "addr", DefaultAddr, "loopback `host:port` to listen on (port 0 picks a free port)")
	opts.Variant.Register(cmd.Flags(), false)
	cmd.Flags().StringVar(&opts.Policy, "sim-policy", "", "scripted `policy` that answers (default: the variant's own, if it has one)")
	cmd.Flags().BoolVarP(&opts.Verbose, "verbose", "v", false, "log one line per request to standard error")
	cmd.Flags().BoolVar(&opts.Env, "env", false, "start the server in the background and print only the export lines (for eval \"$(searchbench sim --env)\")")
	cmd.Flags().BoolVar(&opts.Stop, "stop", false, "stop the server that --env started on --addr")
	cmd.MarkFlagsMutuallyExclusive("env", "stop")
	return cmd
}

// simRun serves until ctx is done.
func simRun(ctx context.Context, opts *Options) error {
	host, _, err := net.SplitHostPort(opts.Addr)
	if err != nil {
		return cmdutil.Usagef("--addr %q: %v", opts.Addr, err)
	}
	if !loopback(host) {
		return cmdutil.Usagef("--addr %q: the simulator only listens on loopback (127.0.0.1, localhost or [::1])", opts.Addr)
	}
	if opts.Stop {
		return stopBackground(ctx, opts)
	}
	v, _, err := opts.Variant.Load()
	if err != nil {
		return err
	}
	policy, err := variant.Policy(v, opts.Policy)
	if err != nil {
		return err
	}
	if opts.Env {
		return startBackground(ctx, opts, policy)
	}
	so := simsrv.Options{Policy: policy, Prompts: v.Prompts}
	if opts.Verbose {
		so.Logf = func(format string, args ...any) {
			fmt.Fprintf(opts.IO.ErrOut, "sim: "+format+"\n", args...)
		}
	}
	srv, err := simsrv.New(so)
	if err != nil {
		return cmdutil.Usage(err)
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return cmdutil.Infra(fmt.Errorf("listening on %s: %w", opts.Addr, err))
	}
	base := "http://" + ln.Addr().String()
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()

	fmt.Fprintf(opts.IO.ErrOut, "searchbench sim: serving on %s (policy %q; the simulator does not read prompts); interrupt to stop\n", base, policy)
	for _, kv := range Env(base, os.Getpid()) {
		fmt.Fprintf(opts.IO.Out, "export %s\n", kv)
	}
	if opts.Ready != nil {
		opts.Ready(base)
	}

	select {
	case err := <-errc:
		return cmdutil.Infra(fmt.Errorf("serving on %s: %w", base, err))
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		// A connection that never sent a request (a probe of the port, as
		// sim --stop makes while it waits) is not idle to Shutdown for its
		// first seconds: close what is left rather than fail the stop.
		if err := hs.Close(); err != nil {
			return cmdutil.Infra(fmt.Errorf("stopping the simulator: %w", err))
		}
	}
	fmt.Fprintln(opts.IO.ErrOut, "searchbench sim: stopped")
	return nil
}

// Env returns the NAME=value settings that point the orchestrator's
// clients at a simulator at base. The keys are placeholders (the simulator
// accepts any key), each at least vcr.MinSecretLen bytes so that record
// --backend live accepts them as it would real keys. They carry the
// server's pid, so that an environment still holding an earlier
// simulator's keys (which every output scrubs as secrets) never matches
// them.
func Env(base string, pid int) []string {
	base = strings.TrimRight(base, "/")
	return []string{
		llm.EnvBaseURL + "=" + base + "/v1",
		llm.EnvAPIKey + fmt.Sprintf("=sim-cerebras-key-%d", pid),
		search.EnvTavilyBaseURL + "=" + base + "/tavily",
		search.EnvTavilyAPIKey + fmt.Sprintf("=tvly-sim-key-%d", pid),
		search.EnvExaBaseURL + "=" + base + "/exa",
		search.EnvExaAPIKey + fmt.Sprintf("=exa-sim-key-%d", pid),
	}
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
