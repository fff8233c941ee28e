"""Documents that cannot rot silently: every relative link and anchor in the README, docs/ and
examples/ resolves inside the repository; the README stays a short start (at most 300 lines,
its install-and-run and test commands in its first 40, the test command the one CI runs); every
`blinks` subcommand its code blocks show exists; no document narrates its own history; the
version the changelog last released is the package's; the benchmark table keeps its cells short.
"""

import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")
TEST_COMMAND = "pip install -e '.[test]' && python -m pytest -n 2"
# Phrases that tell a document's history instead of what is (history lives in git log and
# CHANGELOG.md).
HISTORY = ("this stop", "the stop before", "before that", "this round", "earlier", "this session")


def markdown_files(*folders):
    """The .md files of these folders (and below), as paths relative to ROOT."""
    found = []
    for folder in folders:
        for top, dirs, names in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d != "node_modules"]
            found += [
                os.path.relpath(os.path.join(top, n), ROOT) for n in names if n.endswith(".md")
            ]
    return sorted(found)


LINKED = ["README.md"] + markdown_files("docs", "examples")
EVERY_DOC = ["README.md", "CHANGELOG.md"] + markdown_files(
    "docs", "examples", "bench", "simulator", "host_tools", "firmware", "tests"
)


def read(rel, root=ROOT):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read()


def prose(text):
    """The text without fenced and indented code blocks and inline code: links live outside them."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)
    text = re.sub(r"^(?: {4}|\t).*$", "", text, flags=re.MULTILINE)
    return re.sub(r"`[^`\n]*`", "", text)


def links(rel, root=ROOT):
    """The relative link targets of a document ([text](target), images too)."""
    targets = re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", prose(read(rel, root)))
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation but - and _ dropped, spaces to -."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(rel, root=ROOT):
    """Every anchor of a document: its headings' (numbered when repeated) and explicit ids."""
    text = read(rel, root)
    outside_code = re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)
    seen, found = {}, set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*$", outside_code, re.MULTILINE):
        base = slug(heading)
        n = seen.get(base, 0)
        found.add(base if n == 0 else f"{base}-{n}")
        seen[base] = n + 1
    found.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", text))
    return found


def broken_links(rel, root=ROOT):
    """What is wrong with each relative link of a document, one line each."""
    broken = []
    for target in links(rel, root):
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(rel), path)) if path else rel
        if dest.startswith(".."):
            broken.append(f"{target}: outside the repository")
        elif not os.path.exists(os.path.join(root, dest)):
            broken.append(f"{target}: no such file")
        elif anchor and dest.endswith(".md") and anchor not in anchors(dest, root):
            broken.append(f"{target}: no heading gives #{anchor}")
    return broken


@pytest.mark.parametrize("rel", LINKED)
def test_every_relative_link_and_anchor_resolves(rel):
    broken = broken_links(rel)
    assert not broken, f"{rel}: " + "; ".join(broken)


def test_the_link_check_finds_a_missing_file_a_missing_anchor_and_a_way_out(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text(
        "# A page\n\n## In a window: `blinks emu --window`\n"
    )
    (tmp_path / "README.md").write_text(
        "[ok](docs/page.md#in-a-window-blinks-emu---window) [self](#top) [gone](docs/gone.md)\n"
        "[no anchor](docs/page.md#nowhere) [out](../shared/LOSTGEMS.md) [web](https://x.org/a)\n"
        "`[code](not/a/link.md)`\n\n# Top\n"
    )
    assert broken_links("README.md", str(tmp_path)) == [
        "docs/gone.md: no such file",
        "docs/page.md#nowhere: no heading gives #nowhere",
        "../shared/LOSTGEMS.md: outside the repository",
    ]


@pytest.mark.parametrize("rel", LINKED)
def test_no_link_points_into_shared(rel):
    assert not [t for t in links(rel) if "shared/" in t], rel


def test_the_readme_is_a_short_start():
    lines = read("README.md").splitlines()
    assert len(lines) <= 300
    first = [line.strip() for line in lines[:40]]
    assert TEST_COMMAND in first
    install = [line for line in first if "pip install -e ." in line and "blinks sim" in line]
    assert install, "the install-and-run command (one line) is not in the README's first 40 lines"


def test_the_readme_test_command_is_the_one_ci_runs():
    ci = [
        line.strip()
        for line in read(".ci/run").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert ci[-1] == TEST_COMMAND


def subcommands():
    out = subprocess.run(
        [sys.executable, "-m", "host_tools.cli", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout
    block = out.split("positional arguments:", 1)[1].split("options:", 1)[0]
    return set(re.findall(r"^\s{4}([a-z][a-z0-9-]*)\s", block, re.MULTILINE))


def test_every_blinks_subcommand_the_readme_shows_exists():
    text = read("README.md")
    code = re.findall(r"^```.*?^```", text, flags=re.DOTALL | re.MULTILINE)
    code += re.findall(r"^(?: {4}|\t).*$", text, flags=re.MULTILINE)
    used = set(re.findall(r"(?:^|[\s;&|(])blinks ([a-z][a-z0-9-]*)", "\n".join(code), re.MULTILINE))
    known = subcommands()
    assert {"sim", "flash", "emu"} <= known  # the help was parsed
    assert used and not used - known, f"not blinks subcommands: {sorted(used - known)}"


@pytest.mark.parametrize("rel", EVERY_DOC)
def test_no_document_narrates_its_history(rel):
    text = read(rel).lower()
    found = [p for p in HISTORY if p in text]
    assert not found, (
        f"{rel} tells its history ({', '.join(found)}): say what is; history is in git log and CHANGELOG.md"
    )


def test_the_changelog_last_released_the_package_version():
    version = re.search(r'^version = "([^"]+)"', read("pyproject.toml"), re.MULTILINE).group(1)
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", read("CHANGELOG.md"), re.MULTILINE)
    assert "## [Unreleased]" in read("CHANGELOG.md")
    assert released and released[0] == version


def test_the_benchmark_table_has_one_value_a_cell_and_short_cells():
    rows = [line for line in read("docs/benchmarks.md").splitlines() if line.startswith("| `")]
    assert rows
    for row in rows:
        cells = [c for c in re.split(r"(?<!\\)\|", row)[1:-1]]
        assert len(cells) == 4, row
        assert all(len(c.strip()) <= 200 for c in cells), row
