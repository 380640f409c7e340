"""The Array API 2025.12 function signatures, by topic: the input of ``generate_api.py``.

Each entry gives the parameter list and return annotation exactly as the standard
specifies them (names, order, ``/`` and ``*`` markers, defaults). Type names are the
standard's: ``array``, ``dtype``, ``device``; the generator maps them to cunumpy's.
"""

SIGNATURES: dict[str, dict[str, dict[str, str]]] = {
    "creation": {
        "arange": {
            "params": "start: Union[int, float], /, stop: Optional[Union[int, "
            "float]]=None, step: Union[int, float]=1, *, dtype: "
            "Optional[dtype]=None, device: Optional[device]=None",
            "returns": "array",
        },
        "asarray": {
            "params": "obj: Union[array, bool, int, float, complex, NestedSequence, "
            "SupportsBufferProtocol], /, *, dtype: Optional[dtype]=None, "
            "device: Optional[device]=None, copy: Optional[bool]=None",
            "returns": "array",
        },
        "empty": {
            "params": "shape: Union[int, Tuple[int, ...]], *, dtype: "
            "Optional[dtype]=None, device: Optional[device]=None",
            "returns": "array",
        },
        "empty_like": {
            "params": "x: array, /, *, dtype: Optional[dtype]=None, device: Optional[device]=None",
            "returns": "array",
        },
        "eye": {
            "params": "n_rows: int, n_cols: Optional[int]=None, /, *, k: int=0, dtype: "
            "Optional[dtype]=None, device: Optional[device]=None",
            "returns": "array",
        },
        "from_dlpack": {
            "params": "x: object, /, *, device: Optional[device]=None, copy: Optional[bool]=None",
            "returns": "array",
        },
        "full": {
            "params": "shape: Union[int, Tuple[int, ...]], fill_value: Union[bool, int, "
            "float, complex], *, dtype: Optional[dtype]=None, device: "
            "Optional[device]=None",
            "returns": "array",
        },
        "full_like": {
            "params": "x: array, /, fill_value: Union[bool, int, float, complex], "
            "*, dtype: Optional[dtype]=None, device: "
            "Optional[device]=None",
            "returns": "array",
        },
        "linspace": {
            "params": "start: Union[int, float, complex], stop: Union[int, float, "
            "complex], /, num: int, *, dtype: Optional[dtype]=None, "
            "device: Optional[device]=None, endpoint: bool=True",
            "returns": "array",
        },
        "meshgrid": {
            "params": "*arrays: array, indexing: Literal['xy', 'ij']='xy'",
            "returns": "Tuple[array, ...]",
        },
        "ones": {
            "params": "shape: Union[int, Tuple[int, ...]], *, dtype: "
            "Optional[dtype]=None, device: Optional[device]=None",
            "returns": "array",
        },
        "ones_like": {
            "params": "x: array, /, *, dtype: Optional[dtype]=None, device: Optional[device]=None",
            "returns": "array",
        },
        "tril": {"params": "x: array, /, *, k: int=0", "returns": "array"},
        "triu": {"params": "x: array, /, *, k: int=0", "returns": "array"},
        "zeros": {
            "params": "shape: Union[int, Tuple[int, ...]], *, dtype: "
            "Optional[dtype]=None, device: Optional[device]=None",
            "returns": "array",
        },
        "zeros_like": {
            "params": "x: array, /, *, dtype: Optional[dtype]=None, device: Optional[device]=None",
            "returns": "array",
        },
    },
    "data_types": {
        "astype": {
            "params": "x: array, dtype: dtype, /, *, copy: bool=True, device: "
            "Optional[device]=None",
            "returns": "array",
        },
        "can_cast": {"params": "from_: Union[dtype, array], to: dtype, /", "returns": "bool"},
        "finfo": {"params": "type: Union[dtype, array], /", "returns": "finfo_object"},
        "iinfo": {"params": "type: Union[dtype, array], /", "returns": "iinfo_object"},
        "isdtype": {
            "params": "dtype: dtype, kind: Union[dtype, str, Tuple[Union[dtype, str], ...]]",
            "returns": "bool",
        },
        "result_type": {
            "params": "*arrays_and_dtypes: Union[array, int, float, complex, bool, dtype]",
            "returns": "dtype",
        },
    },
    "elementwise": {
        "abs": {"params": "x: array, /", "returns": "array"},
        "acos": {"params": "x: array, /", "returns": "array"},
        "acosh": {"params": "x: array, /", "returns": "array"},
        "add": {
            "params": "x1: Union[array, int, float, complex], x2: Union[array, int, "
            "float, complex], /",
            "returns": "array",
        },
        "asin": {"params": "x: array, /", "returns": "array"},
        "asinh": {"params": "x: array, /", "returns": "array"},
        "atan": {"params": "x: array, /", "returns": "array"},
        "atan2": {
            "params": "x1: Union[array, int, float], x2: Union[array, int, float], /",
            "returns": "array",
        },
        "atanh": {"params": "x: array, /", "returns": "array"},
        "bitwise_and": {
            "params": "x1: Union[array, int, bool], x2: Union[array, int, bool], /",
            "returns": "array",
        },
        "bitwise_invert": {"params": "x: array, /", "returns": "array"},
        "bitwise_left_shift": {
            "params": "x1: Union[array, int], x2: Union[array, int], /",
            "returns": "array",
        },
        "bitwise_or": {
            "params": "x1: Union[array, int, bool], x2: Union[array, int, bool], /",
            "returns": "array",
        },
        "bitwise_right_shift": {
            "params": "x1: Union[array, int], x2: Union[array, int], /",
            "returns": "array",
        },
        "bitwise_xor": {
            "params": "x1: Union[array, int, bool], x2: Union[array, int, bool], /",
            "returns": "array",
        },
        "ceil": {"params": "x: array, /", "returns": "array"},
        "clip": {
            "params": "x: array, /, min: Optional[Union[int, float, array]]=None, "
            "max: Optional[Union[int, float, array]]=None",
            "returns": "array",
        },
        "conj": {"params": "x: array, /", "returns": "array"},
        "copysign": {
            "params": "x1: Union[array, int, float], x2: Union[array, int, float], /",
            "returns": "array",
        },
        "cos": {"params": "x: array, /", "returns": "array"},
        "cosh": {"params": "x: array, /", "returns": "array"},
        "divide": {
            "params": "x1: Union[array, int, float, complex], x2: Union[array, "
            "int, float, complex], /",
            "returns": "array",
        },
        "equal": {
            "params": "x1: Union[array, int, float, complex, bool], x2: "
            "Union[array, int, float, complex, bool], /",
            "returns": "array",
        },
        "exp": {"params": "x: array, /", "returns": "array"},
        "expm1": {"params": "x: array, /", "returns": "array"},
        "floor": {"params": "x: array, /", "returns": "array"},
        "floor_divide": {
            "params": "x1: Union[array, int, float], x2: Union[array, int, float], /",
            "returns": "array",
        },
        "greater": {
            "params": "x1: Union[array, int, float], x2: Union[array, int, float], /",
            "returns": "array",
        },
        "greater_equal": {
            "params": "x1: Union[array, int, float], x2: Union[array, int, float], /",
            "returns": "array",
        },
        "hypot": {
            "params": "x1: Union[array, int, float], x2: Union[array, int, float], /",
            "returns": "array",
        },
        "imag": {"params": "x: array, /", "returns": "array"},
        "isfinite": {"params": "x: array, /", "returns": "array"},
        "isinf": {"params": "x: array, /", "returns": "array"},
        "isnan": {"params": "x: array, /", "returns": "array"},
        "less": {
            "params": "x1: Union[array, int, float], x2: Union[array, int, float], /",
            "returns": "array",
        },
        "less_equal": {
            "params": "x1: Union[array, int, float], x2: Union[array, int, float], /",
            "returns": "array",
        },
        "log": {"params": "x: array, /", "returns": "array"},
        "log10": {"params": "x: array, /", "returns": "array"},
        "log1p": {"params": "x: array, /", "returns": "array"},
        "log2": {"params": "x: array, /", "returns": "array"},
        "logaddexp": {
            "params": "x1: Union[array, int, float], x2: Union[array, int, float], /",
            "returns": "array",
        },
        "logical_and": {
            "params": "x1: Union[array, bool], x2: Union[array, bool], /",
            "returns": "array",
        },
        "logical_not": {"params": "x: array, /", "returns": "array"},
        "logical_or": {
            "params": "x1: Union[array, bool], x2: Union[array, bool], /",
            "returns": "array",
        },
        "logical_xor": {
            "params": "x1: Union[array, bool], x2: Union[array, bool], /",
            "returns": "array",
        },
        "maximum": {
            "params": "x1: Union[array, int, float], x2: Union[array, int, float], /",
            "returns": "array",
        },
        "minimum": {
            "params": "x1: Union[array, int, float], x2: Union[array, int, float], /",
            "returns": "array",
        },
        "multiply": {
            "params": "x1: Union[array, int, float, complex], x2: Union[array, "
            "int, float, complex], /",
            "returns": "array",
        },
        "negative": {"params": "x: array, /", "returns": "array"},
        "nextafter": {
            "params": "x1: Union[array, int, float], x2: Union[array, int, float], /",
            "returns": "array",
        },
        "not_equal": {
            "params": "x1: Union[array, int, float, complex, bool], x2: "
            "Union[array, int, float, complex, bool], /",
            "returns": "array",
        },
        "positive": {"params": "x: array, /", "returns": "array"},
        "pow": {
            "params": "x1: Union[array, int, float, complex], x2: Union[array, int, "
            "float, complex], /",
            "returns": "array",
        },
        "real": {"params": "x: array, /", "returns": "array"},
        "reciprocal": {"params": "x: array, /", "returns": "array"},
        "remainder": {
            "params": "x1: Union[array, int, float], x2: Union[array, int, float], /",
            "returns": "array",
        },
        "round": {"params": "x: array, /", "returns": "array"},
        "sign": {"params": "x: array, /", "returns": "array"},
        "signbit": {"params": "x: array, /", "returns": "array"},
        "sin": {"params": "x: array, /", "returns": "array"},
        "sinh": {"params": "x: array, /", "returns": "array"},
        "sqrt": {"params": "x: array, /", "returns": "array"},
        "square": {"params": "x: array, /", "returns": "array"},
        "subtract": {
            "params": "x1: Union[array, int, float, complex], x2: Union[array, "
            "int, float, complex], /",
            "returns": "array",
        },
        "tan": {"params": "x: array, /", "returns": "array"},
        "tanh": {"params": "x: array, /", "returns": "array"},
        "trunc": {"params": "x: array, /", "returns": "array"},
    },
    "fft": {
        "fft": {
            "params": "x: array, /, *, n: Optional[int]=None, axis: int=-1, norm: "
            "Literal['backward', 'ortho', 'forward']='backward'",
            "returns": "array",
        },
        "fftfreq": {
            "params": "n: int, /, *, d: float=1.0, dtype: Optional[dtype]=None, device: "
            "Optional[device]=None",
            "returns": "array",
        },
        "fftn": {
            "params": "x: array, /, *, s: Optional[Sequence[int]]=None, axes: "
            "Optional[Sequence[int]]=None, norm: Literal['backward', 'ortho', "
            "'forward']='backward'",
            "returns": "array",
        },
        "fftshift": {
            "params": "x: array, /, *, axes: Optional[Union[int, Sequence[int]]]=None",
            "returns": "array",
        },
        "hfft": {
            "params": "x: array, /, *, n: Optional[int]=None, axis: int=-1, norm: "
            "Literal['backward', 'ortho', 'forward']='backward'",
            "returns": "array",
        },
        "ifft": {
            "params": "x: array, /, *, n: Optional[int]=None, axis: int=-1, norm: "
            "Literal['backward', 'ortho', 'forward']='backward'",
            "returns": "array",
        },
        "ifftn": {
            "params": "x: array, /, *, s: Optional[Sequence[int]]=None, axes: "
            "Optional[Sequence[int]]=None, norm: Literal['backward', 'ortho', "
            "'forward']='backward'",
            "returns": "array",
        },
        "ifftshift": {
            "params": "x: array, /, *, axes: Optional[Union[int, Sequence[int]]]=None",
            "returns": "array",
        },
        "ihfft": {
            "params": "x: array, /, *, n: Optional[int]=None, axis: int=-1, norm: "
            "Literal['backward', 'ortho', 'forward']='backward'",
            "returns": "array",
        },
        "irfft": {
            "params": "x: array, /, *, n: Optional[int]=None, axis: int=-1, norm: "
            "Literal['backward', 'ortho', 'forward']='backward'",
            "returns": "array",
        },
        "irfftn": {
            "params": "x: array, /, *, s: Optional[Sequence[int]]=None, axes: "
            "Optional[Sequence[int]]=None, norm: Literal['backward', 'ortho', "
            "'forward']='backward'",
            "returns": "array",
        },
        "rfft": {
            "params": "x: array, /, *, n: Optional[int]=None, axis: int=-1, norm: "
            "Literal['backward', 'ortho', 'forward']='backward'",
            "returns": "array",
        },
        "rfftfreq": {
            "params": "n: int, /, *, d: float=1.0, dtype: Optional[dtype]=None, device: "
            "Optional[device]=None",
            "returns": "array",
        },
        "rfftn": {
            "params": "x: array, /, *, s: Optional[Sequence[int]]=None, axes: "
            "Optional[Sequence[int]]=None, norm: Literal['backward', 'ortho', "
            "'forward']='backward'",
            "returns": "array",
        },
    },
    "indexing": {
        "take": {
            "params": "x: array, indices: array, /, *, axis: Optional[int]=None",
            "returns": "array",
        },
        "take_along_axis": {
            "params": "x: array, indices: array, /, *, axis: int=-1",
            "returns": "array",
        },
    },
    "linalg": {
        "cholesky": {"params": "x: array, /, *, upper: bool=False", "returns": "array"},
        "cross": {"params": "x1: array, x2: array, /, *, axis: int=-1", "returns": "array"},
        "det": {"params": "x: array, /", "returns": "array"},
        "diagonal": {"params": "x: array, /, *, offset: int=0", "returns": "array"},
        "eig": {"params": "x: array, /", "returns": "Tuple[array, array]"},
        "eigh": {"params": "x: array, /", "returns": "Tuple[array, array]"},
        "eigvals": {"params": "x: array, /", "returns": "array"},
        "eigvalsh": {"params": "x: array, /", "returns": "array"},
        "inv": {"params": "x: array, /", "returns": "array"},
        "matmul": {"params": "x1: array, x2: array, /", "returns": "array"},
        "matrix_norm": {
            "params": "x: array, /, *, keepdims: bool=False, ord: "
            "Optional[Union[int, float, Literal[inf, -inf, 'fro', "
            "'nuc']]]='fro'",
            "returns": "array",
        },
        "matrix_power": {"params": "x: array, n: int, /", "returns": "array"},
        "matrix_rank": {
            "params": "x: array, /, *, rtol: Optional[Union[float, array]]=None",
            "returns": "array",
        },
        "matrix_transpose": {"params": "x: array, /", "returns": "array"},
        "outer": {"params": "x1: array, x2: array, /", "returns": "array"},
        "pinv": {
            "params": "x: array, /, *, rtol: Optional[Union[float, array]]=None",
            "returns": "array",
        },
        "qr": {
            "params": "x: array, /, *, mode: Literal['reduced', 'complete']='reduced'",
            "returns": "Tuple[array, array]",
        },
        "slogdet": {"params": "x: array, /", "returns": "Tuple[array, array]"},
        "solve": {"params": "x1: array, x2: array, /", "returns": "array"},
        "svd": {
            "params": "x: array, /, *, full_matrices: bool=True",
            "returns": "Tuple[array, array, array]",
        },
        "svdvals": {"params": "x: array, /", "returns": "array"},
        "tensordot": {
            "params": "x1: array, x2: array, /, *, axes: Union[int, "
            "Tuple[Sequence[int], Sequence[int]]]=2",
            "returns": "array",
        },
        "trace": {
            "params": "x: array, /, *, offset: int=0, dtype: Optional[dtype]=None",
            "returns": "array",
        },
        "vecdot": {"params": "x1: array, x2: array, /, *, axis: int=-1", "returns": "array"},
        "vector_norm": {
            "params": "x: array, /, *, axis: Optional[Union[int, Tuple[int, "
            "...]]]=None, keepdims: bool=False, ord: Union[int, float, "
            "Literal[inf, -inf]]=2",
            "returns": "array",
        },
    },
    "linear_algebra": {
        "matmul": {"params": "x1: array, x2: array, /", "returns": "array"},
        "matrix_transpose": {"params": "x: array, /", "returns": "array"},
        "tensordot": {
            "params": "x1: array, x2: array, /, *, axes: Union[int, "
            "Tuple[Sequence[int], Sequence[int]]]=2",
            "returns": "array",
        },
        "vecdot": {"params": "x1: array, x2: array, /, *, axis: int=-1", "returns": "array"},
    },
    "manipulation": {
        "broadcast_arrays": {"params": "*arrays: array", "returns": "Tuple[array, ...]"},
        "broadcast_shapes": {
            "params": "*shapes: Tuple[Optional[int], ...]",
            "returns": "Tuple[Optional[int], ...]",
        },
        "broadcast_to": {"params": "x: array, /, shape: Tuple[int, ...]", "returns": "array"},
        "concat": {
            "params": "arrays: Union[Tuple[array, ...], List[array]], /, *, axis: Optional[int]=0",
            "returns": "array",
        },
        "expand_dims": {
            "params": "x: array, /, axis: Union[int, Tuple[int, ...]]",
            "returns": "array",
        },
        "flip": {
            "params": "x: array, /, *, axis: Optional[Union[int, Tuple[int, ...]]]=None",
            "returns": "array",
        },
        "moveaxis": {
            "params": "x: array, source: Union[int, Tuple[int, ...]], "
            "destination: Union[int, Tuple[int, ...]], /",
            "returns": "array",
        },
        "permute_dims": {"params": "x: array, /, axes: Tuple[int, ...]", "returns": "array"},
        "repeat": {
            "params": "x: array, repeats: Union[int, array], /, *, axis: Optional[int]=None",
            "returns": "array",
        },
        "reshape": {
            "params": "x: array, /, shape: Tuple[int, ...], *, copy: Optional[bool]=None",
            "returns": "array",
        },
        "roll": {
            "params": "x: array, /, shift: Union[int, Tuple[int, ...]], *, axis: "
            "Optional[Union[int, Tuple[int, ...]]]=None",
            "returns": "array",
        },
        "squeeze": {"params": "x: array, /, axis: Union[int, Tuple[int, ...]]", "returns": "array"},
        "stack": {
            "params": "arrays: Union[Tuple[array, ...], List[array]], /, *, axis: int=0",
            "returns": "array",
        },
        "tile": {"params": "x: array, repetitions: Tuple[int, ...], /", "returns": "array"},
        "unstack": {"params": "x: array, /, *, axis: int=0", "returns": "Tuple[array, ...]"},
    },
    "searching": {
        "argmax": {
            "params": "x: array, /, *, axis: Optional[int]=None, keepdims: bool=False",
            "returns": "array",
        },
        "argmin": {
            "params": "x: array, /, *, axis: Optional[int]=None, keepdims: bool=False",
            "returns": "array",
        },
        "count_nonzero": {
            "params": "x: array, /, *, axis: Optional[Union[int, Tuple[int, "
            "...]]]=None, keepdims: bool=False",
            "returns": "array",
        },
        "nonzero": {"params": "x: array, /", "returns": "Tuple[array, ...]"},
        "searchsorted": {
            "params": "x1: array, x2: Union[array, int, float], /, *, side: "
            "Literal['left', 'right']='left', sorter: "
            "Optional[array]=None",
            "returns": "array",
        },
        "where": {
            "params": "condition: array, x1: Union[array, int, float, complex, bool], "
            "x2: Union[array, int, float, complex, bool], /",
            "returns": "array",
        },
    },
    "sets": {
        "isin": {
            "params": "x1: Union[array, int], x2: Union[array, int], /, *, invert: bool=False",
            "returns": "array",
        },
        "unique_all": {"params": "x: array, /", "returns": "Tuple[array, array, array, array]"},
        "unique_counts": {"params": "x: array, /", "returns": "Tuple[array, array]"},
        "unique_inverse": {"params": "x: array, /", "returns": "Tuple[array, array]"},
        "unique_values": {"params": "x: array, /", "returns": "array"},
    },
    "sorting": {
        "argsort": {
            "params": "x: array, /, *, axis: int=-1, descending: bool=False, stable: bool=True",
            "returns": "array",
        },
        "sort": {
            "params": "x: array, /, *, axis: int=-1, descending: bool=False, stable: bool=True",
            "returns": "array",
        },
    },
    "statistics": {
        "cumulative_prod": {
            "params": "x: array, /, *, axis: Optional[int]=None, dtype: "
            "Optional[dtype]=None, include_initial: bool=False",
            "returns": "array",
        },
        "cumulative_sum": {
            "params": "x: array, /, *, axis: Optional[int]=None, dtype: "
            "Optional[dtype]=None, include_initial: bool=False",
            "returns": "array",
        },
        "max": {
            "params": "x: array, /, *, axis: Optional[Union[int, Tuple[int, "
            "...]]]=None, keepdims: bool=False",
            "returns": "array",
        },
        "mean": {
            "params": "x: array, /, *, axis: Optional[Union[int, Tuple[int, "
            "...]]]=None, keepdims: bool=False",
            "returns": "array",
        },
        "min": {
            "params": "x: array, /, *, axis: Optional[Union[int, Tuple[int, "
            "...]]]=None, keepdims: bool=False",
            "returns": "array",
        },
        "prod": {
            "params": "x: array, /, *, axis: Optional[Union[int, Tuple[int, "
            "...]]]=None, dtype: Optional[dtype]=None, keepdims: bool=False",
            "returns": "array",
        },
        "std": {
            "params": "x: array, /, *, axis: Optional[Union[int, Tuple[int, "
            "...]]]=None, correction: Union[int, float]=0.0, keepdims: "
            "bool=False",
            "returns": "array",
        },
        "sum": {
            "params": "x: array, /, *, axis: Optional[Union[int, Tuple[int, "
            "...]]]=None, dtype: Optional[dtype]=None, keepdims: bool=False",
            "returns": "array",
        },
        "var": {
            "params": "x: array, /, *, axis: Optional[Union[int, Tuple[int, "
            "...]]]=None, correction: Union[int, float]=0.0, keepdims: "
            "bool=False",
            "returns": "array",
        },
    },
    "utility": {
        "all": {
            "params": "x: array, /, *, axis: Optional[Union[int, Tuple[int, ...]]]=None, "
            "keepdims: bool=False",
            "returns": "array",
        },
        "any": {
            "params": "x: array, /, *, axis: Optional[Union[int, Tuple[int, ...]]]=None, "
            "keepdims: bool=False",
            "returns": "array",
        },
        "diff": {
            "params": "x: array, /, *, axis: int=-1, n: int=1, prepend: "
            "Optional[array]=None, append: Optional[array]=None",
            "returns": "array",
        },
    },
}
