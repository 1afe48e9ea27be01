"""cgx_core."""
