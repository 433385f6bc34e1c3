"""Sphinx extension of the pdmeasure documentation.

- ``api_packages`` (conf.py): at ``config-inited`` it writes ``api/index.rst`` and one page per
  package, ``api/<package>.rst``, with an autosummary table of exactly the package's
  ``__all__``, so a name added to ``__all__`` appears in the reference without editing a page,
  and a package that appears (``pdmeasure.uncertainty``) gets its page on the next build.
- ``pdmeasure-cli-help`` directive: the ``--help`` text of the ``pdmeasure`` command and of
  each of its subcommands, taken at build time from :func:`pdmeasure.cli.build_parser`.
- References to the application (``pdmeasure.pipeline``, ``render``, ``paper``, ``cli``), which
  has no API pages: a reference that names an existing object is shown as code without a
  link; one that names nothing stays unresolved, and nitpicky mode fails the build.
- Every fully qualified ``pdmeasure.*`` reference in any docstring of the package, documented
  or not, is checked the same way at build time (a moved class leaves no stale reference).
- Raw HTML anchors of the Markdown pages (``<a id="x"></a>``) are link targets of ``[..](#x)``
  like MyST's heading anchors, so a link to an id that does not exist still fails.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import inspect
import os
import pkgutil
import re
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

LOGGER = logging.getLogger(__name__)
#: A fully qualified reference to a pdmeasure name in a docstring: :role:`~pdmeasure.x.y`.
REFERENCE = re.compile(
    r":(?:py:)?(?:func|class|meth|attr|mod|data|obj|exc):`~?(pdmeasure\.[\w.]+)`"
)
ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")

#: Width of the help texts on the page (argparse reads $COLUMNS).
HELP_COLUMNS = "88"


def available(packages: list[str]) -> list[str]:
    """The packages of ``packages`` that exist (a planned package may not yet)."""
    return [name for name in packages if importlib.util.find_spec(name) is not None]


def package_page(name: str) -> str:
    """The reStructuredText of one package's reference page."""
    module = importlib.import_module(name)
    public = list(getattr(module, "__all__", []))
    if not public:
        raise ValueError(f"{name} has no __all__: the API reference lists __all__ only")
    title = f"``{name}``"
    lines = [
        title,
        "=" * len(title),
        "",
        f".. automodule:: {name}",
        "   :no-members:",
        "",
        f".. currentmodule:: {name}",
        "",
        ".. autosummary::",
        "   :toctree: generated",
        "   :nosignatures:",
        "",
        *(f"   {item}" for item in public),
        "",
    ]
    return "\n".join(lines)


def index_page(packages: list[str]) -> str:
    lines = [
        "API reference",
        "=============",
        "",
        "Every public name (the ``__all__``) of the library's packages and of the scikit-learn",
        "scorers, generated from the docstrings. The command line is documented in",
        ":doc:`../cli`.",
        "",
        ".. toctree::",
        "   :maxdepth: 1",
        "",
        *(f"   {name}" for name in packages),
        "",
    ]
    return "\n".join(lines)


def _write_if_changed(path: Path, text: str) -> None:
    """Rewrite a generated page only when it changes (Sphinx rebuilds what changed)."""
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)


def write_api_pages(app: Sphinx, config: Config) -> None:
    """Write ``api/index.rst`` and one page per available package of ``api_packages``."""
    packages = available(config.api_packages)
    api = Path(app.srcdir) / "api"
    for stale in api.glob("*.rst"):
        if stale.stem not in packages and stale.stem != "index":
            stale.unlink()
    for name in packages:
        _write_if_changed(api / f"{name}.rst", package_page(name))
    _write_if_changed(api / "index.rst", index_page(packages))


def help_texts() -> list[tuple[str, str]]:
    """``(command, --help text)`` of ``pdmeasure`` and of each subcommand, in parser order."""
    from pdmeasure.cli import build_parser

    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = HELP_COLUMNS
    try:
        parser = build_parser()
        texts = [(parser.prog, parser.format_help())]
        for action in parser._actions:  # argparse keeps its subcommands only here
            if isinstance(action, argparse._SubParsersAction):
                texts += [(sub.prog, sub.format_help()) for sub in action.choices.values()]
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous
    return texts


class CliHelp(SphinxDirective):
    """Every ``--help`` text of the ``pdmeasure`` command, one literal block each."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(importlib.import_module("pdmeasure.cli").__file__)
        out: list[nodes.Node] = []
        for command, text in help_texts():
            out.append(nodes.rubric(text=f"{command} --help"))
            block = nodes.literal_block(text, text)
            block["language"] = "text"
            out.append(block)
        return out


def resolve_name(dotted: str) -> object | None:
    """The object a dotted ``pdmeasure`` name refers to, or None when it names nothing."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attribute in parts[cut:]:
                target = getattr(target, attribute)
        except AttributeError:
            return None
        return target
    return None


def _import_failure(dotted: str) -> str:
    """Why a module on the path of ``dotted`` exists as a file but cannot be imported."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):  # a parent package that cannot be imported
            continue
        if spec is None:
            continue
        try:
            importlib.import_module(name)
        except ImportError as error:
            return f" (module {name} exists but cannot be imported: {error})"
        return ""
    return ""


def existing_application_name(app, env, node, contnode):
    """``missing-reference``: a real pdmeasure name without an API page becomes plain code."""
    target = node.get("reftarget", "")
    if node.get("refdomain") != "py" or not target.startswith("pdmeasure."):
        return None
    if resolve_name(target) is None:
        return None
    return contnode


def check_package_references(app: Sphinx) -> None:
    """Warn for every ``pdmeasure.*`` reference in the package's sources that names nothing."""
    import pdmeasure

    for info in pkgutil.walk_packages(pdmeasure.__path__, "pdmeasure."):
        if info.name.endswith("__main__"):  # importing it would run the command
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError as error:  # an optional engine whose dependency is absent
            LOGGER.info("docs: reference check skips %s (%s)", info.name, error)
            continue
        source = inspect.getsource(module)
        for match in REFERENCE.finditer(source):
            if resolve_name(match.group(1)) is None:
                line = source.count("\n", 0, match.start()) + 1
                LOGGER.warning(
                    "reference to a name that does not exist: %s%s",
                    match.group(1),
                    _import_failure(match.group(1)),
                    location=f"{module.__file__}:{line}",
                    type="pdmeasure",
                    subtype="reference",
                )


class HtmlAnchors(SphinxTransform):
    """Make ``<a id="x"></a>`` in Markdown pages a target of ``[text](#x)`` links."""

    default_priority = 870  # before MyST's ResolveAnchorIds (879)

    def apply(self, **kwargs: object) -> None:
        slugs = getattr(self.document, "myst_slugs", None)
        if slugs is None:
            return
        for raw in self.document.findall(nodes.raw):
            if "html" not in raw.get("format", ""):
                continue
            for anchor in ANCHOR.findall(raw.astext()):
                slugs.setdefault(anchor, (raw.line or 0, anchor, anchor))
        self.document.myst_slugs = slugs
        if slugs:
            self.env.metadata[self.env.docname]["myst_slugs"] = slugs


def page_list(srcdir: Path, order: list[str]) -> list[str]:
    """The Markdown pages of the site: ``order`` first (those that exist), then the rest."""
    pages = sorted(path.stem for path in srcdir.glob("*.md") if path.stem != "index")
    return [name for name in order if name in pages] + [p for p in pages if p not in order]


def insert_pages(app: Sphinx, docname: str, source: list[str]) -> None:
    """``source-read``: replace the index's line ``pdmeasure-pages`` by the page list."""
    if docname == app.config.root_doc:
        pages = page_list(Path(app.srcdir), app.config.page_order)
        source[0] = source[0].replace("pdmeasure-pages", "\n".join(pages))


def setup(app: Sphinx) -> dict[str, object]:
    app.add_config_value("api_packages", [], "env", types=[list])
    app.add_config_value("page_order", [], "env", types=[list])
    app.connect("source-read", insert_pages)
    app.connect("config-inited", write_api_pages)
    app.connect("builder-inited", check_package_references)
    app.connect("missing-reference", existing_application_name)
    app.add_transform(HtmlAnchors)
    app.add_directive("pdmeasure-cli-help", CliHelp)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
