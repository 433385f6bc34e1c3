# Module paper (DAG step 7): the papers' tables and figures that need no data, computed from the
# example matrices in pdmeasure.paper.examples (cm1..cm9, Table 4, the Pacc matrices). Rule
# paper_tables writes tidy CSVs; rule paper_render draws the Markdown tables and PNG figures
# from those files only.

# Tidy paper tables (pdmeasure.paper.example_tables format: paper, table, row, column, value, decimals).
PAPER_TABLE_NAMES = [
    "pd_table3",
    "pd_table4",
    "pd_section42",
    "pacc_table2",
    "pacc_table4",
    "pacc_table5",
    "pacc_table6",
]
PAPER_FIGURES = [2, 3, 4, 5, 6]


rule paper_tables:
    output:
        **{
            name: reported(
                results_path("paper", f"{name}.csv"),
                "paper_table",
                "Paper reproduction",
                "Paper tables",
                table=name,
                format="CSV",
            )
            for name in PAPER_TABLE_NAMES
        },
        **{
            f"figure{n}": reported(
                results_path("paper", f"pd_figure{n}.csv"),
                "paper_figure_data",
                "Paper reproduction",
                "Paper 000 figures",
                figure=f"Figure {n}",
                file="data CSV",
            )
            for n in PAPER_FIGURES
        },
        surfaces=reported(
            results_path("paper", "pd_surfaces.csv"),
            "paper_figure_data",
            "Paper reproduction",
            "Paper 000 figures",
            figure="Figures 2-5",
            file="surfaces CSV",
        ),
        figure2_points=reported(
            results_path("paper", "pd_figure2_points.csv"),
            "paper_figure_data",
            "Paper reproduction",
            "Paper 000 figures",
            figure="Figure 2",
            file="marked points CSV",
        ),
    log:
        "logs/paper/paper_tables.log",
    benchmark:
        benchmark_path("paper/paper_tables.tsv")
    priority: ANALYSIS_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    params:
        zero_division=RUN["zero_division"],
    script:
        "../scripts/paper_tables.py"


rule paper_render:
    input:
        tables=[results_path("paper", f"{name}.csv") for name in PAPER_TABLE_NAMES],
        figures=[results_path("paper", f"pd_figure{n}.csv") for n in PAPER_FIGURES],
        figure2_points=results_path("paper", "pd_figure2_points.csv"),
    output:
        tables=[
            reported(
                results_path("paper", f"{name}.md"),
                "paper_table",
                "Paper reproduction",
                "Paper tables",
                table=name,
                format="Markdown",
            )
            for name in PAPER_TABLE_NAMES
        ],
        figures=[
            reported(
                results_path("paper", f"pd_figure{n}.png"),
                "paper_figure",
                "Paper reproduction",
                "Paper 000 figures",
                figure=f"Figure {n}",
                file="PNG",
            )
            for n in PAPER_FIGURES
        ],
    log:
        "logs/paper/paper_render.log",
    benchmark:
        benchmark_path("paper/paper_render.tsv")
    priority: ANALYSIS_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    params:
        figures=PAPER_FIGURES,
    script:
        "../scripts/paper_render.py"
