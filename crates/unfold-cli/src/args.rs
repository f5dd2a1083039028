//! The command line's arguments (clap): every command, its arguments and their help text.

use std::ffi::OsStr;
use std::path::PathBuf;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Parser, Subcommand};
use unfold_application::comparisons::{RelayAttachment, SourceUse};
use unfold_application::sources::SourceReach;
use unfold_application::AppResult;

/// Design prompt templates with progressive disclosure and compare how adapters run them.
#[derive(Debug, Parser)]
#[command(name = "unfold", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check any file Unfold reads (templates, scenarios, suites, provider profiles, prices,
    /// cassettes); prints one line per problem: FILE: /json/pointer: what is wrong
    Validate {
        /// The files, each checked as the kind it declares.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print the prompt a model is shown for a template
    Render {
        /// The template file.
        template: PathBuf,
        /// Show a section (dotted path) in full, as reading it would.
        #[arg(long = "expand", value_name = "PATH")]
        expand: Vec<String>,
        /// Set a parameter.
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
        /// Override the template's disclosure protocol.
        #[arg(long, value_name = "read_section|open_sections|mixed")]
        disclosure: Option<unfold_documents::template::Disclosure>,
        /// Override the template's heading style.
        #[arg(long, value_name = "plain|keyed")]
        heading: Option<unfold_documents::template::HeadingStyle>,
        /// Print {"markdown", "tools", "prompt_tokens", "tool_tokens"} instead of the markdown.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        sources: ConsentFlags,
    },
    /// Make a template of files in another format: a folder of Agent Skills (`skills`)
    Import {
        #[command(subcommand)]
        source: ImportSource,
    },
    /// Write a template in another tool's format: a promptfoo config with a test per scenario
    /// (`promptfoo`; with --through-unfold, its provider runs each whole conversation through
    /// Unfold), a Langfuse chat prompt (`langfuse`), or a folder of Agent Skills (`skills DIR`:
    /// a skill per top-level section, a skill's files' section into its folder, byte for byte
    /// what `import skills` read when unchanged)
    Export {
        /// The template file.
        template: PathBuf,
        /// The format.
        #[arg(long = "to", value_name = "promptfoo|langfuse|skills")]
        format: ExportTarget,
        /// With --to skills: the folder to write the skills in (new or empty, else --force).
        #[arg(value_name = "DIR", conflicts_with = "output")]
        folder: Option<PathBuf>,
        /// With --to skills: write into a folder that holds files, over the files the skills hold
        /// (the others stay).
        #[arg(long)]
        force: bool,
        /// A scenario to export as a test, for the formats that take tests (promptfoo): its
        /// parameters and user message, and assertions on the tools its first step calls.
        #[arg(long = "scenario", value_name = "SCENARIO")]
        scenarios: Vec<PathBuf>,
        /// The promptfoo provider the tests run on [default: openai:chat:gpt-4.1-mini]; with
        /// --through-unfold, the provider profile whose real model the conversations run on
        /// [default: each scenario's script].
        #[arg(long, value_name = "ID")]
        provider: Option<String>,
        /// With --through-unfold and --provider: the profile file (default: $UNFOLD_PROVIDERS,
        /// else ~/.config/unfold/providers.json, when promptfoo runs).
        #[arg(long, value_name = "FILE", requires_all = ["provider", "through_unfold"])]
        providers: Option<PathBuf>,
        /// promptfoo: its provider runs each scenario's whole conversation through this `unfold`
        /// (`unfold compare … --promptfoo`), so the assertions see the final answer and the tool
        /// trajectory; the provider's file (unfold-promptfoo-provider.mjs) is written beside the
        /// config.
        #[arg(long)]
        through_unfold: bool,
        /// With --through-unfold: the lanes, a promptfoo provider each, separated by commas (as
        /// `compare --adapters` names them).
        #[arg(long, value_delimiter = ',', default_value = "dynamic,restart", value_parser = LaneChoice,
              requires = "through_unfold")]
        adapters: Vec<String>,
        /// The file to write (with --to skills, the folder).
        #[arg(short = 'o', long = "output", value_name = "PATH")]
        output: Option<PathBuf>,
    },
    /// Run suites (`*.suite.json`): every case compared, its expectations checked; exit 0 when all
    /// hold, 1 when one does not, 2 on bad input
    Test {
        /// The suite files.
        #[arg(required = true)]
        suites: Vec<PathBuf>,
        /// Also write the JUnit XML CI dashboards read: a testcase per case, a failure per failed one.
        #[arg(long, value_name = "FILE")]
        junit: Option<PathBuf>,
        /// Run every N-th case only, starting with the K-th (1-based), over the suites in order: the
        /// shards of a CI matrix together run every case once. A case with `repeat` runs on every
        /// shard instead, each its share of the repetitions (r with (r - 1) mod N = K - 1), into a
        /// partial study in --study-dir; `unfold study merge` of the N files is the whole study.
        #[arg(long, value_name = "K/N")]
        shard: Option<unfold_application::suites::Shard>,
        /// Keep each repeated case's study in DIR as it runs: NAME.study.jsonl, or under --shard
        /// NAME.shard-K-of-N.study.jsonl (the case's name, spaces and signs made `-`).
        #[arg(long, value_name = "DIR")]
        study_dir: Option<PathBuf>,
        /// Run every case against a real model, this provider profile's, as `compare --provider`
        /// does: no all-FULL baseline runs (expectations of it fail), priced as the profile's model.
        #[arg(long, value_name = "PROFILE", conflicts_with = "otel")]
        provider: Option<String>,
        /// The profile file (default: $UNFOLD_PROVIDERS, else ~/.config/unfold/providers.json).
        #[arg(long, value_name = "FILE", requires = "provider")]
        providers: Option<PathBuf>,
        #[command(flatten)]
        trace: TraceFile,
    },
    /// Replay a scenario under adapters (dynamic and restart unless told) and an all-FULL
    /// baseline; show them side by side
    Compare {
        /// The template file.
        template: PathBuf,
        /// The scenario file.
        scenario: PathBuf,
        /// Lanes to run, in order, separated by commas: adapters, and hosts (host:NAME of `unfold
        /// hosts list`, or host: and a .host.json file). Every run after the first is set against
        /// the first.
        #[arg(long, value_delimiter = ',', default_value = "dynamic,restart", value_parser = LaneChoice)]
        adapters: Vec<String>,
        /// Print the comparison report as JSON.
        #[arg(long)]
        json: bool,
        /// Print the comparison as Markdown to paste into a pull request or a doc: the verdict,
        /// each lane beside the all-FULL baseline, the first divergence.
        #[arg(long, conflicts_with = "json")]
        markdown: bool,
        /// Print the first lane's run as promptfoo's provider response, what the provider of
        /// `export --to promptfoo --through-unfold` reads: {"output": the final answer,
        /// "tokenUsage", "cost", "metadata": {"lane", "status", "final", "error", "tool_calls":
        /// [{"name", "args", "success", "attempt"}], "sections_read", "counters", "cost_usd"}}.
        #[arg(long, conflicts_with_all = ["json", "markdown", "repeat"])]
        promptfoo: bool,
        /// Also write the OpenAI chat request body of every model call, one JSON file per call
        /// (`dynamic-call-001.json`, …, `baseline-call-001.json`), into this new or empty folder.
        #[arg(long, value_name = "DIR")]
        requests: Option<PathBuf>,
        /// The API whose shape the request bodies are written in.
        #[arg(
            long,
            value_name = "openai-chat|openai-responses|anthropic",
            default_value = "openai-chat",
            requires = "requests"
        )]
        api: unfold_engine::request_shapes::RequestShape,
        /// Price every run as if this model had answered it; default: the prices'
        /// `default_model` (prices: Unfold's, overridden by $UNFOLD_PRICES, else
        /// ~/.config/unfold/prices.json).
        #[arg(long, value_name = "MODEL", conflicts_with = "provider")]
        price_as: Option<String>,
        /// Run every lane against a real model, this provider profile's: the scenario's user turns
        /// are sent and its tool results answer the tools, its script is not used; no all-FULL
        /// baseline runs (it would be paid for). Priced as the profile's model.
        #[arg(long, value_name = "PROFILE")]
        provider: Option<String>,
        /// The profile file (default: $UNFOLD_PROVIDERS, else ~/.config/unfold/providers.json).
        #[arg(long, value_name = "FILE", requires = "provider")]
        providers: Option<PathBuf>,
        /// Run a study: the comparison N times, the lanes taking turns at running first (a live
        /// conversation's prompts each start with a nonce of their own), told as statistics per
        /// lane and per pair of lanes (spec 14); --json prints the `unfold.study` report.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(unfold_application::studies::MAX_REPEAT)),
              conflicts_with_all = ["markdown", "requests"])]
        repeat: Option<u32>,
        /// With --repeat: run the first lane once more per repetition, as its own control; a
        /// difference no larger than the control's is called noise.
        #[arg(long, requires = "repeat")]
        aa: bool,
        /// With --repeat: the seed of the bootstrap intervals.
        #[arg(long, value_name = "SEED", default_value_t = 1, requires = "repeat")]
        seed: u64,
        /// With --repeat and --provider: stop before a repetition whose estimated cost would take
        /// the study past this many US dollars (the first is estimated from the scenario's script
        /// priced as the live model).
        #[arg(long, value_name = "USD", requires_all = ["repeat", "provider"])]
        max_cost: Option<f64>,
        /// With --repeat: keep the study in this new file as each repetition ends (a live study is
        /// kept in the data folder's studies/ unless this says where).
        #[arg(long, value_name = "FILE", requires = "repeat", conflicts_with = "resume")]
        study_file: Option<PathBuf>,
        /// With --repeat: go on with the study kept in FILE, running only the repetitions it
        /// lacks (the same command that began it, and this flag).
        #[arg(long, value_name = "FILE", requires = "repeat")]
        resume: Option<PathBuf>,
        /// With --repeat: run only shard I of N, the repetitions r with (r - 1) mod N = I - 1, into
        /// the partial study --study-file names (`unfold study merge` combines the N of them).
        #[arg(long, value_name = "I/N", requires = "repeat", value_parser = shard)]
        shard: Option<[u32; 2]>,
        /// With --repeat: run up to J repetitions at once (a live model's requests keep one pace:
        /// a wait the server asks of one holds them all).
        #[arg(long, value_name = "J", default_value_t = 1, requires = "repeat",
              value_parser = clap::value_parser!(u32).range(1..=64))]
        jobs: u32,
        /// Real agent hosts to run after the lanes, separated by commas (`unfold hosts list`):
        /// each is a lane `real:NAME`, set against the first lane like the others.
        #[arg(long, value_delimiter = ',', value_name = "HOST,...")]
        hosts: Vec<String>,
        /// Allow starting the hosts named by --hosts as they are defined now (kept until that
        /// changes); without it, a host must have been allowed before.
        #[arg(long, requires = "hosts")]
        allow_host: bool,
        #[command(flatten)]
        sources: ConsentFlags,
        #[command(flatten)]
        relay: RelayAttach,
        #[command(flatten)]
        trace: TraceFile,
    },
    /// Fork a run at one of its events (spec 15): the conversation before the event as recorded
    /// (the model is not asked for it), a change there, and each lane going on from it; the report
    /// names its parent, and a kept run's fork is kept as its child
    Fork {
        /// The run: its id in the history (`unfold history`), or a comparison report's file
        /// (`unfold compare --json`; name the lane with --lane).
        run: String,
        /// The event to fork at, by its number (`unfold history show ID` numbers them): the events
        /// before it are kept as recorded.
        #[arg(long, value_name = "SEQ")]
        at: u32,
        /// With a report file: the lane whose run is forked.
        #[arg(long, value_name = "LANE")]
        lane: Option<String>,
        /// Answer the tool call CALL_ID (at or after the event; `history show` names the calls)
        /// with this JSON instead (@FILE: the JSON in a file), each time it is made after the event.
        #[arg(long = "result", value_name = "CALL_ID=JSON")]
        results: Vec<String>,
        /// Read this section at the event, before the model's next answer of its own.
        #[arg(long, value_name = "KEY")]
        expand: Vec<String>,
        /// The lanes that go on from the event, separated by commas (adapters and host:NAME);
        /// default: the parent's lane (with --hosts: none).
        #[arg(long, value_delimiter = ',', value_parser = LaneChoice)]
        adapters: Vec<String>,
        /// Real agent hosts that go on from the event, separated by commas (`unfold hosts list`):
        /// each a lane `real:NAME`, its model's first answers the recording's.
        #[arg(long, value_delimiter = ',', value_name = "HOST,...")]
        hosts: Vec<String>,
        /// Allow starting the hosts named by --hosts as they are defined now (kept until that
        /// changes); without it, a host must have been allowed before.
        #[arg(long, requires = "hosts")]
        allow_host: bool,
        /// The template, when not the file the kept run names (a report's run names none).
        #[arg(long, value_name = "FILE")]
        template: Option<PathBuf>,
        /// The scenario, when not the file the kept run names.
        #[arg(long, value_name = "FILE")]
        scenario: Option<PathBuf>,
        /// Go on with a real model, this provider profile's, after the event.
        #[arg(long, value_name = "PROFILE")]
        provider: Option<String>,
        /// The profile file (default: $UNFOLD_PROVIDERS, else ~/.config/unfold/providers.json).
        #[arg(long, value_name = "FILE", requires = "provider")]
        providers: Option<PathBuf>,
        /// Price a scripted fork as if this model had answered it.
        #[arg(long, value_name = "MODEL", conflicts_with = "provider")]
        price_as: Option<String>,
        /// Print the fork's comparison report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Run a template with a real model (a provider profile); prints each event as it happens
    Run {
        /// The template file.
        template: PathBuf,
        /// The provider profile's name.
        #[arg(long, value_name = "PROFILE")]
        provider: String,
        /// The profile file (default: $UNFOLD_PROVIDERS, else ~/.config/unfold/providers.json).
        #[arg(long, value_name = "FILE")]
        providers: Option<PathBuf>,
        /// Use this model instead of the profile's.
        #[arg(long)]
        model: Option<String>,
        /// The user's message; give it again for each later turn, in order (each is sent once the
        /// model has answered the one before).
        #[arg(long, required = true)]
        user: Vec<String>,
        /// The adapter.
        #[arg(long, default_value = "dynamic", value_parser = adapter())]
        adapter: unfold_engine::AdapterKind,
        /// Set a parameter.
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
        /// Stop after this many model calls (default 32).
        #[arg(long, value_name = "N")]
        max_model_calls: Option<u32>,
        /// Print {"kind": "unfold.run", "provider", "run": {status, final, counters, events}} instead.
        #[arg(long)]
        json: bool,
        /// Record the run (every request and answer, no key) into this cassette file.
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
        #[command(flatten)]
        sources: ConsentFlags,
        #[command(flatten)]
        relay: RelayAttach,
        #[command(flatten)]
        trace: TraceFile,
    },
    /// Run a template again as a cassette recorded it, without the network; fails at the first
    /// request that differs from the recorded one
    Replay {
        /// The template file.
        template: PathBuf,
        /// The cassette (`unfold run --record`).
        cassette: PathBuf,
        /// Print the run's report as JSON.
        #[arg(long)]
        json: bool,
        /// The template's sources answer live instead of from the cassette.
        #[command(flatten)]
        sources: ConsentFlags,
        #[command(flatten)]
        trace: TraceFile,
    },
    /// List the kept runs (scripted and live, from the app too), newest first; show or compare them
    History {
        #[command(subcommand)]
        action: Option<HistoryAction>,
        /// Only runs of the template with this key.
        #[arg(long)]
        template: Option<String>,
        /// Only runs with this provider (`scripted`, or a profile's name).
        #[arg(long)]
        provider: Option<String>,
        /// Only runs under this adapter.
        #[arg(long, value_parser = adapter())]
        adapter: Option<unfold_engine::AdapterKind>,
        /// Only runs that ended so.
        #[arg(long, value_parser = OneOf { all: &unfold_engine::RunStatus::ALL, name: unfold_engine::RunStatus::name })]
        status: Option<unfold_engine::RunStatus>,
        /// At most this many runs.
        #[arg(long, default_value_t = 50)]
        limit: u32,
        /// Print JSON.
        #[arg(long, global = true)]
        json: bool,
    },
    /// Keep or forget a provider profile's API key in the OS keychain (for profiles with
    /// "api_key_keychain": true)
    Key {
        #[command(subcommand)]
        action: KeyAction,
    },
    /// Turn a recorded run into a scenario: its tool calls and answer become the script, its tool
    /// results the `tool_results`; `unfold compare` then replays it under both adapters
    ToScenario {
        /// The template file.
        template: PathBuf,
        /// The cassette (`unfold run --record`).
        cassette: PathBuf,
        /// Write the scenario here instead of printing it.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// The agent hosts a lane can behave as (`--adapters host:NAME`): when each shows the model a
    /// new tool, and the evidence for it
    Hosts {
        #[command(subcommand)]
        action: HostsAction,
    },
    /// The tools a template's sources (MCP servers, relay plugins) offer, and their snapshots
    Sources {
        #[command(subcommand)]
        action: SourcesAction,
    },
    /// Run a real agent host against a template and a scenario (the host lab)
    Host {
        #[command(subcommand)]
        action: HostAction,
    },
    /// Serve a template to an agent host over MCP (the host lab)
    Mcp {
        #[command(subcommand)]
        action: McpAction,
    },
    /// Studies kept in files (`compare --repeat … --study-file`)
    Study {
        #[command(subcommand)]
        action: StudyAction,
    },
    /// Serve a scripted model to an agent host (the host lab)
    Model {
        #[command(subcommand)]
        action: ModelAction,
    },
    /// Serve the plugin relay on this machine (127.0.0.1) until Ctrl+C: plugins open sessions and
    /// register and update their tools
    Relay {
        /// The port to listen on (0: any free port).
        #[arg(long, default_value_t = unfold_application::relay::DEFAULT_PORT)]
        port: u16,
        /// Let the pages of this web origin use the relay (e.g. https://codap.concord.org); no web
        /// page may otherwise. Repeatable.
        #[arg(long = "allow-origin", value_name = "ORIGIN")]
        allow_origins: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum ImportSource {
    /// A folder of Agent Skills (a subfolder with a SKILL.md each) as a template: a summarized
    /// section per skill (its description, then its body on read), a summarized child per file its
    /// body names, a tool per script under scripts/ (with a scripted result)
    Skills {
        /// The folder that holds the skills' folders.
        dir: PathBuf,
        /// The template file to write.
        #[arg(short = 'o', long = "output", value_name = "TEMPLATE")]
        output: PathBuf,
        /// Write over the template file if there is one.
        #[arg(long)]
        force: bool,
    },
}

/// What `export --to` writes: another tool's format, or a folder of Agent Skills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportTarget {
    Format(unfold_application::template_exports::ExportFormat),
    Skills,
}

impl std::str::FromStr for ExportTarget {
    type Err = String;
    fn from_str(text: &str) -> Result<ExportTarget, String> {
        match text {
            "skills" => Ok(ExportTarget::Skills),
            other => other
                .parse()
                .map(ExportTarget::Format)
                .map_err(|_| format!("unknown format '{text}' (promptfoo, langfuse, skills)")),
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum HostAction {
    /// Run the host (`unfold hosts list`) against the template served over MCP and the
    /// scenario's scripted model (or, with --provider, a real model), in a throwaway home; print
    /// what it did as a run (kept in the history like a comparison's lanes)
    Run {
        /// The host: openai-agents, openai-agents-cached, pydantic-ai, pydantic-ai-cached, or
        /// command (the program after `--`).
        host: String,
        /// The template file.
        template: PathBuf,
        /// The scenario file.
        scenario: PathBuf,
        /// Run it this many times, one after another.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
        repeat: u32,
        /// Keep each run's recording (requests, MCP messages, output) in DIR/run-N.
        #[arg(long, value_name = "DIR")]
        record: Option<PathBuf>,
        /// Stop a run that takes longer than this many seconds.
        #[arg(long, default_value_t = 120, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=3600))]
        timeout: u64,
        /// Print the runs as a comparison report in JSON.
        #[arg(long)]
        json: bool,
        /// Allow starting the host as it is defined now (kept until that changes); without it,
        /// the host must have been allowed before.
        #[arg(long)]
        allow_host: bool,
        /// Forward each of the host's requests to this provider profile's model (a real model,
        /// of the host's API) instead of the scenario's script; both sides are recorded.
        #[arg(long, value_name = "PROFILE")]
        provider: Option<String>,
        /// The profile file (default: $UNFOLD_PROVIDERS, else ~/.config/unfold/providers.json).
        #[arg(long, value_name = "FILE", requires = "provider")]
        providers: Option<PathBuf>,
        #[command(flatten)]
        trace: TraceFile,
        /// For the command host: the program and its arguments.
        #[arg(last = true, value_name = "PROGRAM")]
        program: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum McpAction {
    /// Serve the template's tools over stdio until the host closes it (or over HTTP until Ctrl+C):
    /// `read_section` reveals a section's tools and says so with `notifications/tools/list_changed`;
    /// the other tools answer as the scenario scripts them (a source's, by the source, with
    /// --allow-sources). On stdio nothing else is written to stdout.
    Serve {
        /// The template (`*.unfold.json`).
        template: PathBuf,
        /// The scenario whose parameters and tool results the server uses.
        #[arg(long, value_name = "FILE")]
        scenario: Option<PathBuf>,
        /// Log every message the host sends, with when it arrived, to this file (JSON lines).
        #[arg(long, value_name = "FILE")]
        log: Option<PathBuf>,
        /// Serve over MCP's streamable HTTP at http://127.0.0.1:PORT/mcp instead (0: any free port).
        #[arg(long, value_name = "PORT")]
        http: Option<u16>,
        /// With --allow-sources, the template's sources answer their own tools.
        #[command(flatten)]
        sources: ConsentFlags,
    },
}

#[derive(Debug, Subcommand)]
pub enum StudyAction {
    /// The report one machine would have written, from the partial studies its shards wrote
    /// (`compare --repeat N --shard I/N --study-file FILE`, or a suite's repeated case under
    /// `test --shard I/N --study-dir DIR`, on each)
    Merge {
        /// The partial studies, one per shard.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the `unfold.study` report as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum ModelAction {
    /// Answer as the scenario's script says, on 127.0.0.1, until Ctrl+C: Anthropic Messages,
    /// OpenAI Chat Completions and Responses, Gemini; streamed or not
    Serve {
        /// The scenario (`*.scenario.json`).
        scenario: PathBuf,
        /// The port to listen on (0: any free port).
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// Log every request answered, as it came, to this file (JSON lines; no header, so no key).
        #[arg(long, value_name = "FILE")]
        log: Option<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
pub enum HostsAction {
    /// The presets Unfold ships, or the host profile files given, with their evidence
    List {
        /// Host profile files (`*.host.json`) to show instead of the presets.
        files: Vec<PathBuf>,
        /// Print JSON: the profiles as their files hold them.
        #[arg(long)]
        json: bool,
    },
    /// Run each real host (all installed but `command`, or those named) against a built-in probe,
    /// a section that reveals a tool, N times; print when the tool reached the model, whether the
    /// host listed its tools again, whether its prompt stayed a cached prefix, where it put the tool
    /// (and with --write, the host profiles that measurement makes)
    Probe {
        /// The hosts (`unfold hosts list`); none: every one installed.
        hosts: Vec<String>,
        /// Runs per host.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100))]
        repeat: u32,
        /// Stop a run that takes longer than this many seconds.
        #[arg(long, default_value_t = 120, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=3600))]
        timeout: u64,
        /// Print the matrix as JSON (`unfold.host_probe`).
        #[arg(long)]
        json: bool,
        /// Write each host's profile (NAME.host.json) into DIR with this measurement as its
        /// evidence, over the profile there (else the preset).
        #[arg(long, value_name = "DIR")]
        write: Option<PathBuf>,
        /// Allow starting the hosts as they are defined now (kept until that changes).
        #[arg(long)]
        allow_host: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum SourcesAction {
    /// Each tool with its source, tier, kind, categories and permission (the snapshots, unless
    /// --allow-sources starts the sources)
    List {
        /// The template file.
        template: PathBuf,
        #[command(flatten)]
        sources: ConsentFlags,
        /// Only tools of this kind.
        #[arg(long, value_parser = parse_kind, value_name = "read|edit|execute|other")]
        kind: Option<unfold_documents::tool::ToolKind>,
        /// Only tools with this category.
        #[arg(long)]
        category: Option<String>,
        /// Only this source's tools.
        #[arg(long)]
        source: Option<String>,
        /// The tools written in the template too (source "-", tier "written").
        #[arg(long)]
        written: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Start the template's sources and write what each lists as its snapshot (needs --allow-sources)
    Snapshot {
        /// The template file.
        template: PathBuf,
        #[command(flatten)]
        sources: ConsentFlags,
    },
}

/// `I/N` of `--shard`: shard I (from 1) of N.
fn shard(text: &str) -> Result<[u32; 2], String> {
    let parsed = text.split_once('/').and_then(|(i, n)| Some([i.trim().parse().ok()?, n.trim().parse().ok()?]));
    match parsed {
        Some([i, n]) if (1..=n).contains(&i) => Ok([i, n]),
        _ => Err(format!("'{text}' is not a shard I/N with 1 <= I <= N (1/3, 2/3, 3/3)")),
    }
}

fn parse_kind(text: &str) -> Result<unfold_documents::tool::ToolKind, String> {
    serde_json::from_value(serde_json::Value::String(text.to_owned()))
        .map_err(|_| "expected read, edit, execute or other".to_owned())
}

#[derive(Debug, Subcommand)]
pub enum KeyAction {
    /// Read the key from stdin (its first line) and keep it for PROFILE
    Set {
        /// The profile's name.
        profile: String,
    },
    /// Forget the key kept for PROFILE
    Delete {
        /// The profile's name.
        profile: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum HistoryAction {
    /// One kept run with its events
    Show {
        /// Its id (the list's first column).
        id: i64,
    },
    /// A kept run next to a baseline run: counters, deltas and the first divergence
    Compare {
        /// The baseline run's id.
        baseline: i64,
        /// The run's id.
        id: i64,
    },
}

/// One of a closed list of names (an adapter, a status), read as `T` reads it; its help lists the
/// names from the list itself (`ALL`), so that it names every one there is, however many are
/// added.
#[derive(Clone)]
struct OneOf<T: 'static> {
    all: &'static [T],
    name: fn(T) -> &'static str,
}

/// A lane as `--adapters` names it: an adapter's name, or `host:` and a host's name or file
/// (resolved when the comparison runs, where a bad file is reported at its place). Its help lists
/// the adapters from their own list.
#[derive(Clone)]
struct LaneChoice;

impl TypedValueParser for LaneChoice {
    type Value = String;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        let parse: fn(&str) -> Result<String, String> = |text| match text.strip_prefix(unfold_engine::lane::HOST_PREFIX)
        {
            Some(host) if !host.is_empty() => Ok(text.to_owned()),
            _ => text
                .parse::<unfold_engine::AdapterKind>()
                .map(|adapter| adapter.name().to_owned())
                .map_err(|unknown| format!("{unknown}, or host:NAME or host:FILE")),
        };
        parse.parse_ref(command, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let hosts = ["host:NAME", "host:FILE"].map(PossibleValue::new);
        Some(Box::new(adapter().possible_values()?.chain(hosts).collect::<Vec<_>>().into_iter()))
    }
}

/// An adapter's name.
fn adapter() -> OneOf<unfold_engine::AdapterKind> {
    OneOf { all: &unfold_engine::AdapterKind::ALL, name: unfold_engine::AdapterKind::name }
}

impl<T> TypedValueParser for OneOf<T>
where
    T: std::str::FromStr<Err = String> + Copy + Send + Sync + 'static,
{
    type Value = T;

    fn parse_ref(&self, command: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<T, clap::Error> {
        let parse: fn(&str) -> Result<T, String> = str::parse;
        parse.parse_ref(command, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.all.iter().map(|item| PossibleValue::new((self.name)(*item)))))
    }
}

/// Where a command writes its runs' trace.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TraceFile {
    /// Also write the runs' trace to this file: OTLP JSON, a line per run, following the
    /// OpenTelemetry GenAI conventions (a span per run, model call and tool call).
    #[arg(long, value_name = "FILE")]
    pub otel: Option<PathBuf>,
}

/// What the user allows of a template's tool sources on the command line.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ConsentFlags {
    /// Start the template's tool sources (their commands run, their URLs on this machine are
    /// reached); without it, their snapshots are used.
    #[arg(long)]
    pub allow_sources: bool,
    /// Let source NAME reach a URL on another machine (repeatable).
    #[arg(long = "allow-remote-source", value_name = "NAME")]
    pub allow_remote: Vec<String>,
}

impl ConsentFlags {
    /// The consent these flags give.
    pub fn consent(self) -> unfold_application::sources::Consent {
        unfold_application::sources::Consent::every_source(self.allow_sources, self.allow_remote)
    }

    /// What a comparison's lanes may reach by these flags.
    pub fn source_use(self) -> SourceUse {
        match self.allow_sources {
            true => SourceUse::Every { remote: self.allow_remote },
            false => SourceUse::Snapshots,
        }
    }
}

/// A relay session the runs are attached to.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct RelayAttach {
    /// Attach the runs to this relay session: the template's relay sources take its plugin's
    /// tools, and its updates reach the runs (the session's token from UNFOLD_RELAY_TOKEN).
    #[arg(long, value_name = "CODE")]
    pub relay_session: Option<String>,
    /// Where the relay listens.
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:7391")]
    pub relay: String,
}

impl RelayAttach {
    /// The session named, at the relay named, with its token from UNFOLD_RELAY_TOKEN.
    pub fn attachment(self) -> Result<Option<RelayAttachment>, unfold_documents::Error> {
        let Some(code) = self.relay_session else { return Ok(None) };
        let token = std::env::var("UNFOLD_RELAY_TOKEN").ok().filter(|t| !t.is_empty()).ok_or_else(|| {
            unfold_documents::Error::argument(
                "--relay-session",
                "the session's token goes in UNFOLD_RELAY_TOKEN, which is not set",
            )
        })?;
        Ok(Some(RelayAttachment::elsewhere(self.relay, code, token)))
    }

    /// What the runs may reach: the consent `sources` gives, and this session if one is named.
    pub fn access(self, sources: ConsentFlags) -> AppResult<SourceReach> {
        let relay = match self.attachment()? {
            Some(attachment) => attachment.session_elsewhere()?,
            None => None,
        };
        Ok(SourceReach { consent: sources.consent(), relay })
    }
}
