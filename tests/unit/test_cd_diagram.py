"""Critical-difference diagrams: the groups they draw and headless rendering from cd.csv."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from helpers import PNG_MAGIC
from pdmeasure import stats
from pdmeasure.render import cd_diagram
from pdmeasure.tables import stats as stats_tables
from pdmeasure.tables import stats_across
from pdmeasure.tables.measures import MEASURE_COLUMNS


def test_cliques_demsar_example_is_one_group():
    # Demsar (2006) Sec. 3.2.2: ranks 3.143, 2.000, 2.893, 1.964 all lie within CD = 1.25.
    assert cd_diagram.cliques([3.143, 2.000, 2.893, 1.964], 1.25) == [(3, 1, 2, 0)]


def test_cliques_overlapping_groups_and_edges():
    ranks = [1.0, 2.5, 2.75, 4.0, 4.75]
    # 1.0..4.0 spans 3.0 < 3.05; 2.5..4.75 spans 2.25; 1.0..4.75 spans 3.75 >= 3.05.
    assert cd_diagram.cliques(ranks, 3.05) == [(0, 1, 2, 3), (1, 2, 3, 4)]
    # a difference equal to the CD is significant, so it breaks the group
    assert cd_diagram.cliques([1.0, 2.0], 1.0) == []
    assert cd_diagram.cliques([1.0, 2.0], np.nan) == []
    # a group inside a longer one is not drawn twice
    assert cd_diagram.cliques([1.0, 1.1, 1.2, 3.0], 0.5) == [(0, 1, 2)]


def test_cliques_agree_with_nemenyi_significance():
    rng = np.random.default_rng(2)
    scores = rng.random((6, 5)) + np.arange(5) * 0.15
    names = list("ABCDE")
    table = pd.DataFrame(stats.nemenyi(scores, names, alpha=0.05))
    ranks = stats.average_ranks(scores)
    cd = stats.nemenyi_critical_difference(5, 6, 0.05)
    together = {
        frozenset((names[i], names[j]))
        for group in cd_diagram.cliques(ranks, cd)
        for i in group
        for j in group
        if i != j
    }
    for row in table.itertuples():
        assert (frozenset((row.classifier_a, row.classifier_b)) in together) == (
            not row.significant
        )


def test_plot_returns_a_figure_and_saves_png(tmp_path):
    fig = cd_diagram.plot_cd_diagram(["A", "B", "C", "D"], [3.1, 2.0, 2.9, 1.9], 1.25, title="t")
    assert isinstance(fig, Figure)
    path = tmp_path / "cd.png"
    fig.savefig(path)
    assert path.read_bytes()[:8] == PNG_MAGIC
    texts = {t.get_text() for t in fig.axes[0].texts}
    assert "CD = 1.25" in texts and "A (3.10)" in texts


def test_plot_rejects_bad_input():
    with pytest.raises(ValueError, match="one rank each"):
        cd_diagram.plot_cd_diagram(["A", "B"], [1.0], 1.0)
    with pytest.raises(ValueError, match="finite"):
        cd_diagram.plot_cd_diagram(["A", "B"], [1.0, np.nan], 1.0)


def _cd_table() -> pd.DataFrame:
    rows = []
    rng = np.random.default_rng(0)
    for dataset in ("d1", "d2", "d3", "d4"):
        for j, classifier in enumerate(("A", "B", "C")):
            rows.append(
                ("e", dataset, classifier, "accuracy", "", "", 0.5 + 0.1 * j + rng.random() / 20)
            )
            rows.append(
                ("e", dataset, classifier, "preference_driven", "default", "", rng.random())
            )
    frame = pd.DataFrame(rows, columns=list(MEASURE_COLUMNS))
    return stats_across.compare_across_datasets(frame, alpha=0.05).cd


def test_render_from_the_cd_csv(tmp_path):
    csv = tmp_path / "cd.csv"
    _cd_table().to_csv(csv, index=False)
    table = cd_diagram.read_cd_table(csv)
    assert table["kappa"].iloc[0] == ""
    outputs = {
        ("e", "accuracy", ""): tmp_path / "fig" / "accuracy.png",
        ("e", "preference_driven", "default"): tmp_path / "fig" / "pd.svg",
    }
    cd_diagram.render_cd_diagrams(table, outputs)
    assert (tmp_path / "fig" / "accuracy.png").read_bytes()[:8] == PNG_MAGIC
    assert b"<svg" in (tmp_path / "fig" / "pd.svg").read_bytes()[:500]
    assert sorted(p.name for p in (tmp_path / "fig").iterdir()) == ["accuracy.png", "pd.svg"]


def test_missing_key_raises_and_leaves_no_file(tmp_path):
    with pytest.raises(ValueError, match="no CD data"):
        cd_diagram.render_cd_diagrams(_cd_table(), {("e", "mcc", ""): tmp_path / "x.png"})
    assert not list(tmp_path.iterdir())


def test_all_nan_measure_renders_a_placeholder(tmp_path):
    frame = pd.DataFrame(
        {
            "engine": "e",
            "dataset": ["d1", "d1", "d2", "d2"],
            "classifier": ["A", "B", "A", "B"],
            "measure": "mcc",
            "kappa": "",
            "kappa_values": "",
            "value": [np.nan, 0.5, 0.4, np.nan],
        }
    )
    with pytest.warns(stats_tables.NaNExcludedWarning):
        table = stats_across.compare_across_datasets(frame, alpha=0.05).cd
    fig = cd_diagram.cd_figure_from_table(table, engine="e", measure="mcc")
    assert "NaN" in fig.axes[0].texts[0].get_text()
