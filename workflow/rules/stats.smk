# Module stats: rules and the final targets it contributes to `rule all`.
STATS_TARGETS = []
