"""cunumpy.arguments on the CPU: struct declarations, layouts, headers, argument objects.

That the packed layouts equal the C compiler's is proved in tests/test_cuda_sources.py
(static_asserts on offsetof/sizeof compiled with NVRTC or nvcc).
"""

from __future__ import annotations

import copy
import pickle
import sys
import types
from typing import Any

import numpy as np
import pytest

from cunumpy import arguments


class FakeDeviceArray:
    """What struct packing reads of a CuPy array, over a NumPy array."""

    def __init__(self, host: np.ndarray) -> None:
        self.host = host
        self.dtype, self.shape, self.ndim = host.dtype, host.shape, host.ndim
        self.strides, self.flags = host.strides, host.flags
        self.data = types.SimpleNamespace(ptr=host.ctypes.data)


@pytest.fixture
def fake_cupy(monkeypatch: pytest.MonkeyPatch) -> Any:
    module = types.ModuleType("cupy")
    module.ndarray = FakeDeviceArray  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "cupy", module)
    return FakeDeviceArray


def test_the_module_exports_exactly_its_names() -> None:
    import cunumpy

    assert dir(arguments) == arguments.__all__
    assert cunumpy.arguments is arguments


def test_the_layout_follows_c_alignment() -> None:
    s = arguments.CudaStruct(
        "S", [("flag", "bool"), ("x", "double"), ("n", "int"), ("a", "Array2D<float>")]
    )
    assert [s.dtype.fields[f][1] for f in ("flag", "x", "n", "a")] == [0, 8, 16, 24]
    assert s.dtype.itemsize == 24 + 8 * 5
    assert s.has_views


def test_a_bad_struct_is_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"`name` must be a C identifier, not '1x'"):
        arguments.CudaStruct("1x", [])
    with pytest.raises(ValueError, match=r"field names \['a', 'a'\] repeat"):
        arguments.CudaStruct("S", [("a", "int"), ("a", "double")])
    with pytest.raises(ValueError, match=r"'my_t'.*cannot be checked"):
        arguments.CudaStruct("S", [("a", "my_t")])


def test_scalars_are_packed_and_checked_like_kernel_arguments() -> None:
    params = arguments.CudaStruct("Params", [("dt", "double"), ("n", "int")])
    value = params(dt=1, n=np.int64(3))
    assert (float(value.packed["dt"]), int(value.packed["n"]), value["n"]) == (1.0, 3, np.int64(3))
    assert value.__cuda_args__() == (value.packed,)
    with pytest.raises(OverflowError, match=r"struct Params: parameter 1 \(int n\): 4294967296"):
        params(dt=1.0, n=2**32)
    with pytest.raises(TypeError, match=r"missing \['n'\], unknown \['m'\]"):
        params(dt=1.0, m=2)


def test_a_numpy_array_in_a_pointer_field_is_a_type_error() -> None:
    vec = arguments.CudaStruct("Vec", [("data", "double*"), ("n", "int")])
    with pytest.raises(
        TypeError, match=r"struct Vec: parameter 0 \(double\* data\) takes a CuPy array, not numpy"
    ):
        vec(data=np.zeros(3), n=3)


@pytest.mark.fake_cupy
def test_fake_cupy_pointer_and_view_fields_hold_addresses_shapes_and_strides(
    fake_cupy: Any,
) -> None:
    s = arguments.CudaStruct("S", [("p", "double*"), ("v", "Array2D<double>")])
    host = np.zeros((4, 6))
    value = s(p=fake_cupy(host), v=fake_cupy(host[:, ::3]))
    assert int(value.packed["p"]) == host.ctypes.data
    assert value.packed["v"]["shape"].tolist() == [4, 2]
    assert value.packed["v"]["strides"].tolist() == [6, 3]


def test_from_signature_reads_pyccel_annotations() -> None:
    class MarkerArguments:
        def __init__(
            self, markers: float[:, :], n: int, valid: bool[:], w: np.float32, *rest: Any
        ): ...

    s = arguments.CudaStruct.from_signature(
        MarkerArguments.__init__, "MarkerArgs", contiguous=["valid"]
    )
    assert [(f.name, f.ctype) for f in s.fields] == [
        ("markers", "Array2D<double>"), ("n", "long long"), ("valid", "CArray1D<bool>"), ("w", "float"),
    ]  # fmt: skip
    single = arguments.CudaStruct.from_signature(
        MarkerArguments.__init__, "M", int_type="int", scalar_names={"float": "float"}
    )
    assert [f.ctype for f in single.fields][:2] == ["Array2D<float>", "int"]
    with pytest.raises(ValueError, match=r"`contiguous` names \['n'\], which are no array fields"):
        arguments.CudaStruct.from_signature(MarkerArguments.__init__, "M", contiguous=["n"])

    def unannotated(self: Any, x) -> None: ...  # type: ignore[no-untyped-def]

    with pytest.raises(ValueError, match=r"parameter 'x' of .*unannotated has no annotation"):
        arguments.CudaStruct.from_signature(unannotated, "U")


def test_headers_include_the_views_and_round_trip(tmp_path: Any) -> None:
    s = arguments.CudaStruct("MarkerArgs", [("markers", "Array2D<double>"), ("n", "long long")])
    text = s.to_header(tmp_path / "marker_args.cuh", includes=["other.cuh"])
    assert text == (tmp_path / "marker_args.cuh").read_text()
    assert text.splitlines()[1:7] == [
        "#ifndef MARKERARGS_CUH", "#define MARKERARGS_CUH", "",
        '#include "cunumpy/array_view.cuh"', '#include "other.cuh"', "",
    ]  # fmt: skip
    s.check_source(text)  # its own declaration matches
    both = arguments.write_cuda_header(
        tmp_path / "all-args.cuh", [s, arguments.CudaStruct("P", [("dt", "double")])]
    )
    assert "#ifndef ALL_ARGS_CUH" in both and both.index("struct MarkerArgs") < both.index(
        "struct P"
    )


class StepArguments(arguments.CudaStructArguments):
    struct_name = "StepArgs"
    fields = (("dt", "double"), ("n", "int"))

    def __init__(self, dt: float, n: int) -> None:
        self.dt = dt
        self.n = n
        self.pack()


def test_argument_objects_are_flattened_and_repacked_when_a_field_changes() -> None:
    step = StepArguments(0.5, 3)
    first = step.__cuda_args__()[0]
    step.n = 7
    assert (int(first["n"]), int(step.packed["n"])) == (3, 7)
    assert int(pickle.loads(pickle.dumps(step)).packed["n"]) == 7
    assert int(copy.copy(step).packed["n"]) == 7
    with pytest.raises(OverflowError, match=r"int n"):
        StepArguments(0.5, 2**40)


def test_a_half_defined_struct_arguments_class_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"sets both `struct_name` and `fields`, or neither"):

        class Half(arguments.CudaStructArguments):
            struct_name = "Half"

    class Base(arguments.CudaStructArguments):
        pass

    with pytest.raises(TypeError, match=r"defines no `struct_name` and `fields`"):
        Base().pack()


def test_from_pyccel_class_reads_the_source_without_running_it(tmp_path: Any) -> None:
    source = tmp_path / "pusher_args_kernels.py"
    source.write_text(
        "raise SystemExit('never run')\n"
        "class MarkerArguments:\n"
        "    def __init__(self, markers: 'float[:, :]', n: int, scratch: 'float[:]',\n"
        "                 weights: 'Final[float32[:]]'):\n"
        "        self.markers = markers\n"
        "        self.n_markers = n\n"
        "        self.scratch = scratch\n"
    )
    struct = arguments.CudaStruct.from_pyccel_class(
        source, "MarkerArguments", "MarkerArgs", exclude=["scratch"], contiguous=["weights"]
    )
    assert struct.name == "MarkerArgs"
    assert [(f.name, f.ctype) for f in struct.fields] == [
        ("markers", "Array2D<double>"), ("n_markers", "long long"), ("weights", "CArray1D<float>"),
    ]  # fmt: skip
    by_parameter = arguments.CudaStruct.from_pyccel_class(
        str(source), "MarkerArguments", attribute_names=False, int_type="int"
    )
    assert [f.name for f in by_parameter.fields][:2] == ["markers", "n"]
    assert by_parameter.fields[1].ctype == "int"
    with pytest.raises(
        ValueError, match=r"no class 'Other' in .*; it defines \['MarkerArguments'\]"
    ):
        arguments.CudaStruct.from_pyccel_class(source, "Other")


def test_the_layout_kernel_writes_size_alignment_and_offsets() -> None:
    struct = arguments.CudaStruct("V", [("a", "Array1D<double>"), ("n", "int")])
    text = struct.layout_source()
    assert text.startswith('#include "cunumpy/array_view.cuh"\nstruct V {')
    assert "out[3] = (unsigned long long)((const char*)&s.n - (const char*)&s);" in text
    assert struct.layout_source("v.cuh").startswith('#include "v.cuh"\n')
