"""Reading a paper into the ingested graph, within the paper's boundary and a budget: its files, bibliography,
tables, cited copies and offline sources (start_run's first step; replay reads the paper the same way)."""
