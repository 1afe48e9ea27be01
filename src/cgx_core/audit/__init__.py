"""Runs at rest, checked: replay rebuilds a run from its log, verify re-runs its checks (on one machine or a
cluster), integrity checks every digest and the log's chain."""
