"""Rebuild .test/data/openml: a filled scikit-learn OpenML cache of iris (OpenML id 61).

The files are scikit-learn's own recorded OpenML responses (shipped in its wheel under
sklearn/datasets/tests/data/openml/id_61, BSD-3-Clause; the data are OpenML's iris, CC BY),
copied to the paths where ``sklearn.datasets.fetch_openml(data_id=61, data_home=...)`` looks
for its cache, so that the pipeline reads them as its offline mirror (config
``openml.mirror``). Run from the repository root: ``python .test/data/make_openml_mirror.py``.
"""

import shutil
from pathlib import Path

import sklearn

RECORDED = Path(sklearn.__file__).parent / "datasets" / "tests" / "data" / "openml" / "id_61"
CACHE = Path(__file__).parent / "openml" / "openml" / "openml.org"

#: Recorded file -> cache path (scikit-learn's _get_local_path: <url path> + ".gz").
FILES = {
    "api-v1-jd-61.json.gz": "api/v1/json/data/61.gz",
    "api-v1-jdf-61.json.gz": "api/v1/json/data/features/61.gz",
    "api-v1-jdq-61.json.gz": "api/v1/json/data/qualities/61.gz",
    "data-v1-dl-61.arff.gz": "data/v1/download/61/iris.arff.gz",
}

if __name__ == "__main__":
    for recorded, cached in FILES.items():
        target = CACHE / cached
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(RECORDED / recorded, target)
        print(target)
