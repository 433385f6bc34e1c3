"""Rendering: every figure, Markdown table and HTML page, drawn from tidy files.

Nothing here computes a measure: each function reads a tidy CSV (or the frame read from one)
and writes a figure (:mod:`~pdmeasure.render.figures`, :mod:`~pdmeasure.render.paper_figures`,
:mod:`~pdmeasure.render.exact_figures`, :mod:`~pdmeasure.render.cd_diagram`), Markdown
(:mod:`~pdmeasure.render.stats_report`, :mod:`~pdmeasure.render.measures_doc`) or the
interactive explorer (:mod:`~pdmeasure.render.explorer`). Needs the ``[pipeline]`` extra
(matplotlib, pandas).
"""
