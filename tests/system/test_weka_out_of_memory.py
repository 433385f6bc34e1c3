"""Java's OutOfMemoryError in a Weka fit is a recorded failure that names the memory settings,
and the job's JVM goes on with the next classifier.

SMO with a kernel cache of 2e8 entries allocates two arrays of 1.6 GB when it builds its
kernel: with `resources.cv_mem_mb.weka: 600` the JVM's heap is its minimum, 256 MB (600 -
512 MB, raised to weka_jvm.MIN_HEAP_MB), and the allocation fails at once, without the
garbage collector thrashing first.
"""

from __future__ import annotations

import shutil

import pytest
import yaml

from helpers import REPO_ROOT, run_snakemake, weka_or_missing
from pdmeasure.tables.fits import FAILED, OK, read_fits

pytestmark = pytest.mark.weka

HUGE_CACHE = {
    "class": "weka.classifiers.functions.SMO",
    "options": ["-K", "weka.classifiers.functions.supportVector.PolyKernel -E 1.0 -C 200000000"],
}


def test_out_of_memory_is_recorded_with_the_setting_that_fixes_it(tmp_path):
    weka_or_missing()
    (tmp_path / "data").mkdir()
    shutil.copy(REPO_ROOT / "tests" / "data" / "arff" / "labor.arff", tmp_path / "data")
    shutil.copy(REPO_ROOT / "config.yaml", tmp_path / "config.yaml")
    config = {
        "run": {
            "datasets": ["dataset_files"],
            "engines": ["weka"],
            "classifiers": {"weka": ["HugeCache", "J48"]},
        },
        "cv": {"folds": 3},
        "stats": {"cv5x2": False},
        "resources": {"cv_mem_mb": {"weka": 600}},
        "dataset_files": [{"glob": "data/*.arff"}],
        "classifiers": {"weka": {"HugeCache": HUGE_CACHE}},
    }
    (tmp_path / "study.yaml").write_text(yaml.safe_dump(config))
    target = "results/cv/weka/labor"
    done = run_snakemake(
        tmp_path, target, "--configfile", "study.yaml", "--cores", "1", timeout=120
    )
    assert done.returncode == 0, done.stderr[-4000:]
    fits = read_fits(tmp_path / target)
    assert fits["classifier"].tolist() == ["HugeCache", "J48"]
    assert fits["status"].tolist() == [FAILED, OK]
    reason = fits["reason"].iloc[0]
    assert reason.startswith("out of memory (java.lang.OutOfMemoryError: Java heap space)")
    assert "the job had mem_mb = 600 MB, a Java heap of 256m" in reason
    assert "Raise `resources.cv_mem_mb.weka`" in reason and "`resources.scale`" in reason
    assert not (tmp_path / target / "HugeCache").exists()
    assert (tmp_path / target / "J48" / "confusion.csv").is_file()
