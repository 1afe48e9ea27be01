"""cgx_checks."""
