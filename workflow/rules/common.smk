# Config validation, engine checks, shared paths and input functions.
