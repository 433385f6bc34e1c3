# Module paper: rules and the final targets it contributes to `rule all`.
PAPER_TARGETS = []
