"""The scale kernel's folder."""
