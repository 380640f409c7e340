"""The top-level functions of the standard, one module per topic (generated, see tools/)."""
