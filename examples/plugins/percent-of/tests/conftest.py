"""The fixtures credencegraph-extract ships for plugin authors: `cgx_plugin_manager` and `cgx_run`."""

pytest_plugins = ["cgx_core.testing"]
