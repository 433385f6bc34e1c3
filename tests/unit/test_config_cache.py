"""The resolved run kept for the processes that run jobs (pdmeasure.pipeline.config.cache):
read back exactly as written, in the same order, or not at all."""

from __future__ import annotations

import json

from pdmeasure.pipeline.config import load_run, run_key, save_run


def test_a_saved_run_reads_back_in_order_under_its_key(tmp_path):
    run = {"datasets": {"wine": {"classes": ["1", "2"]}, "iris": {"missing": None}}, "cv": 3}
    path = tmp_path / "pdmeasure" / "run.json"
    assert save_run(path, "k", run)
    back = load_run(path, "k")
    assert back == run and list(back["datasets"]) == ["wine", "iris"]
    assert load_run(path, "other") is None
    assert load_run(tmp_path / "missing.json", "k") is None
    path.write_text("{broken", encoding="utf-8")
    assert load_run(path, "k") is None


def test_a_run_json_would_change_is_not_saved(tmp_path):
    path = tmp_path / "run.json"
    assert not save_run(path, "k", {"classes": ("a", "b")})  # a tuple comes back a list
    assert not save_run(path, "k", {"grid": {1: [0, 1]}})  # an int key comes back text
    assert not save_run(path, "k", {"x": object()})
    assert not path.exists()


def test_the_key_follows_the_config_its_order_and_the_mirror(monkeypatch):
    monkeypatch.delenv("UCI_MIRROR", raising=False)
    config = {"datasets": {"a": {}, "b": {}}}
    key = run_key(config)
    assert run_key(json.loads(json.dumps(config))) == key
    assert run_key({"datasets": {"b": {}, "a": {}}}) != key
    monkeypatch.setenv("UCI_MIRROR", "/elsewhere")
    assert run_key(config) != key
