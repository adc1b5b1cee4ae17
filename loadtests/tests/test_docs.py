"""The docs checked like code: every relative link resolves (to its heading too), every port a doc
gives a local address is one the repository serves on, every code file a doc names exists;
docs/method.md's tables of the ladder's rates and the profiles' warm-up timing are the code's, and
it stays a page of rules."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from bench import paths, postgres, upstream
from bench.profiles import OPEN_TIMING
from bench.scenarios import SCENARIOS

ROOT = paths.ROOT
# What a newcomer reads; the experiments' READMEs are dated reports, kept as they were written.
DOCS = sorted(
    {
        ROOT / "README.md",
        ROOT / "CONTRIBUTING.md",
        ROOT / "loadtests" / "README.md",
        ROOT / "results" / "changelog.md",
        *(ROOT / "docs").glob("*.md"),
        *(ROOT / "spec").glob("*.md"),
        *(d / "README.md" for d in ROOT.iterdir() if (d / "impl.toml").is_file()),
    }
)
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
ADDRESS = re.compile(r"\b(?:127\.0\.0\.1|localhost):(\d{2,5})\b")
CHOSEN_PORT = re.compile(r"--port[ =](\d{2,5})\b")
CODE_PATH = re.compile(r"`((?:[\w.-]+/)+[\w.-]+\.(?:py|js|toml|md|ya?ml|sql|sh|conf|json|txt))`")
CONTAINER_PORT = 8080
# docs/method.md holds today's rules, each with a line of why: what chose a rule goes to
# docs/rationale.md or an experiment's README, and the methods' history to results/changelog.md.
METHOD_MOST_LINES = 450


def slugs(markdown: str) -> set[str]:
    """The anchors GitHub gives the headings of `markdown` (a repeated one gets -1, -2, ...)."""
    seen: Counter[str] = Counter()
    found = set()
    for line in markdown.splitlines():
        heading = re.match(r"#{1,6} (.+)", line)
        if not heading:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
        found.add(f"{slug}-{seen[slug]}" if seen[slug] else slug)
        seen[slug] += 1
    return found


def link_problems(doc: Path, text: str) -> list[str]:
    problems = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        where = (doc.parent / path).resolve() if path else doc
        if not where.exists():
            problems.append(f"{target}: no such file")
        elif anchor and where.suffix == ".md" and anchor not in slugs(where.read_text()):
            problems.append(f"{target}: no heading #{anchor} in {where.name}")
    return problems


def served_ports() -> set[int]:
    """compose.yaml's host ports, the port every stack listens on inside its container, the stock
    upstream's and the runner's PostgreSQL's defaults, and the system PostgreSQL's."""
    compose = (ROOT / "compose.yaml").read_text()
    published = {int(host) for host in re.findall(r'"(\d+):\d+"', compose)}
    return published | {CONTAINER_PORT, upstream.DEFAULT_PORT, postgres.DEFAULT_PORT, 5432}


def port_problems(text: str, served: set[int]) -> list[str]:
    chosen = {int(port) for port in CHOSEN_PORT.findall(text)}
    return [f"port {port}: nothing serves it" for port in ADDRESS.findall(text) if int(port) not in served | chosen]


STACKS = [d for d in ROOT.iterdir() if (d / "impl.toml").is_file()]
# A path with a placeholder (NAME, SCENARIO, runN) stands for many files, and .bench/ and a
# stack's build outputs hold what a run or a build writes: none names a file of the repository.
PLACEHOLDER = re.compile(r"[A-Z]{3,}|run[A-Z]\b|^(?:\.bench|target|node_modules|dist|build)/")


def file_problems(doc: Path, text: str) -> list[str]:
    """A code file a doc names in backticks, under a directory the repository has (a stack a
    guide invents, such as CONTRIBUTING.md's example, has none), that is not there: from the
    repository's root, loadtests/, the doc's own directory, or a stack's (a convention names one
    stack's file for all)."""
    problems = []
    for name in CODE_PATH.findall(text):
        if PLACEHOLDER.search(name):
            continue
        top = name.split("/", 1)[0]
        bases = [base for base in (ROOT, ROOT / "loadtests", doc.parent, *STACKS) if (base / top).is_dir()]
        if bases and not any((base / name).exists() for base in bases):
            problems.append(f"{name}: no such file")
    return problems


def _table(text: str, heading: str) -> list[list[str]]:
    """The rows of the first table whose heading row starts with `heading`."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _numbers(cell: str) -> list[float]:
    return [float(n.replace(",", "")) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", cell)]


def table_problems(method: str) -> list[str]:
    """The ladder's table (objective, rates, warm rate per scenario) and the profiles' table
    (warm-up window and cap) of docs/method.md against the code's."""
    problems = []
    for scenario, objective, rates, warm in _table(method, "| scenario | p99 objective |"):
        spec = SCENARIOS.get(scenario)
        if spec is None:
            problems.append(f"the ladder's table: no scenario {scenario}")
            continue
        said = (_numbers(objective), _numbers(rates), _numbers(warm))
        code = ([spec.objective_ms], [float(r) for r in spec.rates], [float(spec.warm_rate)])
        if said != code:
            problems.append(f"the ladder's table, {scenario}: {said} where the code has {code}")
    for profile, warm_up, *_ in _table(method, "| profile | steady state: windows, cap |"):
        timing = OPEN_TIMING.get(profile.strip("`").split()[0].strip("`"))
        if timing is None:
            problems.append(f"the profiles' table: no profile {profile}")
            continue
        windows = _numbers(warm_up)[:2]
        timed = [float(timing.window_s), float(timing.warmup_cap_s(jvm=False))]
        if windows != timed:
            problems.append(f"the profiles' table, {profile}: windows and cap {windows} where the code has {timed}")
    return problems


def problems_of(doc: Path, text: str, served: set[int]) -> list[str]:
    found = link_problems(doc, text) + port_problems(text, served) + file_problems(doc, text)
    if doc == ROOT / "docs" / "method.md":
        found += table_problems(text)
        lines = len(text.splitlines())
        if lines > METHOD_MOST_LINES:
            found.append(
                f"{lines} lines, over {METHOD_MOST_LINES}: move what chose a rule to docs/rationale.md "
                "and the methods' history to results/changelog.md"
            )
    return found


def test_the_docs_link_name_ports_files_rates_and_timings_the_code_has():
    served = served_ports()
    found = {str(doc.relative_to(ROOT)): problems_of(doc, doc.read_text(), served) for doc in DOCS}
    assert {doc: problems for doc, problems in found.items() if problems} == {}
    assert len(DOCS) > 20


@pytest.mark.parametrize(
    ("wrong", "said"),
    [
        ("See [the method](method.md#no-such-heading).", "no heading #no-such-heading"),
        ("See [the guide](nowhere.md).", "nowhere.md: no such file"),
        ("Then `curl http://127.0.0.1:8199/items`.", "port 8199: nothing serves it"),
        ("It lives in `loadtests/bench/no_such_module.py`.", "no such file"),
        ("| join-filter | 100 ms | 60, 250, 400 | 400 |", "the ladder's table, join-filter"),
        ("| `quick` (default) | 5 s, 120 s | 3 s |", "the profiles' table"),
    ],
    ids=["anchor", "file link", "port", "code file", "rate", "timing"],
)
def test_a_doc_with_a_wrong_link_port_file_rate_or_timing_fails(wrong, said):
    method = ROOT / "docs" / "method.md"
    text = method.read_text()
    if wrong.startswith("| join-filter"):
        text = re.sub(r"^\| join-filter \| 100 ms \|.*$", wrong, text, count=1, flags=re.M)
    elif wrong.startswith("| `quick`"):
        text = re.sub(r"^\| `quick` \(default\) \|.*$", wrong, text, count=1, flags=re.M)
    else:
        text += "\n" + wrong + "\n"
    problems = problems_of(method, text, served_ports())
    assert any(said in problem for problem in problems), problems


def test_a_method_grown_past_its_length_fails():
    method = ROOT / "docs" / "method.md"
    grown = method.read_text() + "\nA dated experiment's figures.\n" * METHOD_MOST_LINES
    assert any(f"over {METHOD_MOST_LINES}" in problem for problem in problems_of(method, grown, served_ports()))
