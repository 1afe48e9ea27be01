"""cgx_cli."""
