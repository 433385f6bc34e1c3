# Module tables: rules and the final targets it contributes to `rule all`.
TABLES_TARGETS = []
