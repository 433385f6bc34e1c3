# Module grids: rules and the final targets it contributes to `rule all`.
GRIDS_TARGETS = []
