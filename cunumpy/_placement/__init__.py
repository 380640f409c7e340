"""The placement layer: where data is, the order of GPU work, and the log of copies.

One canonical form for every device spec (``_devices``), ordering work between
streams and the pool of ``stream()`` streams (``_stream_order``), and the one hook
every copy between host and device notes (``_transfer_log``). The backends, ``cuda``
and the kernels call it; it imports only ``_settings``, so a transfer walks down.
"""
