"""The MPI job this process belongs to, found without MPI.

Whether a launcher started the process (``launched_under_mpi``), ``mpi4py.MPI`` imported on
first use with one error and one install hint when it cannot be (``_import``), the serial
stand-in of one rank and the default communicator (``get_mpi``, ``default_comm``:
``_serial``), and the node-local rank (``_local_rank``). Below both ``cunumpy.cuda``
(``bind_local_device`` picks a GPU by the node-local rank) and ``cunumpy.mpi``, which
exports these names; importing it imports neither mpi4py nor CuPy.
"""
