"""The count kernel's folder."""
