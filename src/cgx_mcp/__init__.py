"""cgx_mcp."""
