"""Rules data: the TOML files in data/, the user's overrides, and their validation."""
