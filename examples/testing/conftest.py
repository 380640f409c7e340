pytest_plugins = ["cunumpy.testing.plugin"]
