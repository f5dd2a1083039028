"""Times weakincentives (PyPI, 0.27) on an Unfold template in one process, as the whole-process
benchmark compares Unfold with it: building the prompt template from the file (a MarkdownSection
per section, a Tool per tool, with the mapping of tests/reference/make_weakincentives_refs.py),
then rendering it. Prints {"build_s": …, "render_s": …, "chars": …} as JSON.

Usage: python benches/weakincentives_render.py TEMPLATE   (heading keyed, disclosure mixed: the
only settings the library knows)
"""

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "reference"))
sys.setrecursionlimit(100_000)

from make_weakincentives_refs import build_template  # noqa: E402
from weakincentives.prompt import Prompt  # noqa: E402


def main(path: str) -> None:
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    started = time.perf_counter()
    template, params = build_template(doc)
    built = time.perf_counter()
    rendered = Prompt(template).bind(params).render()
    done = time.perf_counter()
    print(json.dumps({"build_s": built - started, "render_s": done - built, "chars": len(rendered.text)}))


if __name__ == "__main__":
    main(sys.argv[1])
