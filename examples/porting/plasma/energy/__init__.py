"""The ``energy`` kernel: not ported yet (runs on the host through copies)."""
