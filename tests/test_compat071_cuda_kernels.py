"""CuNumpy 0.7.1's CUDA kernel layer: every function's and method's parameters as 0.7.1's
signatures give them (``kw:`` for keyword-only), read from 0.7.1 with ``inspect.signature``."""

from __future__ import annotations

import pytest
from signatures071 import lookup, parameters

PARAMETERS_071 = {
    "arguments.CudaArguments": "*values",
    "arguments.CudaStruct": "name, fields",
    "arguments.CudaStruct.from_signature": "func, name, kw:int_type='long long', kw:scalar_names=None, kw:contiguous=False",
    "arguments.CudaStruct.from_pyccel_class": "source, class_name, name=None, kw:int_type='long long', kw:scalar_names=None, kw:exclude=(), kw:attribute_names=True, kw:contiguous=False",
    "arguments.CudaStruct.to_header": "path=None, kw:guard=None, kw:includes=()",
    "arguments.CudaStruct.check_source": "source",
    "arguments.CudaStruct.layout_source": "include=None",
    "arguments.CudaStruct.verify_layout": "include=None, kw:include_dirs=(), kw:options=()",
    "arguments.CudaStructValue": "struct, packed, values",
    "arguments.CudaStructArguments.pack": "",
    "arguments.write_cuda_header": "path, structs, guard=None, kw:includes=()",
    "cuda.parse_cuda_signature": "source, name, kw:structs=(), kw:template_args=None",
    "cuda.ctype_of": "dtype",
    "cuda.cuda_kernel_names": "source",
    "cuda.cuda_include_dir": "",
    "cuda.resolve_includes": "source, include_dirs=(), kw:base_dir=None, kw:angle_dirs=()",
    "cuda.include_hash": "paths",
    "cuda.set_cuda_debug": "enabled",
    "cuda.get_cuda_debug": "",
    "cuda.cuda_debug": "enabled=True",
    "cuda.is_hip": "",
    "cuda.max_shared_memory_per_block": "device=None, kw:opt_in=False",
    "kernels.CudaKernel": "source, name, kw:block_size=128, kw:options=(), kw:include_dirs=(), kw:source_dir=None, kw:structs=(), kw:template_args=None, kw:check_signature=True, kw:debug=None, kw:n_threads_from='auto', kw:check_finite=False",
    "kernels.CudaKernel.from_file": "path, name=None, kw:suffix='_cuda.cu', **kwargs",
    "kernels.CudaKernel.all_from_file": "path, **kwargs",
    "kernels.CudaKernel.__call__": "*args, kw:n_threads=None, kw:grid=None, kw:block=None, kw:shared_mem=0, kw:stream=None",
    "kernels.CudaKernel.launch_shape": "n_threads=None, kw:grid=None, kw:block=None, kw:args=None",
    "kernels.CudaKernel.prepare_args": "*args",
    "kernels.CudaKernel.compile": "kw:log_stream=None",
    "kernels.CudaKernel.recompile": "kw:log_stream=None",
    "kernels.CudaKernel.compile_options": "",
    "kernels.CudaKernel.debug_active": "",
    "kernels.CudaKernelVariants": "factory",
    "kernels.CudaKernelVariants.get": "*key",
    "kernels.CudaKernelVariants.keys": "",
    "kernels.CudaKernelVariants.compile_all": "keys=(), kw:jobs=1",
}


@pytest.mark.parametrize("path", sorted(PARAMETERS_071))
def test_signature_matches_cunumpy_071(path: str) -> None:
    assert parameters(lookup(path)) == PARAMETERS_071[path]
