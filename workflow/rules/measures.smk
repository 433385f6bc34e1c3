# Module measures: rules and the final targets it contributes to `rule all`.
MEASURES_TARGETS = []
