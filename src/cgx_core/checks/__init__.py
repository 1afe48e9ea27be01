"""The check engine: the plugin API check types implement, the registry, and the engine that runs them."""
