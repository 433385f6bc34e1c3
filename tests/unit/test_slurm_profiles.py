"""The two Slurm profiles: ``profiles/slurm`` for a cluster, and the CI's
``.ci/slurm-profile``, which tests/system/test_slurm.py runs on the single-node Slurm of
``.ci/slurm-up``. The CI's must be the cluster's plus the two settings of a Slurm without job
accounting, so that the Slurm test tests what a cluster runs."""

from __future__ import annotations

import yaml

from helpers import REPO_ROOT

CLUSTER = REPO_ROOT / "profiles" / "slurm" / "config.yaml"
CI = REPO_ROOT / ".ci" / "slurm-profile" / "config.yaml"
#: What the CI's profile adds: squeue for the job status (no slurmdbd there), early checks.
CI_ONLY = {"slurm-status-command": "squeue", "slurm-init-seconds-before-status-checks": 1}


def load(path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_the_ci_profile_is_the_cluster_profile_with_squeue():
    assert load(CI) == {**load(CLUSTER), **CI_ONLY}


def test_the_cluster_profile_keeps_the_plugins_status_checks_and_groups_each_dataset():
    cluster = load(CLUSTER)
    assert cluster["executor"] == "slurm"
    assert not set(CI_ONLY) & set(cluster)
    assert cluster["groups"] == ["cross_validate=dataset", "analyse=dataset"]
    assert {"mem_mb", "runtime"} <= set(cluster["default-resources"])
    # The partition and account are the user's to fill in: placeholders, commented out.
    text = CLUSTER.read_text(encoding="utf-8")
    assert "# slurm_partition:" in text and "# slurm_account:" in text
