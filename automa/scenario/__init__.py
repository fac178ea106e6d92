"""Scenario files (CONTRACT.md): load with validation, save atomically."""
