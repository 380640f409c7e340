"""Running the public Array API test suite against cunumpy (see ``run.py``)."""
