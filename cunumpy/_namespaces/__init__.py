"""Finding namespaces: which library an array or a namespace belongs to.

``array_namespace`` and its cache (``_array_namespace``), the ``is_<library>_array`` and
``is_<library>_namespace`` predicates that import no library (``_array_predicates``,
``_namespace_predicates``), the library and GPU that hold some arguments
(``_data_library``), the inspection API of the top level (``_inspection``) and 0.7.x's
``ArrayBackend`` view (``_array_backend_view``). Imports only the floors below it: the
backends' namespaces, the backend choice, placement and settings.
"""
