"""The device model of ``benchmarks/simulate_cores.py`` and its fit in
``benchmarks/device_model.py``: each job's time on the 16-core device from its start-up and
work here."""

from __future__ import annotations

import pytest

from helpers import benchmark_module

simulate = benchmark_module("simulate_cores")
model = benchmark_module("device_model")

DEVICE = {"speed": 1.5, "kit_start": 3.0}


def test_a_job_on_the_device_is_its_work_and_its_start_up_scaled_apart():
    start = simulate.START
    time = {"fit": 10.0 + start, "light": 1.0 + start, "untimed": 2.0 + start}
    startup = {"fit": 1.0, "light": 0.8}
    kit = simulate.on_device(time, startup, device=DEVICE)
    # speed x (work + kit_start x start-up) + start
    assert kit["fit"] == pytest.approx(1.5 * (9.0 + 3.0 * 1.0) + start)
    assert kit["light"] == pytest.approx(1.5 * (0.2 + 3.0 * 0.8) + start)
    assert kit["untimed"] == pytest.approx(1.5 * 2.0 + start)
    compiled = simulate.on_device(time, startup, compiled=True, device=DEVICE)
    assert compiled == pytest.approx({job: 1.5 * (t - start) + start for job, t in time.items()})
    same = simulate.on_device(time, startup, device={"speed": 1.0, "kit_start": 1.0})
    assert same == pytest.approx(time)


def test_a_parallel_job_keeps_its_processes_and_scales_its_busiest_one():
    spans = {"analyse": (4.0 + simulate.START, 3)}
    scaled = simulate.device_spans(spans, {"analyse": 1.0}, device=DEVICE)
    assert scaled["analyse"][1] == 3
    assert scaled["analyse"][0] == pytest.approx(1.5 * (4.0 + 2.0 * 1.0) + simulate.START)


def _run():
    """A toy DAG: data, two fits, a light chain of three jobs."""
    cpu = {"data": 1.0, "fit_a": 20.0, "fit_b": 8.0, "m": 1.0, "c": 1.5, "r": 2.0}
    needs = {
        "data": set(),
        "fit_a": {"data"},
        "fit_b": {"data"},
        "m": {"fit_a", "fit_b"},
        "c": {"m"},
        "r": {"c"},
    }
    startup = {"data": 0.6, "fit_a": 1.2, "fit_b": 1.2, "m": 0.7, "c": 1.1, "r": 1.0}
    time = {job: seconds + simulate.START for job, seconds in cpu.items()}
    return {"time": time, "startup": startup, "needs": needs, "spans": {}}


def test_the_fit_finds_the_speed_that_made_the_measured_runs(monkeypatch):
    run = _run()
    truth = {"speed": 1.37, "kit_start": 2.5}
    measured = {cores: (model.modelled(run, cores, truth),) for cores in (1, 2, 8)}
    monkeypatch.setattr(model.sc, "DEVICE_RUNS", {"full": measured})
    grid = [round(0.5 + 0.01 * i, 2) for i in range(201)]
    assert model.fit_speed({"full": run}, 2.5, grid) == pytest.approx(1.37)
    rows = model.errors({"full": run}, truth)
    assert [row[:2] for row in rows] == [("full", 1), ("full", 2), ("full", 8)]
    assert all(abs(row[-1]) < 1e-12 for row in rows)
    # A wrong start-up factor cannot be made up for exactly by the speed.
    assert model.loss({"full": run}, {"speed": 1.37, "kit_start": 1.0}) > 1e-4


def test_the_replay_prints_the_device_estimates_when_it_has_the_start_ups(capsys):
    run = _run()
    simulate.print_replay(run["time"], run["needs"], [2, 8], startup=run["startup"])
    out = capsys.readouterr().out
    assert "device, kit (s)" in out and "device, compiled (s)" in out
    kit = simulate.simulate(simulate.on_device(run["time"], run["startup"]), run["needs"], 8)
    row = next(line for line in out.splitlines() if line.split()[:1] == ["8"])
    assert f"{kit:.1f}" in row.split()
    simulate.print_replay(run["time"], run["needs"], [2])
    assert "device" not in capsys.readouterr().out.split("\n")[0]


def test_a_run_of_this_version_is_modelled_with_the_stored_and_the_fitted_speed():
    run = _run()
    fitted = {"speed": 0.8, "kit_start": 2.5}
    rows = model.model_rows({"toy": run}, [2, 8], fitted)
    assert [row[:2] for row in rows] == [("toy", 2), ("toy", 8)]
    for _, cores, replay, stored, with_fitted in rows:
        assert replay == pytest.approx(simulate.simulate(run["time"], run["needs"], cores))
        assert stored == pytest.approx(model.modelled(run, cores, simulate.DEVICE, compiled=True))
        # Compiled: the start-up factor plays no part, only the speed.
        same = {"speed": 0.8, "kit_start": 1.0}
        assert with_fitted == pytest.approx(model.modelled(run, cores, same))
    # Fewer device seconds per CPU second here: a shorter run.
    assert rows[1][4] < rows[1][3]


def test_a_weka_fit_takes_the_jvm_speed_for_its_work_and_python_s_for_its_start_up():
    start = simulate.START
    time = {"cv/weka/krkopt/J48.log": 10.0 + start, "cv/sklearn/krkopt/RF.log": 10.0 + start}
    startup = {"cv/weka/krkopt/J48.log": 1.0, "cv/sklearn/krkopt/RF.log": 1.0}
    device = {"speed": 1.2, "jvm_speed": 0.7, "kit_start": 2.0}
    kit = simulate.on_device(time, startup, device=device)
    assert kit["cv/weka/krkopt/J48.log"] == pytest.approx(1.2 * 2.0 * 1.0 + 0.7 * 9.0 + start)
    assert kit["cv/sklearn/krkopt/RF.log"] == pytest.approx(1.2 * (2.0 * 1.0 + 9.0) + start)
    # 2d05d40's 5 x 2-fold jobs fit Weka models too; its analyses of Weka's results do not.
    assert simulate.jvm_job("stats/cv5x2/weka/krkopt/J48.log")
    assert not simulate.jvm_job("analyse/weka/krkopt.log")
    assert not simulate.jvm_job("stats/cv5x2/sklearn/krkopt/RF.log")


def test_the_fit_takes_python_s_speed_from_the_sklearn_runs_then_the_jvm_s(monkeypatch):
    run = _run()

    def weka_name(job):
        return "cv/weka/" + job if job.startswith("fit") else job

    # The same DAG with its two fits as Weka's.
    weka = {
        "time": {weka_name(job): t for job, t in run["time"].items()},
        "startup": {weka_name(job): t for job, t in run["startup"].items()},
        "needs": {weka_name(j): set(map(weka_name, n)) for j, n in run["needs"].items()},
        "spans": {},
    }
    truth = {"speed": 1.21, "jvm_speed": 0.74, "kit_start": 2.5}
    monkeypatch.setattr(
        model.sc,
        "DEVICE_RUNS",
        {
            "full": {cores: (model.modelled(weka, cores, truth),) for cores in (2, 8)},
            "sklearn": {cores: (model.modelled(run, cores, truth),) for cores in (2, 8)},
        },
    )
    grid = [round(0.5 + 0.01 * i, 2) for i in range(201)]
    fitted = model.fit_speeds({"full": weka, "sklearn": run}, 2.5, grid)
    assert fitted == pytest.approx(truth)
    # With one DAG's runs only, one speed for both.
    one = model.fit_speeds({"sklearn": run}, 2.5, grid)
    assert one["speed"] == one["jvm_speed"] == pytest.approx(1.21)
