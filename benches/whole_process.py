"""Times Unfold as a user runs it: each command as a whole process, start-up included, several
times, against the previous release's build of the same commands (and, on this build only, a
comparison of the coding agent with 2 lanes and with 8, 4 of them host lanes, on 3 turns), and
weakincentives rendering the same template in one process. Prints one table (median, and min-max, in milliseconds) and the
ratios. `scripts/bench.sh` builds what this needs and runs it; see there.

With --app, it also measures the desktop app in a real webview under Xvfb
(tests/e2e/measure-editor.mjs): its size, its start to the preview drawn on the example and on
5,000 sections, and keystroke to preview on 5,000 sections (median and 99th percentile); and
(tests/e2e/measure-compare.mjs) the Compare page drawn once the coding-agent tour's report is in;
inside a D-Bus session bus as on a desktop (see `in_session_bus`).

Usage: python3 benches/whole_process.py --unfold BIN --templates DIR [--previous BIN]
           [--weakincentives-python PY] [--runs N] [--app BIN] [--previous-app BIN]
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples/task-executor.unfold.json"
SCENARIO = ROOT / "examples/read-context-then-search.scenario.json"
CODING_AGENT = ROOT / "examples/coding-agent.unfold.json"
ONE_TURN = ROOT / "examples/coding-agent-fix-test.scenario.json"
THREE_TURNS = ROOT / "benches/coding-agent-three-turns.scenario.json"
EIGHT_LANES = "dynamic,restart,allowed_tools,deferred,host:claude-code,host:codex,host:copilot-cli,host:gemini-cli"
# Figures of comparisons with many lanes (issue 33: 8 lanes on 3 turns within 4x of 2 lanes), timed
# on this build only: the previous release has neither turns nor host lanes.
LANES = [
    ("compare, coding agent, 2 lanes, 1 turn", ["compare", str(CODING_AGENT), str(ONE_TURN), "--adapters", "dynamic,restart"]),
    ("compare, coding agent, 2 lanes, 3 turns", ["compare", str(CODING_AGENT), str(THREE_TURNS), "--adapters", "dynamic,restart"]),
    ("compare, coding agent, 8 lanes, 3 turns", ["compare", str(CODING_AGENT), str(THREE_TURNS), "--adapters", EIGHT_LANES]),
]


def commands(templates: Path) -> list[tuple[str, list[str], float | None]]:
    """(figure, arguments, goal in ms) for every command timed."""
    return [
        ("render --json, 10,000 sections", ["render", str(templates / "bench-10000.unfold.json"), "--json"], 30.0),
        ("render --json, 100 sections", ["render", str(templates / "bench-100.unfold.json"), "--json"], None),
        ("render, 10,000 sections (keyed, mixed)", ["render", str(templates / "bench-10000-keyed.unfold.json")], None),
        ("validate, 10,000 sections", ["validate", str(templates / "bench-10000.unfold.json")], None),
        ("compare, the example", ["compare", str(EXAMPLE), str(SCENARIO)], 30.0),
    ]


def time_once(argv: list[str]) -> float:
    env = dict(os.environ, UNFOLD_HISTORY="off")
    started = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    took = (time.perf_counter() - started) * 1000
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    return took


def measure(binaries: list[Path], args: list[str], runs: int) -> list[list[float]]:
    """Each binary's times, the binaries taking turns so that neither gets the quieter moments."""
    for binary in binaries:
        time_once([str(binary), *args])  # the file cache warmed, as a user's second run finds it
    times: list[list[float]] = [[] for _ in binaries]
    for _ in range(runs):
        for index, binary in enumerate(binaries):
            times[index].append(time_once([str(binary), *args]))
    return times


def figure(times: list[float]) -> str:
    return f"{statistics.median(times):8.1f} ({min(times):.1f}-{max(times):.1f})"


def ratio(now: list[float], before: list[float]) -> str:
    return f"{statistics.median(before) / statistics.median(now):5.1f}x"


def weakincentives(python: str, template: Path, runs: int) -> dict[str, list[float]]:
    script = ROOT / "benches/weakincentives_render.py"
    found: dict[str, list[float]] = {"build_s": [], "render_s": []}
    for _ in range(runs):
        out = subprocess.run([python, str(script), str(template)], capture_output=True, text=True, check=True)
        figures = json.loads(out.stdout)
        for key in found:
            found[key].append(figures[key] * 1000)
    return found


def in_session_bus(argv: list[str]) -> list[str]:
    """`argv` run inside a D-Bus session bus of its own when there is none, as on a desktop. A
    desktop always has one; on a headless machine without it, GLib forks `dbus-launch` at each
    attempt to reach it as the app starts (GTK's accessibility bridge, the application's name),
    some 15 ms of a start that no user pays. The accessibility bus it starts stays up for the
    later starts, as on a desktop."""
    if os.environ.get("DBUS_SESSION_BUS_ADDRESS") or shutil.which("dbus-run-session") is None:
        return argv
    return ["dbus-run-session", "--", *argv]


def measured(app: str, script: str, *args: str) -> list[dict]:
    """The JSON figures tests/e2e/`script` prints of `app`."""
    argv = ["node", str(ROOT / "tests/e2e" / script), "--json", *args]
    out = subprocess.run(in_session_bus(argv), capture_output=True, text=True, env=dict(os.environ, UNFOLD_APP=app), cwd=ROOT)
    if out.returncode != 0:
        sys.exit(f"measuring {app} with {script} failed ({out.returncode}):\n{out.stderr}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def app_figures(app: str, templates: Path) -> dict[str, dict]:
    """measure-editor.mjs's figures of `app` by template file name, and measure-compare.mjs's as "compare"."""
    editor = measured(app, "measure-editor.mjs", str(EXAMPLE), str(templates / "bench-5000.unfold.json"))
    figures = {figure["template"]: figure for figure in editor}
    figures["compare"] = measured(app, "measure-compare.mjs")[0]
    return figures


def app_rows(now: dict[str, dict], before: dict[str, dict] | None) -> list[tuple[str, str, str, str]]:
    """(figure, this build, previous, goal) for the app's rows."""
    example, big = EXAMPLE.name, "bench-5000.unfold.json"
    rows = [
        ("app: start to preview, the example", example, "start_to_preview_ms", "< 500"),
        ("app: start to preview, 5,000 sections", big, "start_to_preview_ms", ""),
        ("app: keystroke to preview p50, 5,000", big, "keystroke_p50_ms", "< 20"),
        ("app: keystroke to preview p99, 5,000", big, "keystroke_p99_ms", "< 50"),
        ("app: compare drawn after the tour, p50", "compare", "answered_to_drawn_p50_ms", "< 100"),
        ("app: compare drawn after the tour, max", "compare", "answered_to_drawn_max_ms", ""),
    ]
    return [
        (name, f"{now[template][key]:8.1f}", f"{before[template][key]:8.1f}" if before else "-", goal)
        for name, template, key, goal in rows
    ]


def size_mb(path: str | None) -> str:
    return f"{Path(path).stat().st_size / 1e6:.1f} MB" if path else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unfold", type=Path, required=True)
    parser.add_argument("--previous", type=Path)
    parser.add_argument("--templates", type=Path, required=True)
    parser.add_argument("--weakincentives-python")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--app")
    parser.add_argument("--previous-app")
    args = parser.parse_args()
    binaries = [args.unfold] + ([args.previous] if args.previous else [])

    print(f"Whole processes, {args.runs} runs each after a warm-up; milliseconds, median (min-max).")
    columns = [f"{'figure':40}", f"{'this build':24}"]
    if args.previous:
        columns += [f"{'previous release':24}", f"{'faster':6}"]
    columns.append("goal")
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    unfold_keyed = None
    for name, argv, goal in commands(args.templates):
        times = measure(binaries, argv, args.runs)
        row = f"| {name:40} | {figure(times[0]):24} |"
        if args.previous:
            row += f" {figure(times[1]):24} | {ratio(times[0], times[1]):6} |"
        print(row + (f" <= {goal:.0f} |" if goal else "      |"), flush=True)
        if name.startswith("render, 10,000 sections (keyed"):
            unfold_keyed = times[0]
    lanes = {name: measure([args.unfold], argv, args.runs)[0] for name, argv in LANES}
    for name, times in lanes.items():
        print(f"| {name:40} | {figure(times):24} |" + (" " * 27 + "|" + " " * 8 + "|" if args.previous else "") + "      |",
              flush=True)
    print(f"| {'size of unfold (the CLI)':40} | {size_mb(str(args.unfold)):24} |"
          + (f" {size_mb(str(args.previous)):24} |        |" if args.previous else "") + "      |")
    if args.app:
        print(f"| {'size of unfold-app':40} | {size_mb(args.app):24} |"
              + (f" {size_mb(args.previous_app):24} |        |" if args.previous else "") + " < 15 MB |")
        now = app_figures(args.app, args.templates)
        before = app_figures(args.previous_app, args.templates) if args.previous_app else None
        for name, this, previous, goal in app_rows(now, before):
            print(f"| {name:40} | {this:24} |" + (f" {previous:24} |        |" if args.previous else "")
                  + f" {goal:5} |", flush=True)

    eight = statistics.median(lanes[LANES[2][0]])
    print()
    print(f"8 lanes on 3 turns take {eight / statistics.median(lanes[LANES[0][0]]):.1f}x as long as 2 lanes on 1 turn, "
          f"{eight / statistics.median(lanes[LANES[1][0]]):.1f}x as 2 lanes on the same 3 turns (goal: within 4x).")

    if args.weakincentives_python and unfold_keyed is not None:
        wi = weakincentives(args.weakincentives_python, args.templates / "bench-10000-keyed.unfold.json", max(3, args.runs // 5))
        print()
        print("weakincentives 0.27.0 on the same 10,000 sections (keyed, mixed), in one Python process:")
        print(f"  build the template: {figure(wi['build_s'])} ms")
        print(f"  render it:          {figure(wi['render_s'])} ms")
        print(f"  Unfold's whole process ({figure(unfold_keyed).strip()} ms) against weakincentives' render alone: "
              f"{statistics.median(wi['render_s']) / statistics.median(unfold_keyed):.1f}x faster; "
              f"against its build and render: "
              f"{(statistics.median(wi['build_s']) + statistics.median(wi['render_s'])) / statistics.median(unfold_keyed):.1f}x")


if __name__ == "__main__":
    main()
