import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from softmax import softmax

from cunumpy.testing import assert_close, assert_less
from cunumpy.testing import strategies as cst


def test_known_values(xp):
    x = xp.asarray([[0.0, math.log(3.0)], [1000.0, 1000.0]])
    expected = xp.asarray([[0.25, 0.75], [0.5, 0.5]])
    assert_close(softmax(x), expected)


def test_matches_numpy_on_every_device(xp, device):
    dtype = xp.__array_namespace_info__().default_dtypes(device=device)["real floating"]
    values = np.linspace(-3.0, 3.0, 12).reshape(3, 4)
    e = np.exp(values - values.max(axis=0))
    reference = e / e.sum(axis=0)
    x = xp.asarray(values, dtype=dtype, device=device)
    assert_close(softmax(x, axis=0), xp.asarray(reference, dtype=dtype, device=device))


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_probabilities_that_ignore_shifts(xp, data):
    floats = cst.dtypes(xp, kind="real floating")
    bounded = {"min_value": -20.0, "max_value": 20.0}
    x = data.draw(cst.arrays(xp, floats, cst.shapes(), elements=bounded))
    p = softmax(x)
    assert_less(xp.zeros_like(p), p)
    assert_close(xp.sum(p, axis=-1), xp.ones(x.shape[:-1], dtype=x.dtype))
    assert_close(softmax(x + 5.0), p)
