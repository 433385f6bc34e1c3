# Module data: rules and the final targets it contributes to `rule all`.
DATA_TARGETS = []
