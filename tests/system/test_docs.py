"""The documentation site: it builds clean, and the build fails on what makes docs untrue.

One build per session (``site``): ``docs/`` and ``config/README.md`` are copied into a
temporary folder and built there exactly as ``make docs`` does (``sphinx-build -W
--keep-going -n``), so nothing is written into the checkout except, when they are missing,
the figures of ``docs/_generated/`` (``make docs-figures``, one run of the small ``.test``
experiment). The tests that break the docs on purpose add one page to that copy, rebuild it
incrementally (seconds) and remove the page again.

The examples of the pages are run directly: every ``python`` block of a page in order, in one
namespace, in an empty folder; every ``console`` block whose commands are all ``pdmeasure``,
``echo`` or ``printf`` lines, checking each command's exit status and the output lines the
page shows (``...`` stands for lines left out).
"""

from __future__ import annotations

import html
import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO_ROOT, need_module

need_module("sphinx")
need_module("pydata_sphinx_theme")
need_module("numpydoc")
need_module("myst_parser")

from sphinx.util.inventory import InventoryFile  # noqa: E402

DOCS = REPO_ROOT / "docs"
BIN = Path(sys.executable).parent
FIGURES = ["figure7_sklearn.png", "cd_diagram.png", "explorer_wine.html"]
PAGES = sorted(DOCS.glob("*.md"))


def _extension():
    """docs/_ext/pdmeasure_docs.py, imported as a module."""
    spec = importlib.util.spec_from_file_location(
        "pdmeasure_docs", DOCS / "_ext" / "pdmeasure_docs.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _conf() -> dict:
    """The names docs/conf.py defines (it is plain Python)."""
    namespace: dict = {"__file__": str(DOCS / "conf.py")}
    exec(compile((DOCS / "conf.py").read_text(), str(DOCS / "conf.py"), "exec"), namespace)
    return namespace


class Site:
    """A copy of the docs sources and its build; ``build()`` rebuilds it incrementally."""

    def __init__(self, root: Path):
        self.root = root
        self.src = root / "docs"
        self.out = root / "html"
        self.doctrees = root / "doctrees"

    def build(self) -> subprocess.CompletedProcess:
        command = [
            str(BIN / "sphinx-build"),
            "-W", "--keep-going", "-n", "-q", "-b", "html",
            "-d", str(self.doctrees), str(self.src), str(self.out),
        ]  # fmt: skip
        env = {**os.environ, "MPLBACKEND": "Agg"}
        return subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)

    def with_page(self, name: str, text: str) -> subprocess.CompletedProcess:
        """Build with one extra (orphan) page, then remove the page and rebuild."""
        page = self.src / f"{name}.md"
        page.write_text("---\norphan: true\n---\n\n" + text, encoding="utf-8")
        try:
            return self.build()
        finally:
            page.unlink()
            self.build()


@pytest.fixture(scope="module")
def figures() -> Path:
    """docs/_generated, made by docs/_tools/figures.py when a figure is missing."""
    generated = DOCS / "_generated"
    if not all((generated / name).exists() for name in FIGURES):
        done = subprocess.run(
            [sys.executable, str(DOCS / "_tools" / "figures.py"), "--cores", "2"],
            capture_output=True,
            text=True,
            timeout=1800,
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return generated


@pytest.fixture(scope="module")
def site(tmp_path_factory, figures) -> tuple[Site, subprocess.CompletedProcess]:
    root = tmp_path_factory.mktemp("docs")
    shutil.copytree(DOCS, root / "docs", ignore=shutil.ignore_patterns("_build", "api"))
    (root / "config").mkdir()
    shutil.copy(REPO_ROOT / "config" / "README.md", root / "config" / "README.md")
    site = Site(root)
    return site, site.build()


def test_the_site_builds_with_warnings_as_errors(site):
    site, done = site
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
    assert "WARNING" not in done.stderr and "ERROR" not in done.stderr, done.stderr[-6000:]
    for page in PAGES:
        assert (site.out / f"{page.stem}.html").exists(), f"{page.name} is not in the site"


@pytest.mark.parametrize(
    ("page", "text", "named"),
    [
        pytest.param(
            "broken_reference",
            "# Broken\n\n{py:func}`pdmeasure.measures.no_such_measure`\n",
            "pdmeasure.measures.no_such_measure",
            id="a_reference_to_a_missing_name",
        ),
        pytest.param(
            "broken_link",
            "# Broken\n\nSee [the setup](no-such-page.md).\n",
            "no-such-page",
            id="a_broken_internal_link",
        ),
        pytest.param(
            "broken_anchor",
            "# Broken\n\nSee [the errata](errata.md#no-such-erratum).\n",
            "no-such-erratum",
            id="a_link_to_a_missing_anchor",
        ),
    ],
)
def test_a_broken_page_fails_the_build(site, page, text, named):
    """The page ``page`` with ``text`` fails the build, and the error output names ``named``."""
    site, built = site
    assert built.returncode == 0
    done = site.with_page(page, text)
    assert done.returncode != 0
    assert named in done.stderr


def test_the_stale_reference_check_tells_moved_names_from_real_ones():
    docs = _extension()
    assert docs.resolve_name("pdmeasure.tables.exact.DatasetAnalysis") is not None
    assert docs.resolve_name("pdmeasure.exact.DatasetAnalysis") is None
    assert docs.resolve_name("pdmeasure.no_such_module.thing") is None
    found = [
        m.group(1) for m in docs.REFERENCE.finditer("see :class:`~pdmeasure.exact.X` and :func:`f`")
    ]
    assert found == ["pdmeasure.exact.X"]


def test_the_api_reference_lists_every_public_name(site):
    site, built = site
    assert built.returncode == 0
    with open(site.out / "objects.inv", "rb") as handle:
        inventory = InventoryFile.load(handle, "", os.path.join)
    documented = {name for kind in inventory.values() for name in kind}
    packages = [p for p in _conf()["api_packages"] if importlib.util.find_spec(p) is not None]
    assert {"pdmeasure.measures", "pdmeasure.exact", "pdmeasure.stats", "pdmeasure.scoring"} <= set(
        packages
    )
    for package in packages:
        public = importlib.import_module(package).__all__
        missing = [name for name in public if f"{package}.{name}" not in documented]
        assert not missing, f"{package}: not in the API reference: {missing}"
    top = importlib.import_module("pdmeasure")
    scorers = [name for name in top.__all__ if name.endswith("_score")]
    assert scorers and all(f"pdmeasure.scoring.{name}" in documented for name in scorers)


def test_the_command_line_page_holds_every_help_text(site):
    site, built = site
    assert built.returncode == 0
    page = html.unescape(re.sub(r"<[^>]+>", "", (site.out / "cli.html").read_text()))
    texts = _extension().help_texts()
    assert len(texts) >= 4  # pdmeasure and its subcommands
    for command, text in texts:
        for line in text.splitlines():
            assert line.strip() in page, f"{command} --help: {line!r} not on the page"


def test_the_figures_of_a_run_are_in_the_site(site):
    site, built = site
    assert built.returncode == 0
    images = {path.name for path in (site.out / "_images").iterdir()}
    assert {"figure7_sklearn.png", "cd_diagram.png"} <= images
    explorer = (site.out / "explorer_wine.html").read_text()
    assert "<html" in explorer.lower() and "wine" in explorer.lower()
    assert 'href="explorer_wine.html"' in (site.out / "figures.html").read_text()


def _blocks(page: Path, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M)


@pytest.mark.parametrize(
    "page",
    [p for p in [*PAGES, REPO_ROOT / "README.md"] if _blocks(p, "python")],
    ids=lambda p: p.name,
)
def test_python_examples_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    namespace: dict = {"__name__": f"docs_{page.stem}"}
    for number, block in enumerate(_blocks(page, "python"), 1):
        exec(compile(block, f"{page.name} python block {number}", "exec"), namespace)


def _runnable_console_blocks(page: Path) -> list[str]:
    runnable = []
    for block in _blocks(page, "console"):
        commands = [line[2:] for line in block.splitlines() if line.startswith("$ ")]
        if commands and all(c.split()[0] in {"pdmeasure", "echo", "printf"} for c in commands):
            runnable.append(block)
    return runnable


def _run_console(block: str, cwd: Path) -> None:
    """Run each ``$`` line; the lines shown after it must appear in its output, in order."""
    entries: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            entries.append((line[2:], []))
        elif entries:
            entries[-1][1].append(line)
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "MPLBACKEND": "Agg"}
    for command, shown in entries:
        done = subprocess.run(command, shell=True, cwd=cwd, capture_output=True, text=True, env=env)
        assert done.returncode == 0, f"$ {command}\n{done.stderr}"
        output = done.stdout.splitlines()
        position = 0
        for expected in (line for line in shown if line.strip() != "..."):
            while position < len(output) and output[position].rstrip() != expected.rstrip():
                position += 1
            assert position < len(output), f"$ {command}: {expected!r} not in the output"
            position += 1


@pytest.mark.parametrize(
    "page", [p for p in PAGES if _runnable_console_blocks(p)], ids=lambda p: p.name
)
def test_console_examples_run(page, tmp_path):
    for block in _runnable_console_blocks(page):
        _run_console(block, tmp_path)


@pytest.mark.parametrize(
    "page", [DOCS / "own-experiment.md", REPO_ROOT / "README.md"], ids=lambda p: p.name
)
def test_the_user_file_shown_is_the_tested_one(page):
    """The page shows config/examples/mydata.yaml, the file tests/workflow/test_own_experiment_runs.py runs."""
    text = page.read_text(encoding="utf-8")
    user_file = (REPO_ROOT / "config" / "examples" / "mydata.yaml").read_text(encoding="utf-8")
    body = "\n".join(line for line in user_file.splitlines() if not line.startswith("#"))
    assert f"```yaml\n{body.strip()}\n```" in text


def test_the_readme_is_short_and_its_links_exist():
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    assert readme.index("make reproduce") < readme.index("make test") < readme.index("## ")
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    local = [link for link in links if "://" not in link]
    assert any(link.startswith("docs/") for link in local)
    missing = [link for link in local if not (REPO_ROOT / link).exists()]
    assert not missing, f"README links to files that do not exist: {missing}"
