"""docs/benchmarks.md: the bench's figures as one table, written by `bench/run.py --markdown FILE`.

One row a figure: its key, what it measures (the sentence in its module's FIGURES), its goal and
the value this run measured. Above the table, once: the date, the machine and the commit. With
`--only`, the rows of the modules not run are kept from the file as it was, so the table can be
filled one module at a time (each module's row under `bench_seconds` says how long it took).
"""

import datetime
import json
import os
import platform
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CELL_MAX = 200
HEAD = "| figure | what it measures | goal | value |"
# What the runner reports beside the figures; `bench_seconds` becomes one row a module.
NOT_ROWS = (
    "left_running",
    "bench_seconds",
    "bench_cpu_seconds",
    "failed",
    "skipped",
    "interrupted",
)


def cell(value):
    """One value as a table cell: no bar, no line break, at most CELL_MAX characters."""
    if value is None:
        text = "—"
    elif isinstance(value, (dict, list, tuple)):
        text = json.dumps(value, sort_keys=True, separators=(", ", ": "))
    else:
        text = str(value)
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= CELL_MAX else text[: CELL_MAX - 1] + "…"


def rows(figures, described):
    """{key: row line} for every figure measured, in the registry's order."""
    out = {}
    for key, (what, goal) in described.items():
        if key in figures and key not in NOT_ROWS:
            out[key] = f"| `{key}` | {cell(what)} | {cell(goal)} | {cell(figures[key])} |"
    for module, seconds in figures.get("bench_seconds", {}).items():
        key = f"bench_seconds.{module}"
        what = f"Wall seconds the {module} module took (the machine is shared, so they run long)."
        out[key] = f"| `{key}` | {what} | — | {cell(seconds)} |"
    for module, seconds in figures.get("bench_cpu_seconds", {}).items():
        key = f"bench_cpu_seconds.{module}"
        what = f"CPU seconds the {module} module took, its child processes included."
        out[key] = f"| `{key}` | {what} | — | {cell(seconds)} |"
    for module, reason in figures.get("failed", {}).items():
        out[f"failed.{module}"] = (
            f"| `failed.{module}` | Why this module failed. | — | {cell(reason)} |"
        )
    for module, reason in figures.get("skipped", {}).items():
        out[f"skipped.{module}"] = (
            f"| `skipped.{module}` | What this machine lacks for this module. | — | {cell(reason)} |"
        )
    return out


def kept_rows(path):
    """{key: row line} of the table already in `path` ({} when there is none)."""
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f if line.startswith("| `")]
    return {line.split("`")[1]: line for line in lines}


def machine():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            names = [line.split(":", 1)[1].strip() for line in f if line.startswith("model name")]
        model = names[0] if names else model
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}"


def commit():
    def git(*args):
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=False
        ).stdout.strip()

    sha = git("rev-parse", "--short", "HEAD") or "unknown"
    # only code changes the figures (the table itself is rewritten as the modules run)
    code = ("bench", "firmware", "simulator", "host_tools", "pyproject.toml", "setup.py")
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", *code)
    return sha + (" with uncommitted code changes" if dirty else "")


def write(path, figures, described, quick, merge):
    """Write the table to `path`; with `merge`, keep the rows this run did not measure."""
    new = rows(figures, described)
    table = dict(kept_rows(path)) if merge else {}
    for key in list(table):
        if key.startswith(("failed.", "skipped.")) and key.split(".", 1)[1] in figures.get(
            "bench_seconds", {}
        ):
            del table[key]  # this run measured that module again
    table.update(new)
    modules = {k: v for k, v in table.items() if k.startswith("bench_seconds.")}
    if merge and modules and "bench_seconds_total" in described:
        total = round(sum(float(row.rsplit("|", 2)[1]) for row in modules.values()), 1)
        what, goal = described["bench_seconds_total"]
        table["bench_seconds_total"] = f"| `bench_seconds_total` | {what} | {goal} | {total} |"
    order = list(described) + sorted(k for k in table if k not in described)
    run = "python bench/run.py --quick" if quick else "python bench/run.py"
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Benchmarks",
        "",
        (
            f"Written by `{run} --markdown docs/benchmarks.md` (do not edit by hand): "
            "each figure's key, what it measures, its goal and the value measured. "
            "What each figure means in depth is in the docstring of its module in `bench/`."
        ),
        "",
        f"Measured {today} on {machine()}, at commit {commit()}"
        + (", one module at a time (`--only`)." if merge else "."),
        "The machine is shared with other work, so wall-clock figures read low and module times high.",
        "",
        HEAD,
        "|---|---|---|---|",
        *(table[k] for k in order if k in table),
        "",
    ]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
