"""The tools an agent calls: one registry that the MCP server and the command line both serve."""
