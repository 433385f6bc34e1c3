# Module exact: rules and the final targets it contributes to `rule all`.
EXACT_TARGETS = []
