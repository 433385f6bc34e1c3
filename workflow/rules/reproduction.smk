# Module reproduction: rules and the final targets it contributes to `rule all`.
REPRODUCTION_TARGETS = []
