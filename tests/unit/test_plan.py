"""The CV plan (pdmeasure.pipeline.plan): how the model fitting is cut into jobs.

Parts are ranges of folds; ``auto`` splits only the units that exceed their fair share of the
run; a finished unit keeps the parts it was made with; costs come from the logs of the last
run, else from the data's size. tests/workflow/test_pipeline_e2e.py and
tests/system/test_per_fold.py run the plan's jobs.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdmeasure.pipeline import plan
from pdmeasure.pipeline.plan import Part

FOLDS = {"cv": 10, "cv5x2": 10}


def units(*specs):
    """{(engine, dataset, classifier): {scheme: cost}} from (classifier, cv, cv5x2) costs."""
    return {("weka", "d", name): {"cv": cv, "cv5x2": cv5x2} for name, cv, cv5x2 in specs}


def test_part_names_round_trip_and_map_to_repeat_fold_pairs():
    part = Part.parse("cv_4-7")
    assert part == Part("cv", 4, 7) and part.name == "cv_4-7" and part.size == 4
    assert Part.parse("results/cv/x/parts/cv5x2_3-4.csv") == Part("cv5x2", 3, 4)
    # 3 folds per repeat: positions 4..7 are repeat 2 folds 1-3, then repeat 3 fold 1.
    assert part.pairs(3) == ((2, 1), (2, 2), (2, 3), (3, 1))


@pytest.mark.parametrize("name", ["cv_0-3", "cv_5-4", "loo_1-2", "cv1-2", "cv_1-2x"])
def test_bad_part_names_are_refused(name):
    with pytest.raises(ValueError, match="part"):
        Part.parse(name)


@given(st.integers(1, 60), st.integers(1, 80))
def test_split_positions_tiles_the_folds_evenly(n, k):
    parts = plan.split_positions("cv", n, k)
    assert plan.is_tiling(parts, {"cv": n})
    sizes = [p.size for p in parts]
    assert len(parts) == min(k, n) and max(sizes) - min(sizes) <= 1


def test_is_tiling_needs_every_scheme_in_order_without_gaps():
    cv = plan.split_positions("cv", 10, 2)
    cv5x2 = plan.split_positions("cv5x2", 10, 3)
    assert plan.is_tiling(cv + cv5x2, FOLDS)
    assert not plan.is_tiling(cv5x2 + cv, FOLDS)  # scheme order
    assert not plan.is_tiling(cv, FOLDS)  # a scheme missing
    assert not plan.is_tiling((Part("cv", 1, 4), Part("cv", 6, 10), *cv5x2), FOLDS)
    assert not plan.is_tiling(plan.split_positions("cv", 12, 2) + cv5x2, FOLDS)


def test_per_fold_false_true_and_a_list():
    costs = {**units(("A", 50.0, 50.0)), ("weka", "e", "A"): {"cv": 1.0, "cv5x2": 1.0}}
    assert set(plan.choose_parts(costs, FOLDS, [], cores=64).values()) == {()}
    listed = plan.choose_parts(costs, FOLDS, ["e"], cores=1)
    assert listed[("weka", "d", "A")] == ()
    assert [p.size for p in listed[("weka", "e", "A")]] == [1] * 20
    everything = plan.choose_parts(costs, FOLDS, ["d", "e"], cores=1)
    assert all(len(parts) == 20 for parts in everything.values())


def test_auto_splits_nothing_on_one_core_or_when_every_unit_fits_its_share():
    costs = units(("A", 60.0, 60.0), ("B", 2.0, 2.0), ("C", 1.0, 1.0))
    for cores in (None, 1):
        assert set(plan.choose_parts(costs, FOLDS, "auto", cores).values()) == {()}
    # On 2 cores the share is about 67 CPU-s: A (120 and a start) exceeds it and is cut into
    # parts of at most half the share; B and C stay whole.
    two = plan.choose_parts(costs, FOLDS, "auto", 2)
    assert [p.name for p in two[("weka", "d", "A")]] == [
        "cv_1-5",
        "cv_6-10",
        "cv5x2_1-5",
        "cv5x2_6-10",
    ]
    assert two[("weka", "d", "B")] == two[("weka", "d", "C")] == ()
    # Without the long unit, B exceeds its share but is too short to be worth a part.
    del costs[("weka", "d", "A")]
    assert set(plan.choose_parts(costs, FOLDS, "auto", 2).values()) == {()}


def test_auto_cuts_a_long_unit_into_parts_of_about_half_the_fair_share():
    costs = units(("A", 120.0, 60.0), *((f"S{i}", 8.0, 8.0) for i in range(30)))
    whole = sum(sum(c.values()) + plan.START_SECONDS["weka"] for c in costs.values())
    cores = 16
    share = whole / cores
    chosen = plan.choose_parts(costs, FOLDS, "auto", cores)
    parts = chosen[("weka", "d", "A")]
    assert plan.is_tiling(parts, FOLDS)
    target = max(share / 2, plan.MIN_PART_SECONDS)
    counts = {s: [p.scheme for p in parts].count(s) for s in ("cv", "cv5x2")}
    assert counts == {"cv": -(-120.0 // target), "cv5x2": -(-60.0 // target)}
    # Folds are whole: a part holds at most one fold more than an even share.
    assert all(p.size <= -(-10 // counts[p.scheme]) for p in parts)
    # The small units fit their share, with the margin of COST_SPREAD, and stay whole.
    small = plan.COST_SPREAD * (16.0 + plan.START_SECONDS["weka"])
    assert small <= plan.balanced_end(costs, cores) - plan.TAIL_SECONDS
    assert all(chosen[u] == () for u in costs if u[2] != "A")


def test_auto_cuts_a_unit_that_holds_up_the_run_if_it_costs_cost_spread_times_its_estimate(
    monkeypatch,
):
    # On 8 cores a balanced run ends after about 69 s: B (40 CPU-s and a start) would end
    # with the chain after it in time as estimated, but not at COST_SPREAD times the estimate,
    # as scikit-learn's RandomForest on krkopt against Weka's fits on the 16-core machine.
    costs = units(("B", 24.0, 16.0), *((f"S{i}", 6.0, 6.0) for i in range(34)))
    end = plan.balanced_end(costs, 8)
    b = 40.0 + plan.START_SECONDS["weka"]
    assert b <= end - plan.TAIL_SECONDS < plan.COST_SPREAD * b
    chosen = plan.choose_parts(costs, FOLDS, "auto", 8)
    assert chosen[("weka", "d", "B")] and plan.is_tiling(chosen[("weka", "d", "B")], FOLDS)
    assert all(chosen[u] == () for u in costs if u[2] != "B")
    # Where estimates were exact (no margin), B would stay whole.
    monkeypatch.setattr(plan, "COST_SPREAD", 1.0)
    assert set(plan.choose_parts(costs, FOLDS, "auto", 8).values()) == {()}


def test_auto_cuts_a_unit_whose_chain_after_it_would_end_after_the_balanced_run():
    # 30 units of 14 CPU-s and one of 24 on 16 cores: a balanced run (the fits, then
    # POST_SECONDS of later work) ends after about 34 s, so B's fits would end in time, but not
    # B's fits and the chain after them (TAIL_SECONDS); the small units end early enough.
    costs = units(("B", 16.0, 8.0), *((f"S{i}", 7.0, 7.0) for i in range(30)))
    work = sum(sum(c.values()) + plan.START_SECONDS["weka"] for c in costs.values())
    end = (work + plan.POST_SECONDS) / 16  # one engine and dataset
    b = 24.0 + plan.START_SECONDS["weka"]
    assert b <= end and b > end - plan.TAIL_SECONDS
    assert 14.0 + plan.START_SECONDS["weka"] <= end - plan.TAIL_SECONDS
    chosen = plan.choose_parts(costs, FOLDS, "auto", 16)
    assert chosen[("weka", "d", "B")] and plan.is_tiling(chosen[("weka", "d", "B")], FOLDS)
    assert all(chosen[u] == () for u in costs if u[2] != "B")
    # On 4 cores B ends long before the balanced run, and stays whole.
    assert set(plan.choose_parts(costs, FOLDS, "auto", 4).values()) == {()}


def test_auto_counts_the_work_after_the_fits_in_the_balanced_run():
    # A unit of 18 CPU-s among units of 14, on 8 cores: the fits alone would end after about
    # 34 s, too early for A and the chain after it; with POST_SECONDS for each of the 8
    # engine-dataset pairs the balanced run ends late enough for A to stay whole.
    costs = {
        ("weka", f"d{i}", name): {"cv": cv, "cv5x2": cv}
        for i in range(8)
        for name, cv in (("A", 9.0 if i == 0 else 7.0), ("B", 7.0))
    }
    work = sum(sum(c.values()) + plan.START_SECONDS["weka"] for c in costs.values())
    a = 18.0 + plan.START_SECONDS["weka"]
    assert a > work / 8 - plan.TAIL_SECONDS
    assert a <= (work + 8 * plan.POST_SECONDS) / 8 - plan.TAIL_SECONDS
    assert set(plan.choose_parts(costs, FOLDS, "auto", 8).values()) == {()}


def test_auto_never_cuts_below_one_fold_or_the_shortest_part():
    costs = units(("A", 1000.0, 30.0))
    chosen = plan.choose_parts(costs, FOLDS, "auto", cores=10_000)[("weka", "d", "A")]
    assert [p.scheme for p in chosen].count("cv") == 10  # one fold each, no finer
    # On 10,000 cores the run is its longest chain: 30 CPU-s of 5 x 2-fold CV in parts of
    # the shortest a chain may need, PATH_PART_STARTS Weka starts.
    shortest = plan.PATH_PART_STARTS * plan.START_SECONDS["weka"]
    assert plan.part_seconds(costs, 10_000, "weka") == shortest
    assert [p.scheme for p in chosen].count("cv5x2") == -(-30 // shortest)


def test_a_run_bound_by_its_chain_gets_shorter_parts_and_batches():
    # Two engines and four datasets' worth of small work on 16 cores: a balanced run ends
    # after about 6 s, before the chain after any fit (TAIL_SECONDS), so the parts are as short
    # as PATH_PART_STARTS starts of their engine, not MIN_PART_SECONDS.
    costs = {
        ("sklearn", "k", "RF"): {"cv": 20.0, "cv5x2": 14.0},
        ("sklearn", "n", "RF"): {"cv": 6.0, "cv5x2": 5.0},
        **{("sklearn", "n", f"S{i}"): {"cv": 0.75, "cv5x2": 0.75} for i in range(3)},
    }
    end = plan.balanced_end(costs, 16)
    assert end - plan.TAIL_SECONDS < plan.MIN_PART_SECONDS
    size = plan.part_seconds(costs, 16, "sklearn")
    assert size == plan.PATH_PART_STARTS * plan.START_SECONDS["sklearn"] < plan.MIN_PART_SECONDS
    chosen = plan.choose_parts(costs, FOLDS, "auto", 16)
    big = chosen[("sklearn", "k", "RF")]
    assert plan.is_tiling(big, FOLDS)
    assert {s: [p.scheme for p in big].count(s) for s in FOLDS} == {
        "cv": -(-20.0 // size),
        "cv5x2": -(-14.0 // size),
    }
    # 11 CPU-s is under 2 x MIN_PART_SECONDS but more than two of these parts: cut too.
    assert len(chosen[("sklearn", "n", "RF")]) == 4
    # The batches hold at most such a part: the three small units go in pairs at most.
    whole = [unit for unit, parts in chosen.items() if not parts]
    batches = plan.choose_batches(costs, 16, whole)
    assert batches and all(sum(sum(costs[u].values()) for u in batch) <= size for batch in batches)
    # On 2 cores the same run is bound by its work, and the parts keep their usual length.
    assert plan.part_seconds(costs, 2, "sklearn") == plan.part_target(costs, 2)


def test_estimates_grow_with_rows_and_classes_from_a_fixed_cost():
    rf = "weka.classifiers.trees.RandomForest"
    for scheme in plan.SCHEMES:
        fixed = plan.COST_MODEL[rf][scheme].fixed

        def at(rows, classes, scheme=scheme, fixed=fixed):
            return plan.estimate_cost(rf, rows, classes, scheme) - fixed

        assert at(2000, 4) == pytest.approx(2 * at(1000, 4))
        # Linear in the classes, on top of a share per row that no class adds to.
        assert at(1000, 8) - at(1000, 4) == pytest.approx(at(1000, 12) - at(1000, 8))
        assert at(1000, 8) > at(1000, 4) > 0
        # A tiny dataset still costs the fixed part (an ensemble's members, the JIT's warm-up).
        assert plan.estimate_cost(rf, 1, 2, scheme) == pytest.approx(fixed, rel=1e-3)
    # krkopt (28,056 rows, 18 classes): Weka's RandomForest about a minute, J48 a few seconds.
    assert 40 < plan.estimate_cost(rf, 28056, 18) < 80
    assert 40 < plan.estimate_cost(rf, 28056, 18, "cv5x2") < 80
    assert plan.estimate_cost("weka.classifiers.trees.J48", 28056, 18) < 10
    # Weka's DecisionTable grows with the rows more than with the classes: nursery (12,960
    # rows, 5 classes) logs 7-9 s, krkopt (28,056 rows, 18 classes) 17-28 s.
    dt = "weka.classifiers.rules.DecisionTable"
    assert 6 < plan.estimate_cost(dt, 12960, 5) < 11
    assert 15 < plan.estimate_cost(dt, 28056, 18) < 30
    # An unknown classifier: each scheme's largest known terms.
    for scheme in plan.SCHEMES:
        unknown = plan.DEFAULT_COST_MODEL[scheme]
        for term, values in zip(unknown, zip(*(m[scheme] for m in plan.COST_MODEL.values()))):
            assert term == max(values)
        assert plan.estimate_cost("my.Classifier", 28056, 18, scheme) == pytest.approx(
            unknown.fixed + unknown.per_row * 28056 + unknown.per_row_class * 28056 * 18
        )
    assert plan.estimate_cost(rf, None, 4) == plan.estimate_cost(rf, 1000, 4)


def _log(path, *lines, age=0.0):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(["2026 INFO pdmeasure: start", *lines, ""]), encoding="utf-8")
    stamp = 1_700_000_000 - age
    os.utime(path, (stamp, stamp))


def test_measured_costs_read_whole_and_part_logs_newest_first(tmp_path):
    base = tmp_path / "cv" / "weka" / "d"
    whole = base / "A.log"
    _log(
        whole,
        "x " + plan.fit_log_line("cv", 30.0, 10, 10),
        "x " + plan.fit_log_line("cv5x2", 8.0, 10, 10),
        age=100,
    )
    # A newer split run of the k-fold CV: two parts of 4 and 6 folds, 22 CPU-s in all.
    _log(base / "A" / "parts" / "cv_1-4.log", plan.fit_log_line("cv", 9.0, 4, 10))
    _log(base / "A" / "parts" / "cv_5-10.log", plan.fit_log_line("cv", 13.0, 6, 10))
    # Parts of an older run cover half the folds only: scaled to all of them.
    _log(base / "B" / "parts" / "cv5x2_1-5.log", plan.fit_log_line("cv5x2", 5.0, 5, 10))
    costs = plan.measured_costs(tmp_path, [("weka", "d", "A"), ("weka", "d", "B"), ("x", "y", "z")])
    assert costs == {
        ("weka", "d", "A"): {"cv": pytest.approx(22.0), "cv5x2": pytest.approx(8.0)},
        ("weka", "d", "B"): {"cv5x2": pytest.approx(10.0)},
    }


def test_a_finished_unit_keeps_its_recorded_parts(tmp_path):
    unit, other = ("weka", "d", "A"), ("weka", "d", "B")
    key = {unit: "results/cv/weka/d/A/confusion.csv", other: "results/cv/weka/d/B/confusion.csv"}
    fresh = {unit: (), other: plan.split_positions("cv", 10, 2)}
    recorded = {key[unit]: ["cv_1-5", "cv_6-10"], key[other]: []}
    folds = {u: {"cv": 10} for u in fresh}
    settled = plan.settle_parts(fresh, recorded, key, {unit: True, other: False}, folds)
    assert [p.name for p in settled[unit]] == ["cv_1-5", "cv_6-10"]  # kept: finished
    assert settled[other] == fresh[other]  # not finished: planned again
    # A record that no longer tiles the unit (cv.folds changed) is planned again.
    settled = plan.settle_parts(fresh, recorded, key, {unit: True}, {u: {"cv": 4} for u in fresh})
    assert settled[unit] == ()
    # A whole unit stays whole however many cores the next run has.
    recorded[key[other]] = []
    settled = plan.settle_parts(fresh, recorded, key, {other: True, unit: True}, folds)
    assert settled[other] == ()


def test_the_plan_file_round_trips_and_a_damaged_one_is_ignored(tmp_path):
    path = tmp_path / "sub" / "plan.json"
    plan.save_plan(path, {"b": ["cv_1-2"], "a": []}, cores=16)
    assert plan.load_plan(path) == {"a": [], "b": ["cv_1-2"]}
    assert json.loads(path.read_text())["cores"] == 16
    path.write_text("{not json", encoding="utf-8")
    assert plan.load_plan(path) == {}
    assert plan.load_plan(tmp_path / "missing.json") == {}


def test_job_and_part_costs_of_a_plan():
    unit = ("sklearn", "d", "A")
    costs = {unit: {"cv": 20.0, "cv5x2": 10.0}}
    whole = plan.CVPlan(costs, {unit: ()})
    start = plan.START_SECONDS["sklearn"]
    assert whole.job_cost(unit) == pytest.approx(30.0 + start)
    split = plan.CVPlan(costs, {unit: plan.split_positions("cv", 10, 4)})
    assert split.job_cost(unit) == pytest.approx(start)
    assert split.part_cost(unit, Part("cv", 1, 3), 10) == pytest.approx(6.0 + start)


def test_known_rows_from_the_fetched_table_the_manifest_or_the_file(tmp_path, uci_mirror):
    from pdmeasure.pipeline.data.mirror import load_manifest

    fetched = tmp_path / "data" / "car.csv"
    fetched.parent.mkdir()
    manifest = load_manifest(uci_mirror)
    assert plan.known_rows({"uci_id": 19}, fetched, manifest) == 1728
    fetched.with_suffix(".json").write_text(json.dumps({"rows": 77}), encoding="utf-8")
    assert plan.known_rows({"uci_id": 19}, fetched, manifest) == 77
    local = tmp_path / "mine.csv"
    local.write_text("a,b\n1,2\n3,4\n5,6\n", encoding="utf-8")
    assert plan.known_rows({"path": str(local)}, tmp_path / "none.csv", None) == 3
    assert plan.known_rows({"openml_id": 61}, tmp_path / "none.csv", None) is None


def _mixed(*specs):
    """{(engine, dataset, classifier): {"cv": cost}} from (engine, dataset, classifier, cost)."""
    return {(e, d, c): {"cv": cost} for e, d, c, cost in specs}


def test_batches_pack_small_whole_units_of_one_engine_and_dataset():
    costs = _mixed(
        ("weka", "a", "A", 1.0),
        ("weka", "a", "B", 2.0),
        ("weka", "a", "C", 300.0),
        ("weka", "b", "A", 1.0),
        ("sklearn", "a", "A", 1.0),
        ("sklearn", "a", "B", 1.0),
    )
    every = list(costs)
    # 4 cores: a batch holds at most a part's fitting; C fills one alone.
    target = plan.part_target(costs, 4)
    assert target == pytest.approx(max((306 + 4 * 2.6 + 2 * 1.8) / 8, plan.MIN_PART_SECONDS))
    assert plan.batch_target(costs, 4, "weka") == pytest.approx(target)
    batches = plan.choose_batches(costs, 4, every)
    assert batches == (
        (("weka", "a", "A"), ("weka", "a", "B")),
        (("sklearn", "a", "A"), ("sklearn", "a", "B")),
    )
    # Never across engines or datasets, and a unit alone is no batch.
    assert all(len({u[:2] for u in batch}) == 1 and len(batch) > 1 for batch in batches)
    # On one core everything of an engine and dataset shares a job.
    one = plan.choose_batches(costs, 1, every)
    assert (("weka", "a", "A"), ("weka", "a", "B"), ("weka", "a", "C")) in one
    # Only the eligible units (a split one is not).
    assert plan.choose_batches(costs, 4, [("weka", "a", "A")]) == ()


@given(
    st.lists(st.floats(0.1, 50.0), min_size=1, max_size=12),
    st.integers(1, 64),
)
def test_batches_hold_each_unit_once_and_stay_under_the_target(costs_list, cores):
    costs = {("weka", "d", f"c{i}"): {"cv": cost} for i, cost in enumerate(costs_list)}
    batches = plan.choose_batches(costs, cores, list(costs))
    members = [unit for batch in batches for unit in batch]
    assert len(members) == len(set(members))
    order = list(costs)
    for batch in batches:
        assert list(batch) == sorted(batch, key=order.index)  # the run's order
        if cores > 1:
            fits = sum(costs[unit]["cv"] for unit in batch)
            assert fits <= plan.batch_target(costs, cores, "weka") + 1e-9


def test_a_finished_batch_is_kept_and_the_rest_batched_afresh():
    units = [("weka", "d", name) for name in "ABCD"]
    key = {unit: f"results/cv/weka/d/{unit[2]}/confusion.csv" for unit in units}
    recorded = [[key[units[0]], key[units[1]]]]
    asked = []

    def fresh(free):
        asked.append(list(free))
        return (tuple(free),) if len(free) > 1 else ()

    finished = {units[0]: True, units[1]: True, units[2]: False, units[3]: False}
    settled = plan.settle_batches(fresh, recorded, key, finished, units)
    assert settled == ((units[0], units[1]), (units[2], units[3]))
    assert asked == [[units[2], units[3]]]
    # A finished unit outside any recorded batch stays alone: the job that made it.
    finished[units[2]] = True
    settled = plan.settle_batches(fresh, [], key, finished, units)
    assert settled == ()  # A, B, C finished; D alone is no batch
    # A recorded batch with a unit no longer in the run, or now split, is not kept.
    settled = plan.settle_batches(fresh, recorded, key, finished, units[1:])
    assert all(units[0] not in batch for batch in settled)


def test_the_record_keeps_batches_of_units_outside_the_run(tmp_path):
    a, b, c = (("weka", "d", n) for n in "ABC")
    key = {a: "ka", b: "kb"}
    # c is outside this run: its recorded batch (with a) stays in the record, unless a is
    # batched anew in this run.
    assert plan.batch_record([], [["ka", "kc"]], key) == [["ka", "kc"]]
    assert plan.batch_record([(a, b)], [["ka", "kc"]], key) == [["ka", "kb"]]
    # A recorded batch of this run's units is replaced by this run's batches.
    assert plan.batch_record([], [["ka", "kb"]], key) == []
    path = tmp_path / "plan.json"
    plan.save_plan(path, {"ka": [], "kb": []}, cores=2, batches=[["ka", "kb"]])
    assert plan.load_batches(path) == [["ka", "kb"]]
    assert plan.load_plan(path) == {"ka": [], "kb": []}
    assert plan.load_batches(tmp_path / "missing.json") == []


def test_measured_costs_read_the_lines_of_a_batch_that_name_the_unit(tmp_path):
    base = tmp_path / "cv" / "sklearn" / "d"
    _log(
        base / "batches" / "1.log",
        plan.fit_log_line("cv", 3.0, 10, 10, "A"),
        plan.fit_log_line("cv", 5.0, 10, 10, "B"),
        plan.fit_log_line("cv5x2", 2.0, 10, 10, "B"),
    )
    costs = plan.measured_costs(tmp_path, [("sklearn", "d", "A"), ("sklearn", "d", "B")])
    assert costs == {
        ("sklearn", "d", "A"): {"cv": pytest.approx(3.0)},
        ("sklearn", "d", "B"): {"cv": pytest.approx(5.0), "cv5x2": pytest.approx(2.0)},
    }
    # A unit's own log does not read a batch's lines, nor a batch's a unit's.
    _log(base / "A.log", plan.fit_log_line("cv", 9.0, 10, 10, "A"), age=-10)
    assert plan.measured_costs(tmp_path, [("sklearn", "d", "A")])[("sklearn", "d", "A")] == {
        "cv": pytest.approx(3.0)
    }


def test_a_batch_costs_its_fits_and_one_start():
    a, b = ("weka", "d", "A"), ("weka", "d", "B")
    costs = {a: {"cv": 2.0, "cv5x2": 1.0}, b: {"cv": 4.0}}
    cvplan = plan.CVPlan(costs, {a: (), b: ()}, ((a, b),))
    assert cvplan.batch_cost((a, b)) == pytest.approx(7.0 + plan.START_SECONDS["weka"])


def test_tail_datasets_are_those_within_a_share_of_the_heaviest_over_every_engine():
    costs = {
        ("weka", "big", "A"): {"cv": 30.0, "cv5x2": 20.0},
        ("sklearn", "big", "A"): {"cv": 10.0},
        ("weka", "mid", "A"): {"cv": 20.0},
        ("sklearn", "mid", "A"): {"cv": 10.0, "cv5x2": 5.0},  # 35 of big's 60: over half
        ("weka", "small", "A"): {"cv": 29.0},  # the largest unit but one, alone under half
    }
    assert plan.tail_datasets(costs) == {"big", "mid"}
    assert plan.tail_datasets(costs, share=0.6) == {"big"}
    assert plan.tail_datasets(costs, share=0.0) == {"big", "mid", "small"}


def test_tail_datasets_of_equal_or_unknown_sizes_are_every_dataset():
    same = {("weka", name, "A"): {"cv": 2.0} for name in ("a", "b", "c")}
    assert plan.tail_datasets(same) == {"a", "b", "c"}
    assert plan.tail_datasets({}) == frozenset()
