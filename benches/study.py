"""Times a scripted study as a user runs it (issue 36): `unfold compare` of the coding agent's
fix-test scenario under 4 lanes, repeated 1,000 times, as a whole process, with the history off
and on; and its peak memory at 100 and at 1,000 repetitions, to show that a study keeps a few
numbers per run and never its events. Prints one table (median and min-max of the runs).

Usage: python3 benches/study.py --unfold BIN [--runs N]
(`scripts/bench.sh --study` builds the release `unfold` and runs this.)
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "examples/coding-agent.unfold.json"
SCENARIO = ROOT / "examples/coding-agent-fix-test.scenario.json"
LANES = "dynamic,restart,allowed_tools,deferred"


def study(unfold: Path, repeat: int, history: str) -> tuple[float, float]:
    """One study as a whole process: its wall time in seconds and its peak memory in MiB."""
    argv = [str(unfold), "compare", str(TEMPLATE), str(SCENARIO), "--adapters", LANES, "--repeat", str(repeat), "--json"]
    env = dict(os.environ, UNFOLD_HISTORY=history)
    started = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    _, status, usage = os.wait4(child.pid, 0)
    took = time.perf_counter() - started
    if status != 0:
        sys.exit(f"{' '.join(argv)} failed ({status}): {child.stderr.read().decode(errors='replace')}")
    return took, usage.ru_maxrss / 1024


def row(label: str, values: list[float], unit: str) -> str:
    return f"{label:<52} {statistics.median(values):8.2f} {unit}  ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unfold", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    study(args.unfold, 10, "off")  # the file cache warmed, as a user's second run finds it
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        timed = {"off": [], "on": []}
        memory = {100: [], 1000: []}
        for run in range(args.runs):
            took, peak = study(args.unfold, 1000, "off")
            timed["off"].append(took)
            memory[1000].append(peak)
            timed["on"].append(study(args.unfold, 1000, str(Path(folder) / f"history-{run}.sqlite3"))[0])
            memory[100].append(study(args.unfold, 100, "off")[1])
    rows.append(row("study, 1,000 repetitions x 4 lanes, history off", timed["off"], "s"))
    rows.append(row("study, 1,000 repetitions x 4 lanes, history kept", timed["on"], "s"))
    rows.append(row("peak memory, 100 repetitions", memory[100], "MiB"))
    rows.append(row("peak memory, 1,000 repetitions", memory[1000], "MiB"))
    print("\n".join(rows))


if __name__ == "__main__":
    main()
