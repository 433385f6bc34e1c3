"""notebooks/reproduction.ipynb executes top to bottom against the small pipeline's results."""

from __future__ import annotations

import shutil

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK = "notebooks/reproduction.ipynb"


def execute(repo_root, results, monkeypatch, tmp_path):
    """Run the notebook with PDM_RESULTS=results; return every text output, joined, and the
    executed notebook."""
    monkeypatch.setenv("PDM_RESULTS", str(results))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    notebook = nbformat.read(repo_root / NOTEBOOK, as_version=4)
    # nbclient waits 4 s for a cell's output after the cell has run, then drops the output
    # without an error; on a loaded 2-core CI machine a print went missing that way. Wait
    # longer, and fail loudly if even that is not enough.
    client = NotebookClient(
        notebook,
        timeout=300,
        iopub_timeout=120,
        raise_on_iopub_timeout=True,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()  # raises CellExecutionError, with the cell and traceback, on any error
    texts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            texts.append(output.get("text", ""))
            data = output.get("data", {})
            texts.append(data.get("text/markdown", "") + data.get("text/plain", ""))
    return "\n".join(texts), notebook


def cell_outputs(notebook, fragment):
    """The outputs of the code cell whose source holds ``fragment``, as nbclient kept them
    (for a failure's message: a missing line and a wrong value look alike in the joined
    text)."""
    cell = next(c for c in notebook.cells if c.cell_type == "code" and fragment in c.source)
    return cell.get("outputs", [])


@pytest.mark.slow
def test_notebook_executes_against_pipeline_results(
    repo_root, small_pipeline, monkeypatch, tmp_path
):
    text, notebook = execute(repo_root, small_pipeline, monkeypatch, tmp_path)
    assert f"results folder: {small_pipeline.resolve()}" in text
    # pd default recomputed = measures.csv
    assert "largest difference: 0.0" in text, cell_outputs(notebook, "largest difference")
    assert "# Table 6: car (engine sklearn)" in text
    assert "kappa:    [0.5, 0.5, 0.5, 0.5]" in text
    if (small_pipeline / "reproduction.csv").is_file():
        assert "does not exist yet" not in text


@pytest.mark.slow
def test_notebook_explains_a_missing_reproduction_file(
    repo_root, small_pipeline, monkeypatch, tmp_path
):
    results = tmp_path / "results"
    shutil.copytree(small_pipeline, results, ignore=shutil.ignore_patterns("reproduction.*"))
    text, _ = execute(repo_root, results, monkeypatch, tmp_path)
    assert "reproduction.csv does not exist yet" in text


def test_notebook_refuses_a_folder_without_results(repo_root, monkeypatch, tmp_path):
    from nbclient.exceptions import CellExecutionError

    with pytest.raises(CellExecutionError, match="has no confusion_matrices.csv"):
        execute(repo_root, tmp_path / "nothing", monkeypatch, tmp_path)
