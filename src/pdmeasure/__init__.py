"""pdmeasure: the preference-driven classification measure and its reproduction pipeline.

Modules
-------
measures     every confusion-matrix measure of the papers, batched over ``(..., C, C)``.
published    the papers' printed numbers and the errata.
examples     the papers' example confusion matrices (cm1..cm9, Table 4, Pacc matrices).
data         fetching UCI datasets (ucimlrepo, then an offline mirror) into canonical tables.
engines      classifier engines (scikit-learn, Weka) behind one interface.
cv           stratified k-fold cross-validation -> per-sample predictions.
confusion    predictions <-> confusion matrices (long format, configured class order).
"""

__version__ = "0.1.0"
