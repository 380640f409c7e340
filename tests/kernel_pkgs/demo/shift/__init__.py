"""The shift kernel's folder."""
