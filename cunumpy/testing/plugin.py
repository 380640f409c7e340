"""pytest plugin: run one test on every array namespace.

Installing cunumpy enables it: pytest loads it through the ``pytest11`` entry point (the
module ``_cunumpy_pytestplugin``, which waits until pytest's search path is final). In a
source checkout that is not installed, enable it with ``pytest -p cunumpy.testing.plugin``
or ``pytest_plugins = ["cunumpy.testing.plugin"]`` in the top-level ``conftest.py``; either
finds it registered where the entry point already did. ``-p no:cunumpy`` turns it off.

A run that uses none of its fixtures and options is unchanged: no header lines, no
collection changes. It provides:

- the ``xp`` fixture, parametrized over the namespaces ``numpy`` (cunumpy's), ``cupy``
  (cunumpy's), ``array_api_strict``, ``cunumpy`` (the top-level namespace) and, where they
  are installed, ``torch`` and ``jax``; ``cunumpy:cupy`` (the top-level namespace with the
  CuPy backend) and ``dask`` (``cunumpy.dask``, Dask arrays of NumPy chunks; skipped with
  the reason when Dask is not installed) run when asked for. Test ids are the names: ``test_f[numpy]``.
  A namespace that is not usable here (CuPy without a GPU, a library not installed) is
  reported as skipped, with the reason.
- the ``device`` fixture: with it, a test runs once per device of each namespace
  (``test_f[array_api_strict-device1]``), and receives the namespace's device object.
- the ``dask_computes`` fixture: counts the Dask graphs a test runs and fails the test
  when they are more than ``@pytest.mark.dask_computes(n)`` declares (none by default);
  skipped with the reason when Dask is not installed. The compute beyond the count fails
  the test at the call that ran it, naming its file and line.
- the ``--cunumpy-xp=numpy,cupy`` option (``all`` for every known namespace): which
  namespaces run. ``--xp`` is the same option where it is free: the plugin loads itself into
  every pytest run of an environment that has cunumpy, so it takes the short name only after
  the project's initial ``conftest.py`` files and the other plugins have had theirs; a project
  whose ``conftest.py`` adds its own ``--xp`` keeps it, and ``--cunumpy-xp`` selects ours.
- the markers ``@pytest.mark.xp("numpy", "cupy")`` (the namespaces a test supports),
  ``@pytest.mark.skip_xp("torch", reason=...)`` and
  ``@pytest.mark.xfail_xp("array_api_strict", reason=..., strict=True)``. A marker that
  names an unknown namespace fails that test with one line that says so.
- one summary line per reason a namespace is skipped (``-rs``), not one per test.
"""

from __future__ import annotations

import argparse
from collections.abc import Generator, Iterator, Sequence
from types import ModuleType
from typing import Any

import pytest

from ._arrays import device_label
from ._dask_computes import ComputeCounter, counting_computes
from ._namespaces import KNOWN, activated, default_names, devices, unusable_reason

__all__ = [
    "dask_computes",
    "device",
    "pytest_addoption",
    "pytest_collection_modifyitems",
    "pytest_configure",
    "pytest_generate_tests",
    "pytest_load_initial_conftests",
    "pytest_report_collectionfinish",
    "pytest_runtest_makereport",
    "xp",
]

_SELECTED = pytest.StashKey[tuple[str, ...]]()
_EXPLICIT = pytest.StashKey[bool]()
_CALL_FAILED = pytest.StashKey[bool]()
_NONE_SELECTED = "<no namespace selected>"
#: Where the skips of unusable namespaces are reported: one summary line per reason.
_SKIP_LOCATION = "cunumpy.testing.plugin"
_MARKERS = (
    "xp(*names): run this test only on these namespaces of the xp fixture (cunumpy.testing.plugin)",
    "skip_xp(*names, reason): skip this test on these namespaces, giving the reason "
    "(cunumpy.testing.plugin)",
    "xfail_xp(*names, reason, strict=None): expect this test to fail on these namespaces "
    "(cunumpy.testing.plugin)",
    "dask_computes(n): the number of Dask graph executions this test declares; the "
    "dask_computes fixture fails it when more run (cunumpy.testing.plugin)",
)


def _known() -> str:
    return ", ".join(KNOWN)


def _checked_names(names: Sequence[object], where: str) -> tuple[str, ...]:
    for name in names:
        if name not in KNOWN:
            msg = f"{where}: unknown namespace {name!r}; the known ones are {_known()} (or 'all')."
            raise ValueError(msg)
    return tuple(str(name) for name in names)


#: The option's ``dest``: ``--cunumpy-xp``, and ``--xp`` where the plugin has that name.
_DEST = "cunumpy_xp"
_GROUP = ("cunumpy", "cunumpy.testing: array namespaces")


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    """Add ``--cunumpy-xp``; ``--xp`` too where the initial ``conftest.py`` files are loaded
    already (the plugin named in one's ``pytest_plugins``), else once they are."""
    parser.getgroup(*_GROUP).addoption(
        "--cunumpy-xp",
        action="store",
        dest=_DEST,
        default=None,
        metavar="NAMES",
        help=(
            f"comma-separated namespaces the xp fixture runs tests on, among {_known()}; "
            f"'all' for every one (default: numpy, cupy, array_api_strict, cunumpy, and "
            f"torch and jax where installed); also --xp, where no conftest.py or other "
            f"plugin has that name"
        ),
    )
    if any(name.endswith("conftest.py") for name, _ in pluginmanager.list_name_plugin()):
        _add_short_option(parser)


@pytest.hookimpl(wrapper=True)
def pytest_load_initial_conftests(parser: pytest.Parser) -> Generator[None, None, None]:
    """Add ``--xp`` once the initial ``conftest.py`` files have added their options."""
    yield
    _add_short_option(parser)


def _add_short_option(parser: pytest.Parser) -> bool:
    """Add ``--xp`` as a second name of ``--cunumpy-xp``, unless a ``conftest.py`` or another
    plugin has taken it (then it stays theirs); whether ``--xp`` is ours now. The
    ``pytest11`` entry point calls it too, once the initial ``conftest.py`` files are loaded."""
    # pytest 8.0's addoption does not see a name taken in another group (argparse then
    # fails when pytest builds its parser), so the groups' options are read first
    groups = [*getattr(parser, "_groups", ()), getattr(parser, "_anonymous", None)]
    for group in groups:
        if any("--xp" in option.names() for option in getattr(group, "options", ())):
            return False
    try:
        parser.getgroup(*_GROUP).addoption(
            "--xp", action="store", dest=_DEST, default=None, metavar="NAMES",
            help="the same as --cunumpy-xp",
        )  # fmt: skip
    except (argparse.ArgumentError, ValueError):  # taken: by another, or by this plugin
        return False
    return True


def _spelling(config: pytest.Config) -> str:
    """The name the command line gave the option: ``--xp`` or ``--cunumpy-xp``."""
    given = [str(arg) for arg in config.invocation_params.args]
    short = any(arg == "--xp" or arg.startswith("--xp=") for arg in given)
    return "--xp" if short and config.getoption("xp", default=None) is None else "--cunumpy-xp"


def pytest_configure(config: pytest.Config) -> None:
    """Register the markers and read ``--cunumpy-xp`` (or ``--xp``)."""
    for line in _MARKERS:
        config.addinivalue_line("markers", line)
    raw = config.getoption(_DEST, default=None)
    if raw is None:
        config.stash[_SELECTED] = default_names()
        config.stash[_EXPLICIT] = False
        return
    names = [part.strip() for part in str(raw).split(",") if part.strip()]
    if names == ["all"]:
        config.stash[_SELECTED] = tuple(KNOWN)
    else:
        try:
            config.stash[_SELECTED] = _checked_names(names, f"{_spelling(config)}={raw}")
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from None
        if not names:
            msg = f"{_spelling(config)}={raw!r} names no namespace; the known ones are {_known()} (or 'all')."
            raise pytest.UsageError(msg)
    config.stash[_EXPLICIT] = True


class _MarkerError(str):
    """The ``xp`` parameter of a test whose marker is wrong: the fixture fails with it."""


class _NamespaceSkipped(pytest.skip.Exception):  # type: ignore[name-defined]
    """A namespace that is not usable here: reported once per reason, not once per test."""


def _uses_plugin(config: pytest.Config, items: Sequence[pytest.Item]) -> bool:
    """Whether this run asked for the plugin: ``--cunumpy-xp``, or a test that gets its ``xp``."""
    if config.stash.get(_EXPLICIT, False):
        return True
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and isinstance(callspec.params.get("xp"), str):
            return True
    return False


def _skip_reason(name: str, reason: str) -> str:
    """Why ``name`` is skipped; for CuPy, also how to run it without a GPU."""
    if not name.endswith("cupy"):
        return f"{name}: {reason}"
    return (
        f"{name}: {reason}; without a GPU, CUNUMPY_FAKE_CUPY=1 runs it on the fake CuPy "
        f"(on the CPU, not a GPU check)"
    )


def _label(name: str) -> str:
    """The namespace's name, and what it is where that is not what the name says."""
    if name.endswith("cupy"):
        from .._emulation._fake import is_active

        if is_active():
            return f"{name} (fake CuPy, CPU)"
    return name


def pytest_report_collectionfinish(
    config: pytest.Config, items: Sequence[pytest.Item]
) -> list[str]:
    """The namespaces the ``xp`` fixture runs on (and why any is skipped), and the others;
    nothing in a run that does not use the plugin."""
    if not _uses_plugin(config, items) or config.get_verbosity() < 0:
        return []
    selected = config.stash.get(_SELECTED, ())

    def state(name: str, prefix: str) -> str:
        reason = unusable_reason(name)
        return _label(name) if reason is None else f"{name} ({prefix}{reason})"

    tested = "; ".join(state(name, "skipped: ") for name in selected)
    lines = [f"cunumpy.testing: xp namespaces: {tested}"]
    others = [state(name, "") for name in KNOWN if name not in selected]
    if others:
        lines.append(f"cunumpy.testing: not selected (ask with --cunumpy-xp): {'; '.join(others)}")
    return lines


def _test_names(metafunc: pytest.Metafunc) -> tuple[str, ...]:
    """The namespaces this test runs on: its ``xp`` marker, narrowed by ``--cunumpy-xp``."""
    config = metafunc.config
    selected = config.stash.get(_SELECTED, default_names())
    marker = metafunc.definition.get_closest_marker("xp")
    if marker is None:
        return selected
    where = f"@pytest.mark.xp on {metafunc.definition.nodeid}"
    supported = _checked_names(marker.args, where)
    if not supported:
        msg = f"{where}: name at least one namespace, among {_known()}."
        raise ValueError(msg)
    if not config.stash.get(_EXPLICIT, False):
        return supported
    return tuple(name for name in supported if name in selected)


def _marks(metafunc: pytest.Metafunc, name: str) -> list[pytest.MarkDecorator]:
    """The skip and xfail marks that ``skip_xp`` and ``xfail_xp`` put on namespace ``name``."""
    marks = []
    for kind in ("skip_xp", "xfail_xp"):
        for marker in metafunc.definition.iter_markers(kind):
            where = f"@pytest.mark.{kind} on {metafunc.definition.nodeid}"
            names = _checked_names(marker.args, where)
            reason = marker.kwargs.get("reason")
            if not isinstance(reason, str) or not reason:
                msg = f"{where}: give the reason, as reason='...'."
                raise ValueError(msg)
            extra = set(marker.kwargs) - ({"reason"} if kind == "skip_xp" else {"reason", "strict"})
            if extra:
                msg = f"{where}: unexpected keyword arguments {sorted(extra)!r}."
                raise ValueError(msg)
            if name not in names:
                continue
            if kind == "skip_xp":
                marks.append(pytest.mark.skip(reason=f"{name}: {reason}"))
            else:
                strict = marker.kwargs.get("strict")
                options = {} if strict is None else {"strict": strict}
                marks.append(pytest.mark.xfail(reason=f"{name}: {reason}", **options))
    return marks


def _device_params(metafunc: pytest.Metafunc, names: Sequence[str]) -> list[Any]:
    params = []
    for name in names:
        marks = _marks(metafunc, name)
        if unusable_reason(name) is not None:
            params.append(pytest.param(name, None, id=name, marks=marks))
            continue
        for one in devices(name):
            label = f"{name}-{device_label(one)}"
            params.append(pytest.param(name, one, id=label, marks=marks))
    return params


def _uses_our_xp(metafunc: pytest.Metafunc) -> bool:
    """Whether the ``xp`` this test gets is the plugin's, not a conftest's own ``xp`` fixture.

    pytest has no public API for this; ``_arg2fixturedefs`` lists the definitions of each
    fixture name visible to the test, the one it gets last.
    """
    definitions = getattr(metafunc, "_arg2fixturedefs", {}).get("xp")
    if not definitions:
        return True
    return getattr(definitions[-1].func, "__module__", None) == __name__


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize ``xp`` (and ``device``) of every test that uses them."""
    if "xp" not in metafunc.fixturenames or not _uses_our_xp(metafunc):
        return
    for marker in metafunc.definition.iter_markers("parametrize"):
        argnames = marker.args[0] if marker.args else marker.kwargs.get("argnames", ())
        if isinstance(argnames, str):
            argnames = [part.strip() for part in argnames.split(",")]
        if "xp" in argnames:
            return  # the test parametrizes xp itself
    wants_device = "device" in metafunc.fixturenames
    argnames = ["xp", "device"] if wants_device else ["xp"]
    try:
        names = _test_names(metafunc)
        for name in names:
            _marks(metafunc, name)  # checks every marker once
    except ValueError as exc:  # the test fails with the message, the module's others run
        error = _MarkerError(str(exc))
        values: list[str] = [error] * len(argnames)
        metafunc.parametrize(argnames, [pytest.param(*values, id="marker-error")], indirect=True)
        return
    if not names:  # deselected in pytest_collection_modifyitems
        values = [_NONE_SELECTED] * len(argnames)
        metafunc.parametrize(argnames, [pytest.param(*values, id="none")], indirect=True)
        return
    if wants_device:
        metafunc.parametrize(["xp", "device"], _device_params(metafunc, names), indirect=True)
    else:
        params = [pytest.param(name, id=name, marks=_marks(metafunc, name)) for name in names]
        metafunc.parametrize("xp", params, indirect=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the tests whose ``xp`` marker names no namespace that ``--cunumpy-xp`` selects."""
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        callspec = getattr(item, "callspec", None)
        none = callspec is not None and callspec.params.get("xp") == _NONE_SELECTED
        (dropped if none else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture
def xp(request: pytest.FixtureRequest) -> Iterator[ModuleType]:
    """The array namespace under test; the test runs once per namespace.

    For ``numpy`` and ``cupy``, cunumpy's backend is that one during the test, so that
    ``cunumpy``'s creation functions (in the code under test too) agree with ``xp``.
    A namespace that is not usable here is skipped with the reason; CuPy's fails instead
    under ``CUNUMPY_REQUIRE_CUDA=1``, as every test that needs a GPU does.
    """
    name = getattr(request, "param", None)
    if isinstance(name, _MarkerError):
        pytest.fail(str(name), pytrace=False)
    if name not in KNOWN:
        msg = (
            "The xp fixture of cunumpy.testing.plugin is parametrized by the plugin; "
            f"got {name!r} (is the plugin enabled, and is xp not parametrized elsewhere?)."
        )
        raise pytest.UsageError(msg)
    reason = unusable_reason(name)
    if reason is not None:
        from .._backend_choice._environment import cuda_required

        if name.endswith("cupy") and cuda_required():
            pytest.fail(f"CUNUMPY_REQUIRE_CUDA is set, but {name}: {reason}", pytrace=False)
        raise _NamespaceSkipped(_skip_reason(name, reason))
    with activated(name) as namespace:
        yield namespace


@pytest.fixture
def device(request: pytest.FixtureRequest, xp: ModuleType) -> Any:
    """A device of ``xp``, as its own device object; the test runs once per device.

    ``cupy`` gives one ``cupy.cuda.Device`` per GPU, ``array_api_strict`` its CPU device
    and its simulated ones, ``cunumpy`` ``"cpu"`` and every GPU.
    """
    return request.param


@pytest.fixture
def dask_computes(request: pytest.FixtureRequest) -> Iterator[ComputeCounter]:
    """Count the Dask graphs the test runs; fail it when more run than it declares.

    The declaration is ``@pytest.mark.dask_computes(n)``; without it, a test may run none.
    """
    marker = request.node.get_closest_marker("dask_computes")
    allowed = marker.args[0] if marker is not None and marker.args else 0
    if not isinstance(allowed, int) or isinstance(allowed, bool) or allowed < 0:
        msg = f"@pytest.mark.dask_computes on {request.node.nodeid}: give a count >= 0, not {allowed!r}."
        raise pytest.UsageError(msg)
    reason = unusable_reason("dask")
    if reason is not None:
        pytest.skip(f"dask_computes: {reason}")
    declared = f"the {allowed} that {request.node.nodeid} declares (@pytest.mark.dask_computes(n))"
    with counting_computes(limit=allowed, declared=declared) as counter:
        yield counter
    if counter.count > allowed and not request.node.stash.get(_CALL_FAILED, False):
        # the test caught the AssertionError of the call that ran the graph
        pytest.fail(
            f"{request.node.nodeid} ran {counter.count} Dask graph(s) (of {counter.tasks} "
            f"tasks, at {', '.join(counter.where)}), more than the {allowed} it declares "
            f"(@pytest.mark.dask_computes(n)).",
            pytrace=False,
        )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Report the skips of unusable namespaces at one place, so that ``-rs`` gives one line
    per reason instead of one per test; note whether the test itself failed."""
    report = yield
    if report.when == "call":
        item.stash[_CALL_FAILED] = report.failed
    if call.excinfo is not None and call.excinfo.errisinstance(_NamespaceSkipped):
        report.longrepr = (_SKIP_LOCATION, None, str(call.excinfo.value))  # type: ignore[assignment]
    return report


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the imports."""
    return list(__all__)
