"""Generated tables (scripts/generate_tables.py)."""
