"""Each study's shape is written when it is planned and stored with its experiments, and the report
reads it there; a study stored without one (by the release before shapes) is read from its
experiments as before.  And the lab's modules import one another one way only."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from parlour.lab import plan, report, runner, studies
from parlour.lab.spec import StudyShape
from parlour.store import Experiment, Store

LAB = Path(__file__).resolve().parents[1] / "src" / "parlour" / "lab"


def shapes(specs: list[Any]) -> list[tuple[str, str | None, Any]]:
    return [(s.shape.kind, s.shape.varied, s.shape.value) for s in specs]


def test_every_study_writes_its_shape() -> None:
    assert shapes(studies.sweep("minus-twenty", "hand_size", "6..7", ["random", "random"], deals=2)) == [
        ("sweep", "hand_size", 6), ("sweep", "hand_size", 7)]
    assert shapes(studies.matters("silver-bars", "random", deals=2, kinds=["lock"], always=True)) == [
        ("matters", "restriction", None), ("matters", "restriction", {"how": "without", "kind": "lock"}),
        ("matters", "restriction", {"how": "always", "kind": "lock"})]
    assert shapes(studies.depth("twenty", [8, 4], deals=2)) == [("depth", "budget", 4), ("depth", "budget", 8)]
    assert shapes(studies.luck("twenty", ["easy", "random"], deals=2)) == [("luck", "level", "easy"),
                                                                           ("luck", "level", "random")]
    assert StudyShape.from_json(StudyShape("sweep", "hand_size", 6).as_json()) == StudyShape("sweep", "hand_size", 6)


PLAN = """name = "p"
game = "minus-twenty"
players = ["random", "random"]
deals = 2
{extra}
[[variant]]
name = "a"

[[variant]]
name = "b"
options = {{ {b} }}

[[variant]]
name = "c"
{c}
"""


@pytest.mark.parametrize(("b", "c", "extra", "expected"), [
    ("hand_size = 8", "options = { hand_size = 6 }", "", [("sweep", "hand_size", v) for v in (7, 8, 6)]),
    ("hand_size = 8", "options = { stall_limit = 10 }", "", [("variants", None, None)] * 3),
    ("hand_size = 8", 'options = { hand_size = 6 }\nplayers = ["random", "easy"]', "", [("variants", None, None)] * 3),
])
def test_a_plan_s_variants_are_a_sweep_when_they_vary_one_option_alone(
        tmp_path: Path, b: str, c: str, extra: str, expected: list[Any]) -> None:
    path = tmp_path / "plan.toml"
    path.write_text(PLAN.format(b=b, c=c, extra=extra), encoding="utf-8")
    assert shapes(plan.load_plan(path)) == expected
    path.write_text('name = "s"\ngame = "twenty"\nplayers = ["random", "random"]\ndeals = 2\n'
                    '[sweep]\noption = "open_hands"\nvalues = "true,false"\n', encoding="utf-8")
    assert shapes(plan.load_plan(path)) == [("sweep", "open_hands", True), ("sweep", "open_hands", False)]


@pytest.fixture(scope="module")
def shaped(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, list[Any]]:
    """Tiny studies of every shape, and a plan whose variants vary two options, all played."""
    folder = tmp_path_factory.mktemp("shapes")
    path = folder / "plan.toml"
    path.write_text(PLAN.format(b="hand_size = 8", c="options = { stall_limit = 10 }", extra="rounds_only = true"),
                    encoding="utf-8")
    specs = [*studies.sweep("minus-twenty", "hand_size", "6..7", ["random", "random"], deals=3, rounds_only=True),
             *studies.matters("silver-bars", "random", deals=3, kinds=["lock", "play thief"], rounds_only=True),
             *studies.depth("twenty", [2, 4], deals=2, rounds_only=True),
             *studies.luck("twenty", ["random", "easy"], deals=3, rounds_only=True),
             *plan.load_plan(path)]
    store = Store(folder / "lab.sqlite")
    runner.run(specs, store, jobs=1)
    return store, specs


def findings(store: Store, names: list[str] | None = None) -> dict[str, Any]:
    return {c["study"]: c["findings"] for c in report.build(store, names, sample=1)["comparisons"]}


def forget_shapes(store: Store) -> None:
    """Make the database one of the release before shapes: no experiment has one."""
    with store.session() as session:
        session.execute(update(Experiment).values(shape=None))


def test_the_store_keeps_each_spec_s_shape(shaped: tuple[Store, list[Any]]) -> None:
    store, specs = shaped
    for spec in specs:
        row = store.experiment(spec.name)
        assert row is not None and row.shape == spec.shape.as_json()


def test_the_report_reads_stored_shapes_and_the_old_shape_without_them(
        shaped: tuple[Store, list[Any]], tmp_path: Path) -> None:
    store, specs = shaped
    copy = Store(tmp_path / "old.sqlite")
    runner.run(specs, copy, jobs=1)
    forget_shapes(copy)
    new, old = findings(store), findings(copy)
    assert new == old  # the study functions' shapes say what their experiments always showed
    asked = {study: sorted(key for key, value in found.items() if value is not None) for study, found in new.items()}
    assert asked == {"sweep hand_size": ["sweep"], "what matters": ["matters"], "skill depth": ["depth"],
                     "deal luck": ["luck"], "p": []}
    assert [(row["how"], row["kind"]) for row in new["what matters"]["matters"]] == [("without", "lock"),
                                                                                   ("without", "play thief")]
    assert [row["budget"] for row in new["skill depth"]["depth"]] == [2, 4]
    # Two of a plan's variants that happen to differ in one option are no sweep: the plan varies two.
    two = ["p/a", "p/b"]
    assert findings(store, two)["p"]["sweep"] is None
    assert findings(copy, two)["p"]["sweep"]["option"] == "hand_size"  # what the old reading made of them


def test_running_a_plan_again_stores_the_shape_an_old_experiment_lacks(shaped: tuple[Store, list[Any]],
                                                                        tmp_path: Path) -> None:
    _, specs = shaped
    depth = [s for s in specs if s.study == "skill depth"]
    store = Store(tmp_path / "lab.sqlite")
    runner.run(depth, store, jobs=1)
    forget_shapes(store)
    assert runner.run(depth, store, jobs=1) == 0
    assert [store.experiment(s.name).shape for s in depth] == [s.shape.as_json() for s in depth]  # type: ignore[union-attr]


def lab_imports(path: Path) -> set[str]:
    """The lab modules ``path`` imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("parlour.lab"):
            found |= {f"{node.module}.{a.name}" if node.module == "parlour.lab" else node.module for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("parlour.lab")}
    return found


def test_the_lab_s_modules_import_one_another_one_way() -> None:
    modules = {}
    for path in LAB.rglob("*.py"):
        parts = path.relative_to(LAB.parent.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    graph = {name: {m for m in lab_imports(path) if m in modules and m != name} for name, path in modules.items()}
    for name, path in modules.items():  # a submodule imports its package's __init__ too, except the package itself
        parent = name.rpartition(".")[0]
        if parent in modules and parent != "parlour.lab" and path.name != "__init__.py":
            assert parent not in graph[name], f"{name} imports its own package"
    seen: dict[str, str] = {}

    def visit(name: str, trail: list[str]) -> None:
        if seen.get(name) == "done":
            return
        assert seen.get(name) != "open", "import circle: " + " -> ".join([*trail, name])
        seen[name] = "open"
        for other in sorted(graph[name]):
            visit(other, [*trail, name])
        seen[name] = "done"

    for name in sorted(graph):
        visit(name, [])
    assert "parlour.lab.studies" in graph["parlour.lab.plan"] and "parlour.lab.plan" not in graph["parlour.lab.studies"]
