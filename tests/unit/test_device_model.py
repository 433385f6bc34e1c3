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
