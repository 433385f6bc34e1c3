# Module cv: rules and the final targets it contributes to `rule all`.
CV_TARGETS = []
