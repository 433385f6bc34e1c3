"""Every public function and method of the package is annotated, so mypy checks its callers.

Public: a name not starting with ``_``, at module level or directly in a public class.
Every parameter but ``self`` and ``cls`` (``*args`` and ``**kwargs`` included) needs an
annotation, and the function a return annotation: mypy checks a call's arguments only
against annotated parameters, and uses a result's type only when the return is annotated.
"""

from __future__ import annotations

import ast

from helpers import REPO_ROOT

PACKAGE = REPO_ROOT / "src" / "pdmeasure"


def _public_functions(tree: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    found = []
    for node in tree.body:
        members = [node]
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            members = node.body
        found += [
            n
            for n in members
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and not n.name.startswith("_")
        ]
    return found


def _missing(source: str, where: str) -> list[str]:
    """``where:line name: what is missing`` for every public function lacking an annotation."""
    out = []
    for fn in _public_functions(ast.parse(source)):
        args = fn.args
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        bare = [
            a.arg
            for a in params
            if a is not None and a.arg not in ("self", "cls") and a.annotation is None
        ]
        if fn.returns is None or bare:
            ret = "" if fn.returns is not None else " no return annotation;"
            out.append(f"{where}:{fn.lineno} {fn.name}:{ret} unannotated {bare}")
    return out


def test_the_check_finds_missing_annotations() -> None:
    source = (
        "def f(a, b: int) -> int: ...\n"
        "def g(x: int): ...\n"
        "def _private(a): ...\n"
        "def ok(a: int, *, b: str = '', **kw: int) -> None: ...\n"
        "def h(*args: int, **kwargs) -> None: ...\n"
        "class C:\n"
        "    def m(self, y) -> None: ...\n"
        "    def n(self) -> None: ...\n"
        "    @classmethod\n"
        "    def k(cls, z: int) -> int: ...\n"
        "class _Hidden:\n"
        "    def m(self, y): ...\n"
    )
    names = [line.split()[1] for line in _missing(source, "x.py")]
    assert names == ["f:", "g:", "h:", "m:"]


def test_public_api_is_annotated() -> None:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 50, f"expected the package's modules under {PACKAGE}"
    missing = [
        line
        for path in files
        for line in _missing(path.read_text(encoding="utf-8"), str(path.relative_to(REPO_ROOT)))
    ]
    assert not missing, (
        f"{len(missing)} public functions lack annotations (annotate every parameter but "
        "self/cls and the return):\n" + "\n".join(missing)
    )
