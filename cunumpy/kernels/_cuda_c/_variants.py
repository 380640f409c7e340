"""``CudaKernelVariants``: kernels whose source is generated per variant, each created once."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence

from ._cuda_kernel import CudaKernel

__all__ = ["CudaKernelVariants"]


class CudaKernelVariants:
    """Kernels generated per variant (a dtype, a dimension, ...), each created on first use.

    Parameters
    ----------
    factory : callable
        Called with a variant's key (``factory(*key)``) the first time it is asked for;
        returns its :class:`CudaKernel`.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import cuda, kernels
    >>> def make_scale(dtype):
    ...     ctype = cuda.ctype_of(dtype)
    ...     return kernels.CudaKernel(
    ...         f'extern "C" __global__ void scale({ctype}* x, {ctype} a) {{}}', "scale")
    >>> scale = kernels.CudaKernelVariants(make_scale)
    >>> scale.get(np.float32).signature[1].ctype
    'float'
    >>> scale.get(np.float32) is scale.get(np.float32), len(scale)
    (True, 1)
    """

    def __init__(self, factory: Callable[..., CudaKernel]) -> None:
        if not callable(factory):
            msg = f"CudaKernelVariants: `factory` must be a callable returning a CudaKernel, not {factory!r}."
            raise TypeError(msg)
        self._factory = factory
        self._kernels: dict[tuple[Hashable, ...], CudaKernel] = {}

    def __repr__(self) -> str:
        return f"CudaKernelVariants({len(self._kernels)} variants)"

    def get(self, *key: Hashable) -> CudaKernel:
        """The kernel of variant ``key``, made by the factory the first time.

        Parameters
        ----------
        *key
            The variant's key, passed to the factory.

        Returns
        -------
        CudaKernel
            The kernel.

        Raises
        ------
        TypeError
            If the factory returns something else than a :class:`CudaKernel`.
        """
        kernel = self._kernels.get(key)
        if kernel is None:
            kernel = self._factory(*key)
            if not isinstance(kernel, CudaKernel):
                msg = f"CudaKernelVariants: the factory returned {kernel!r} for {key!r}, not a CudaKernel."
                raise TypeError(msg)
            self._kernels[key] = kernel
        return kernel

    def __len__(self) -> int:
        return len(self._kernels)

    def __iter__(self) -> Iterator[tuple[Hashable, ...]]:
        return iter(list(self._kernels))

    def keys(self) -> list[tuple[Hashable, ...]]:
        """The keys of the variants made so far.

        Returns
        -------
        list of tuple
            The keys, in order of creation.
        """
        return list(self._kernels)

    def compile_all(self, keys: Iterable[Sequence[Hashable]] = (), *, jobs: int | None = 1) -> None:
        """Make the variants of ``keys`` and compile every variant made, on the current GPU.

        Every variant is compiled even when one fails; the first error is raised after.

        Parameters
        ----------
        keys : iterable of sequence, optional
            Keys of variants to make now, e.g. ``[(np.float64,)]``.
        jobs : int or None, default 1
            Variants compiled at a time, in threads (NVRTC releases the GIL); None for
            one per CPU.

        Raises
        ------
        RuntimeError
            Without a usable CuPy.
        """
        for key in keys:
            self.get(*key)
        kernels = list(self._kernels.values())
        errors: list[BaseException] = []

        def build(kernel: CudaKernel) -> None:
            try:
                kernel.compile()
            except Exception as exc:  # collected: every variant is tried
                errors.append(exc)

        if jobs == 1:
            for kernel in kernels:
                build(kernel)
        else:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=jobs) as pool:
                list(pool.map(build, kernels))
        if errors:
            raise errors[0]
